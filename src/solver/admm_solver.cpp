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

/// The options of admm (see the header).
struct AdmmOptions {
  double rho;
  double relaxation;
  double cg_factor;
  int cg_iterations;
  double rho_threshold;
  double rho_max_factor;
};

class AdmmSolver final : public Solver {
 public:
  explicit AdmmSolver(SolverSettings settings)
      : settings_(std::move(settings)),
        options_{solverOption(settings_, "rho"),
                 solverOption(settings_, "relaxation"),
                 solverOption(settings_, "cg_factor"),
                 static_cast<int>(solverOption(settings_, "cg_iterations")),
                 solverOption(settings_, "rho_threshold"),
                 solverOption(settings_, "rho_max_factor")} {}
  std::string name() const override { return "admm"; }
  SolveReport solve(const QuadraticProgram& qp, Vector& gamma) const override;

 private:
  SolverSettings settings_;
  AdmmOptions options_;
};

/// R = P of diagonal_metric.hpp with its weights 1 / s^2, and diag(A) for the
/// inner preconditioner (a zero or non-finite entry replaced by the weight).
AdmmMetric admmMetric(const QuadraticProgram& qp) {
  AdmmMetric m{diagonalMetric(qp), localDiagonal(qp), {}};
  m.metric.cones.requireBounds("admm");
  m.weight.resize(m.metric.scale.size());
  for (std::size_t i = 0; i < m.weight.size(); ++i)
    m.weight[i] = m.metric.inverse[i] * m.metric.inverse[i];
  for (std::size_t i = 0; i < m.diag.size(); ++i)
    if (!(m.diag[i] > 0.0) || !std::isfinite(m.diag[i])) m.diag[i] = m.weight[i];
  return m;
}

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

/// The state of one solve: x (gamma) and A x, z and the scaled multiplier u,
/// the metric, the PCG vectors (r, w, p, q), the penalty rho, the best
/// iterate and the applications of A.
class AdmmRun {
 public:
  AdmmRun(const QuadraticProgram& qp, Vector& x, const AdmmOptions& options)
      : qp_(qp),
        b_(qp.b.get()),
        x_(x),
        options_(options),
        n_(static_cast<Index>(x.getLocalLength())),
        rho_(options.rho),
        Ax_(x.getMap(), false),
        z_(x.getMap(), false),
        u_(x.getMap(), false),
        r_(x.getMap(), false),
        w_(x.getMap(), false),
        p_(x.getMap(), false),
        q_(x.getMap(), false),
        best_(x.getMap(), false) {}

  double start();
  void prepare(double residual);
  double iterate();
  void keepIfBest(double residual);
  bool projectionConverges(double tol);
  const Vector& Ax() const { return Ax_; }
  const Vector& best() const { return best_; }
  /// Pi_K(x) and its image, after projectionConverges.
  const Vector& projected() const { return p_; }
  const Vector& projectedImage() const { return q_; }
  int applies() const { return applies_; }

 private:
  void startMultiplier();
  void xUpdate();
  int innerSolve(double stop);
  std::pair<double, double> zuUpdate();
  void balancePenalty(double primal, double dual);

  const QuadraticProgram& qp_;
  const Vector* b_;
  Vector& x_;
  const AdmmOptions& options_;
  const Index n_;
  double rho_;
  Vector Ax_, z_, u_, r_, w_, p_, q_, best_;
  AdmmMetric m_;
  double best_residual_ = 0.0;
  int applies_ = 0;
};

// A x_0 and the natural residual of the projected warm start.
double AdmmRun::start() {
  qp_.A->apply(x_, Ax_);
  applies_ = 1;
  return naturalResidual(qp_.cones, x_, Ax_, b_);
}

// Before the first iteration: the metric, z_0 = x_0, u_0 (see the header)
// and x_0 as the best iterate so far.
void AdmmRun::prepare(double residual) {
  m_ = admmMetric(qp_);
  Tpetra::deep_copy(z_, x_);
  startMultiplier();
  Tpetra::deep_copy(best_, x_);
  best_residual_ = residual;
}

// u_0 = -(A z + b) / (rho R): an exact solution is kept in zero iterations.
void AdmmRun::startMultiplier() {
  const double* pR = m_.weight.data();
  const double* pb = readOnly(*b_);
  const double* pAx = readOnly(Ax_);
  double* pu = overwritten(u_);
  const double rho = rho_;
#pragma omp parallel for schedule(static)
  for (Index i = 0; i < n_; ++i) pu[i] = -(pAx[i] + pb[i]) / (rho * pR[i]);
}

// x, z and u updates, the penalty balance, then A x_{k+1} and its natural
// residual.
double AdmmRun::iterate() {
  xUpdate();
  const auto [primal, dual] = zuUpdate();
  balancePenalty(primal, dual);
  qp_.A->apply(x_, Ax_);
  ++applies_;
  return naturalResidual(qp_.cones, x_, Ax_, b_);
}

