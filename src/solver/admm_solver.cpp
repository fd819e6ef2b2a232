// Alternating direction method of multipliers for the cone complementarity
// problem ("admm"), after Tasora, Mangoni, Benatti, Garziera, "Solving
// variational inequalities and cone complementarity problems in nonsmooth
// dynamics using the alternating direction method of multipliers", Int. J.
// Numer. Methods Eng. 122(16), 2021 (the method of Chrono's ChSolverADMM).
// The QP min 1/2 g.A g + b.g over g in K is split as g = z, z in K, and the
// scaled ADMM iteration (Boyd et al., "Distributed optimization and
// statistical learning via the alternating direction method of multipliers",
// Found. Trends Mach. Learn. 3(1), 2011, eqs. 3.5-3.7 with over-relaxation,
// eq. 3.19) is run in the metric R = P of diagonal_metric.hpp:
//   x_{k+1}: (A + rho R) x = rho R (z_k - u_k) - b          (matrix-free PCG)
//   h       = alpha x_{k+1} + (1 - alpha) z_k               (over-relaxation)
//   z_{k+1} = Pi^R_K(h + u_k) = S Pi_{S^-1 K}(S^-1 (h + u_k))
//   u_{k+1} = u_k + h - z_{k+1}
// The R-metric projection is the exact per-contact projection onto the
// rescaled set S^-1 K (diagonal_metric.hpp). At a solution x = z and
// A z + b = -rho R u, so a warm start g_0 starts from z = x = Pi_K(g_0) and
// u = -(A z + b) / (rho R): an exact solution is kept in zero iterations.
// The penalty is balanced as in Tasora et al. (sec. 4.3) and OSQP (Stellato
// et al., "OSQP: an operator splitting solver for quadratic programs", Math.
// Program. Comput. 12, 2020, eq. 24): rho <- rho sqrt(r_p / r_d) with the
// primal residual r_p = |x - z|_R and the dual residual r_d = rho |z - z_old|_R,
// when that factor leaves [1/rho_threshold, rho_threshold], capped at
// rho_max_factor; the scaled multiplier u is divided by the same factor.
// The inner solve is preconditioned CG (Jacobi, diag(A) + rho R), warm-started
// at x_k, at least one step, stopped when |R^-1 r|_inf <= cg_factor * (the
// smallest natural residual so far): inexact ADMM whose inner accuracy
// follows the outer one. (Relative to the current residual instead, a growing
// residual loosens the inner solves and the iteration can diverge; with no
// step at all x stays put while z and u move, and the iteration crawls.)
// Each iteration starts with one exact product A x_k (the CG's starting
// residual), which also gives the natural residual of x_k; applications of A
// counted are those products plus every CG step. x_k need not lie in K: the
// solve stops when its natural residual meets the tolerance, and returns
// Pi_K(x_k) instead when that one meets it too (one more product).
#include "contact_projection.hpp"
#include "diagonal_metric.hpp"
#include "solver_factories.hpp"
#include "solver_kernels.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

namespace grains::solver_detail {
namespace {

using Index = long long;

double* writable(Vector& v) { return v.getLocalViewHost(Tpetra::Access::ReadWrite).data(); }
double* overwritten(Vector& v) { return v.getLocalViewHost(Tpetra::Access::OverwriteAll).data(); }

/// The pieces of the scaled problem the iteration needs, per local unknown.
struct AdmmMetric {
  DiagonalMetric metric;       ///< S, 1/S, S^-1 K
  std::vector<double> diag;    ///< diag(A)
  std::vector<double> weight;  ///< R = 1 / s^2
};

class AdmmSolver final : public Solver {
 public:
  explicit AdmmSolver(SolverSettings settings)
      : settings_(std::move(settings)),
        rho_(solverOption(settings_, "rho")),
        relaxation_(solverOption(settings_, "relaxation")),
        cg_factor_(solverOption(settings_, "cg_factor")),
        cg_iterations_(static_cast<int>(solverOption(settings_, "cg_iterations"))),
        rho_threshold_(solverOption(settings_, "rho_threshold")),
        rho_max_factor_(solverOption(settings_, "rho_max_factor")) {}
  std::string name() const override { return "admm"; }
  SolveReport solve(const QuadraticProgram& qp, Vector& gamma) const override;

 private:
  /// PCG on (A + rho R) w = rhs from w = x, with r = rhs - (A + rho R) x on
  /// entry; x and r are updated in place; at least one step unless r = 0,
  /// then until |R^-1 r|_inf <= stop. Returns the number of A products.
  int innerSolve(const QuadraticProgram& qp, const AdmmMetric& m, double rho, double stop,
                 Vector& x, Vector& r, Vector& w, Vector& p, Vector& q) const;

  SolverSettings settings_;
  double rho_;
  double relaxation_;
  double cg_factor_;
  int cg_iterations_;
  double rho_threshold_;
  double rho_max_factor_;
};

/// w = M^-1 r with M = diag(A) + rho R; returns the global (r.w, |R^-1 r|_inf).
std::pair<double, double> precondition(const AdmmMetric& m, double rho, const Vector& r,
                                       Vector& w) {
  const double* pr = readOnly(r);
  double* pw = overwritten(w);
  const double* pd = m.diag.data();
  const double* pR = m.weight.data();
  const Index n = static_cast<Index>(r.getLocalLength());
  double rw = 0.0;
  double largest = 0.0;
#pragma omp parallel for schedule(static) reduction(+ : rw) reduction(max : largest)
  for (Index i = 0; i < n; ++i) {
    pw[i] = pr[i] / (pd[i] + rho * pR[i]);
    rw += pr[i] * pw[i];
    largest = std::max(largest, std::abs(pr[i] / pR[i]));
  }
  const double global_largest =
      globalMax(r, std::isnan(largest) ? std::numeric_limits<double>::infinity() : largest);
  return {globalSum(r, rw), global_largest};
}

int AdmmSolver::innerSolve(const QuadraticProgram& qp, const AdmmMetric& m, double rho, double stop,
                           Vector& x, Vector& r, Vector& w, Vector& p, Vector& q) const {
  const Index n = static_cast<Index>(x.getLocalLength());
  const double* pR = m.weight.data();
  auto [rw, largest] = precondition(m, rho, r, w);
  if (!(largest > 0.0)) return 0;  // at least one step otherwise: x must move with z and u
  Tpetra::deep_copy(p, w);
  int products = 0;
  while (products < cg_iterations_) {
    qp.A->apply(p, q);
    ++products;
    double* pq = writable(q);
    const double* pp = readOnly(p);
    double curvature = 0.0;
#pragma omp parallel for schedule(static) reduction(+ : curvature)
    for (Index i = 0; i < n; ++i) {
      pq[i] += rho * pR[i] * pp[i];
      curvature += pp[i] * pq[i];
    }
    curvature = globalSum(x, curvature);
    if (!(curvature > 0.0) || !std::isfinite(curvature)) break;  // p = 0 or rounding
    const double step = rw / curvature;
    x.update(step, p, 1.0);
    r.update(-step, q, 1.0);
    const auto [rw_next, largest_next] = precondition(m, rho, r, w);
    if (largest_next <= stop) break;
    p.update(1.0, w, rw_next / rw);
    rw = rw_next;
  }
  return products;
}

/// Over-relaxed projection and multiplier update (per contact, local):
/// h = a x + (1 - a) z, z <- Pi^R_K(h + u), u <- u + h - z. Returns the
/// local squares of |x - z_new|_R and |z_new - z_old|_R.
template <ProjectionKind Kind>
std::pair<double, double> splitUpdate(const DiagonalMetric& metric, double a, const double* px,
                                      double* pz, double* pu) {
  constexpr int block = kindBlockSize<Kind>();
  const Index contacts = static_cast<Index>(metric.cones.localContacts());
  const double* ps = metric.scale.data();
  const double* pinv = metric.inverse.data();
  double primal = 0.0;
  double dual = 0.0;
#pragma omp parallel for schedule(static) reduction(+ : primal, dual)
  for (Index c = 0; c < contacts; ++c) {
    double h[block];
    double v[block];
    for (int k = 0; k < block; ++k) {
      const Index i = block * c + k;
      h[k] = a * px[i] + (1.0 - a) * pz[i];
      v[k] = (h[k] + pu[i]) * pinv[i];
    }
    projectContactAs<Kind>(metric.cones, static_cast<std::size_t>(c), v);
    for (int k = 0; k < block; ++k) {
      const Index i = block * c + k;
      const double z_new = ps[i] * v[k];
      pu[i] += h[k] - z_new;
      const double gap = (px[i] - z_new) * pinv[i];
      const double move = (z_new - pz[i]) * pinv[i];
      primal += gap * gap;
      dual += move * move;
      pz[i] = z_new;
    }
  }
  return {primal, dual};
}

SolveReport AdmmSolver::solve(const QuadraticProgram& qp, Vector& gamma) const {
  checkLayout(qp, gamma, "admm");
  const double tol = scaledTolerance(settings_.tolerance);
  const Vector* b = qp.b.get();
  const auto map = gamma.getMap();
  const Index n = static_cast<Index>(gamma.getLocalLength());

  qp.cones.project(gamma);  // warm start onto K: x_0 = z_0
  Vector& x = gamma;
  Vector Ax(map, false);
  qp.A->apply(x, Ax);
  int applies = 1;
  double residual = naturalResidual(qp.cones, x, Ax, b);
  if (residual <= tol || settings_.max_iterations <= 0) {
    return finishReport(name(), qp, x, Ax, gamma, 0, applies, tol);
  }

  AdmmMetric m{diagonalMetric(qp), localDiagonal(qp), {}};
  m.metric.cones.requireBounds("admm");
  m.weight.resize(m.metric.scale.size());
  for (std::size_t i = 0; i < m.weight.size(); ++i)
    m.weight[i] = m.metric.inverse[i] * m.metric.inverse[i];
  for (std::size_t i = 0; i < m.diag.size(); ++i)
    if (!(m.diag[i] > 0.0) || !std::isfinite(m.diag[i])) m.diag[i] = m.weight[i];
  const double* pR = m.weight.data();
  const double* pb = readOnly(*b);

  Vector z(map, false), u(map, false), r(map, false), w(map, false), p(map, false), q(map, false),
      best(map, false);
  Tpetra::deep_copy(z, x);
  double rho = rho_;
  {
    const double* pAx = readOnly(Ax);
    double* pu = overwritten(u);
#pragma omp parallel for schedule(static)
    for (Index i = 0; i < n; ++i) pu[i] = -(pAx[i] + pb[i]) / (rho * pR[i]);
  }
  Tpetra::deep_copy(best, x);
  double best_residual = residual;
  int iterations = 0;
  bool converged = false;
  while (iterations < settings_.max_iterations) {
    ++iterations;
    // r = rho R (z - u) - b - (A + rho R) x, then PCG from x.
    {
      const double* px = readOnly(x);
      const double* pAx = readOnly(Ax);
      const double* pz = readOnly(z);
      const double* pu = readOnly(u);
      double* pr = overwritten(r);
#pragma omp parallel for schedule(static)
      for (Index i = 0; i < n; ++i) pr[i] = rho * pR[i] * (pz[i] - pu[i] - px[i]) - pb[i] - pAx[i];
    }
    applies += innerSolve(qp, m, rho, cg_factor_ * best_residual, x, r, w, p, q);

    const auto [primal_local, dual_local] = withProjectionKind(m.metric.cones, [&](auto kind) {
      return splitUpdate<decltype(kind)::value>(m.metric, relaxation_, readOnly(x), writable(z),
                                                writable(u));
    });
    const auto [primal2, dual2] = globalSums<2>(x, {primal_local, dual_local});
    const double primal = std::sqrt(primal2);
    const double dual = rho * std::sqrt(dual2);
    if (primal > 0.0 && dual > 0.0) {
      double factor = std::sqrt(primal / dual);
      if (factor > rho_threshold_ || factor < 1.0 / rho_threshold_) {
        factor = std::clamp(factor, 1.0 / rho_max_factor_, rho_max_factor_);
        rho *= factor;
        u.scale(1.0 / factor);
      }
    }

    qp.A->apply(x, Ax);
    ++applies;
    residual = naturalResidual(qp.cones, x, Ax, b);
    observe(iterations, x);
    if (residual <= tol) {
      converged = true;
      break;
    }
    if (residual < best_residual) {
      best_residual = residual;
      Tpetra::deep_copy(best, x);
    }
  }
  if (!converged) return finishReport(name(), qp, best, gamma, iterations, applies, tol);

  // x meets the tolerance; prefer its projection onto K when that does too.
  Tpetra::deep_copy(p, x);
  qp.cones.project(p);
  qp.A->apply(p, q);
  ++applies;
  if (naturalResidual(qp.cones, p, q, b) <= tol) {
    return finishReport(name(), qp, p, q, gamma, iterations, applies, tol);
  }
  return finishReport(name(), qp, x, Ax, gamma, iterations, applies, tol);
}

}  // namespace

std::unique_ptr<Solver> makeAdmmSolver(const SolverSettings& settings) {
  return std::make_unique<AdmmSolver>(settings);
}

}  // namespace grains::solver_detail