// x_{k+1}: r = rho R (z - u) - b - (A + rho R) x, then PCG from x, as
// accurate as the smallest natural residual so far asks for.
void AdmmRun::xUpdate() {
  {
    const double* pR = m_.weight.data();
    const double* pb = readOnly(*b_);
    const double* px = readOnly(x_);
    const double* pAx = readOnly(Ax_);
    const double* pz = readOnly(z_);
    const double* pu = readOnly(u_);
    double* pr = overwritten(r_);
    const double rho = rho_;
#pragma omp parallel for schedule(static)
    for (Index i = 0; i < n_; ++i) pr[i] = rho * pR[i] * (pz[i] - pu[i] - px[i]) - pb[i] - pAx[i];
  }
  applies_ += innerSolve(options_.cg_factor * best_residual_);
}

// PCG on (A + rho R) w = rhs from w = x, with r = rhs - (A + rho R) x on
// entry; x and r are updated in place; at least one step unless r = 0, then
// until |R^-1 r|_inf <= stop. Returns the number of A products.
int AdmmRun::innerSolve(double stop) {
  const double* pR = m_.weight.data();
  const double rho = rho_;
  auto [rw, largest] = precondition(m_, rho, r_, w_);
  if (!(largest > 0.0)) return 0;  // at least one step otherwise: x must move with z and u
  Tpetra::deep_copy(p_, w_);
  int products = 0;
  while (products < options_.cg_iterations) {
    qp_.A->apply(p_, q_);
    ++products;
    double* pq = writable(q_);
    const double* pp = readOnly(p_);
    double curvature = 0.0;
#pragma omp parallel for schedule(static) reduction(+ : curvature)
    for (Index i = 0; i < n_; ++i) {
      pq[i] += rho * pR[i] * pp[i];
      curvature += pp[i] * pq[i];
    }
    curvature = globalSum(x_, curvature);
    if (!(curvature > 0.0) || !std::isfinite(curvature)) break;  // p = 0 or rounding
    const double step = rw / curvature;
    x_.update(step, p_, 1.0);
    r_.update(-step, q_, 1.0);
    const auto [rw_next, largest_next] = precondition(m_, rho, r_, w_);
    if (largest_next <= stop) break;
    p_.update(1.0, w_, rw_next / rw);
    rw = rw_next;
  }
  return products;
}

// z_{k+1} and u_{k+1} (over-relaxed, per contact in the metric R); returns
// the primal and dual residuals r_p = |x - z|_R, r_d = rho |z - z_old|_R.
std::pair<double, double> AdmmRun::zuUpdate() {
  const auto [primal_local, dual_local] = withProjectionKind(m_.metric.cones, [&](auto kind) {
    return splitUpdate<decltype(kind)::value>(m_.metric, options_.relaxation, readOnly(x_),
                                              writable(z_), writable(u_));
  });
  const auto [primal2, dual2] = globalSums<2>(x_, {primal_local, dual_local});
  return {std::sqrt(primal2), rho_ * std::sqrt(dual2)};
}

// rho <- rho sqrt(r_p / r_d) when that factor leaves [1/rho_threshold,
// rho_threshold], capped at rho_max_factor; u (scaled by 1/rho) follows.
void AdmmRun::balancePenalty(double primal, double dual) {
  if (primal > 0.0 && dual > 0.0) {
    double factor = std::sqrt(primal / dual);
    if (factor > options_.rho_threshold || factor < 1.0 / options_.rho_threshold) {
      factor = std::clamp(factor, 1.0 / options_.rho_max_factor, options_.rho_max_factor);
      rho_ *= factor;
      u_.scale(1.0 / factor);
    }
  }
}

void AdmmRun::keepIfBest(double residual) {
  if (residual < best_residual_) {
    best_residual_ = residual;
    Tpetra::deep_copy(best_, x_);
  }
}

// Pi_K(x) into p and its image into q (one more product); whether its
// natural residual meets the tolerance.
bool AdmmRun::projectionConverges(double tol) {
  Tpetra::deep_copy(p_, x_);
  qp_.cones.project(p_);
  qp_.A->apply(p_, q_);
  ++applies_;
  return naturalResidual(qp_.cones, p_, q_, b_) <= tol;
}

SolveReport AdmmSolver::solve(const QuadraticProgram& qp, Vector& gamma) const {
  checkLayout(qp, gamma, "admm");
  const double tol = scaledTolerance(settings_.tolerance);
  qp.cones.project(gamma);  // warm start onto K: x_0 = z_0
  AdmmRun run(qp, gamma, options_);
  double residual = run.start();
  if (residual <= tol || settings_.max_iterations <= 0) {
    return finishReport(name(), qp, gamma, run.Ax(), gamma, 0, run.applies(), tol);
  }
  run.prepare(residual);
  int iterations = 0;
  bool converged = false;
  while (iterations < settings_.max_iterations) {
    ++iterations;
    residual = run.iterate();
    observe(iterations, gamma);
    if (residual <= tol) {
      converged = true;
      break;
    }
    run.keepIfBest(residual);
  }
  if (!converged)
    return finishReport(name(), qp, run.best(), gamma, iterations, run.applies(), tol);

  // x meets the tolerance; prefer its projection onto K when that does too.
  if (run.projectionConverges(tol)) {
    return finishReport(name(), qp, run.projected(), run.projectedImage(), gamma, iterations,
                        run.applies(), tol);
  }
  return finishReport(name(), qp, gamma, run.Ax(), gamma, iterations, run.applies(), tol);
}

}  // namespace

std::unique_ptr<Solver> makeAdmmSolver(const SolverSettings& settings) {
  return std::make_unique<AdmmSolver>(settings);
}

}  // namespace grains::solver_detail
