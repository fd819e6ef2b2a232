// Semi-smooth Newton ("newton"), Preclik, Iglberger, Ruede (seeds/002 §3.3,
// eqs. 17-20), for the models with separable fixed bounds l <= x <= u
// (frictionless: [0, inf); box: ConeSet::bounds). The complementarity
// problem (eq. 17) is the root of the min-max function (eq. 18)
//   F(x) = max(x - u, min(x - l, A x + b))     (= x - Pi_[l,u](x - (A x + b)),
//                                               so |F|_inf is the natural residual)
// and each iteration solves the Newton equation J dx = -F (eq. 20) with one
// element J of the B-differential (eq. 19), picked row-wise:
//   row i = e_i^T   where a bound is selected: x_i - u_i wins the max (upper), or
//                    x_i - l_i <= (A x + b)_i wins the min (lower; ties go here);
//   row i = A_i     where the inner min selects (A x + b)_i (free).
// With the rows ordered (free F, bound B), J = [[A_FF, A_FB], [0, I]], so the
// Newton equation is solved by its Schur complement (the variant §3.3 calls
// "much more efficient"): dx_B = -F_B (the bound rows land exactly on their
// bound) and A_FF dx_F = -(A x + b + A dx_B)_F. A_FF is a principal submatrix
// of a PSD matrix: symmetric PSD, possibly singular, so the reduced system is
// solved by MINRES (Belos::MinresSolMgr through the Tpetra adapters) on the
// matrix-free operator P_F A P_F + P_B (the bound block is the identity with a
// zero right-hand side, so MINRES works on the free rows only). Relative
// tolerance krylov_tolerance, at most krylov_iterations iterations.
// Globalisation: backtracking line search on the merit 1/2 |F|^2 with the
// Armijo condition theta(x + t dx) <= (1 - 2 armijo t) theta(x), t = 1, 1/2, ...
// down to min_step (each trial is free: A(x + t dx) = A x + t A dx). When it
// fails (a kink of F, or a singular reduced system without a descent
// direction), the iteration falls back to one projected-gradient step from
// Pi_K(x): d = Pi_K(y - (A y + b)) - y, y = Pi_K(x), with the exact line
// minimiser along d clipped to [0, 1] (stays in K, the QP objective decreases).
// Only these fallback steps may increase the merit.
// Like the paper's method, the iterates need not lie in K; a converged
// iterate is replaced by its projection onto K when that is converged too.
//
// Cost (operator_applies counts every application of A, including those inside
// MINRES): A dx_B (when some bound row moves), the Krylov iterations, A dx,
// plus two for a fallback step.
#include "solver_factories.hpp"
#include "solver_kernels.hpp"

#include <BelosLinearProblem.hpp>
#include <BelosMinresSolMgr.hpp>
#include <BelosTpetraAdapter.hpp>
#include <Teuchos_ParameterList.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>
#include <vector>

namespace grains::solver_detail {
namespace {

using Index = long long;

/// The reduced Newton matrix P_F A P_F + P_B as a matrix-free Tpetra operator
/// (symmetric: the free rows see A restricted to the free columns, the bound
/// rows the identity). Counts its applications of A.
class ReducedJacobian final : public Operator {
 public:
  ReducedJacobian(RCP<const Operator> A, const std::vector<char>& free, int& applies)
      : A_(std::move(A)), free_(free), applies_(applies) {}

  RCP<const Map> getDomainMap() const override { return A_->getDomainMap(); }
  RCP<const Map> getRangeMap() const override { return A_->getRangeMap(); }
  bool hasTransposeApply() const override { return true; }  // symmetric

  void apply(const MultiVector& X, MultiVector& Y, Teuchos::ETransp /*mode*/ = Teuchos::NO_TRANS,
             Scalar alpha = 1.0, Scalar beta = 0.0) const override {
    const std::size_t columns = X.getNumVectors();
    MultiVector masked(X, Teuchos::Copy);
    MultiVector product(Y.getMap(), columns, false);
    const Index n = static_cast<Index>(X.getLocalLength());
    {
      auto m = masked.getLocalViewHost(Tpetra::Access::ReadWrite);
      for (std::size_t j = 0; j < columns; ++j) {
#pragma omp parallel for schedule(static)
        for (Index i = 0; i < n; ++i) {
          if (!free_[static_cast<std::size_t>(i)]) m(i, j) = 0.0;
        }
      }
    }
    A_->apply(masked, product);
    applies_ += static_cast<int>(columns);
    auto x = X.getLocalViewHost(Tpetra::Access::ReadOnly);
    auto p = product.getLocalViewHost(Tpetra::Access::ReadOnly);
    auto y = Y.getLocalViewHost(Tpetra::Access::ReadWrite);
    for (std::size_t j = 0; j < columns; ++j) {
#pragma omp parallel for schedule(static)
      for (Index i = 0; i < n; ++i) {
        const double kv = free_[static_cast<std::size_t>(i)] ? p(i, j) : x(i, j);
        y(i, j) = beta == 0.0 ? alpha * kv : alpha * kv + beta * y(i, j);
      }
    }
  }

 private:
  RCP<const Operator> A_;
  const std::vector<char>& free_;
  int& applies_;
};

class NewtonSolver final : public Solver {
 public:
  explicit NewtonSolver(SolverSettings settings)
      : settings_(std::move(settings)),
        krylov_tolerance_(solverOption(settings_, "krylov_tolerance")),
        krylov_iterations_(static_cast<int>(solverOption(settings_, "krylov_iterations"))),
        armijo_(solverOption(settings_, "armijo")),
        min_step_(solverOption(settings_, "min_step")) {}
  std::string name() const override { return "newton"; }
  SolveReport solve(const QuadraticProgram& qp, Vector& gamma) const override;

 private:
  SolverSettings settings_;
  double krylov_tolerance_;
  int krylov_iterations_;
  double armijo_;
  double min_step_;
};

/// 1/2 |F(x + t dx)|^2 over all ranks, with A(x + t dx) = Ax + t Adx (eq. 18).
double merit(const Vector& x, const Vector& Ax, const Vector& dx, const Vector& Adx, double t,
             const Vector& b, const std::vector<double>& lower, const std::vector<double>& upper) {
  const double* px = readOnly(x);
  const double* pAx = readOnly(Ax);
  const double* pd = readOnly(dx);
  const double* pAd = readOnly(Adx);
  const double* pb = readOnly(b);
  const Index n = static_cast<Index>(x.getLocalLength());
  double local = 0.0;
#pragma omp parallel for schedule(static) reduction(+ : local)
  for (Index i = 0; i < n; ++i) {
    const std::size_t k = static_cast<std::size_t>(i);
    const double xi = px[i] + t * pd[i];
    const double gi = pAx[i] + t * pAd[i] + pb[i];
    const double f = std::max(xi - upper[k], std::min(xi - lower[k], gi));
    local += 0.5 * f * f;
  }
  return globalSum(x, local);
}

SolveReport NewtonSolver::solve(const QuadraticProgram& qp, Vector& gamma) const {
  checkLayout(qp, gamma, "newton");
  if (!isSeparable(qp.cones.model)) {
    throw std::invalid_argument(
        "newton: friction model '" + frictionModelName(qp.cones.model) +
        "' has no separable bounds (frictionless, box); create the solver for this model "
        "through SolverRegistry::create(name, settings, model), which adds the Tresca-to-Coulomb "
        "fixed point over box");
  }
  qp.cones.project(gamma);  // warm start onto K (throws when box bounds are missing)
  const Index n = static_cast<Index>(gamma.getLocalLength());
  const std::size_t un = static_cast<std::size_t>(n);
  std::vector<double> lower(un), upper(un);
  qp.cones.bounds(lower.data(), upper.data());

  const double tol = scaledTolerance(settings_.tolerance);
  const Vector& b = *qp.b;
  const auto map = gamma.getMap();
  Vector& x = gamma;
  Vector Ax(map, false), step(map, false), Astep(map, false), best(map, false), y(map, false),
      Ay(map, false);
  auto lhs = rcp(new Vector(map, false));
  auto rhs = rcp(new Vector(map, false));
  std::vector<char> is_free(un, 0);
  std::vector<double> target(un, 0.0);  // the bound of each bound row
  int applies = 0;
  const auto jacobian = rcp(new ReducedJacobian(qp.A, is_free, applies));

  qp.A->apply(x, Ax);
  ++applies;
  double residual = naturalResidual(qp.cones, x, Ax, &b);
  double best_residual = residual;
  Tpetra::deep_copy(best, x);
  int iterations = 0;

  while (!(residual <= tol) && iterations < settings_.max_iterations) {
    ++iterations;
    // Element of the B-differential, row by row (eq. 19), and dx_B = -F_B.
    bool bound_moves = false;
    {
      const double* px = readOnly(x);
      const double* pAx = readOnly(Ax);
      const double* pb = readOnly(b);
      double* ps = step.getLocalViewHost(Tpetra::Access::OverwriteAll).data();
      int moves = 0;
#pragma omp parallel for schedule(static) reduction(max : moves)
      for (Index i = 0; i < n; ++i) {
        const std::size_t k = static_cast<std::size_t>(i);
        const double g = pAx[i] + pb[i];
        const double to_lower = px[i] - lower[k];
        const double to_upper = px[i] - upper[k];
        const double inner = std::min(to_lower, g);
        double target_value = 0.0;
        bool at_bound = true;
        if (to_upper > inner) {
          target_value = upper[k];
        } else if (to_lower <= g) {
          target_value = lower[k];
        } else {
          at_bound = false;
        }
        is_free[k] = at_bound ? 0 : 1;
        target[k] = target_value;
        ps[i] = at_bound ? target_value - px[i] : 0.0;
        if (ps[i] != 0.0) moves = 1;
      }
      bound_moves = globalMax(x, static_cast<double>(moves)) > 0.0;
    }
    // Reduced right-hand side -(A x + b + A dx_B) on the free rows, 0 on the bound rows.
    if (bound_moves) {
      qp.A->apply(step, Astep);
      ++applies;
    } else {
      Astep.putScalar(0.0);
    }
    {
      const double* pAx = readOnly(Ax);
      const double* pb = readOnly(b);
      const double* pAs = readOnly(Astep);
      double* pr = rhs->getLocalViewHost(Tpetra::Access::OverwriteAll).data();
#pragma omp parallel for schedule(static)
      for (Index i = 0; i < n; ++i)
        pr[i] = is_free[static_cast<std::size_t>(i)] ? -(pAx[i] + pb[i] + pAs[i]) : 0.0;
    }
    lhs->putScalar(0.0);
    if (rhs->normInf() > 0.0) {
      auto problem =
          rcp(new Belos::LinearProblem<Scalar, MultiVector, Operator>(jacobian, lhs, rhs));
      problem->setProblem();
      auto params = Teuchos::parameterList();
      params->set("Convergence Tolerance", krylov_tolerance_);
      params->set("Maximum Iterations", krylov_iterations_);
      params->set("Verbosity", static_cast<int>(Belos::Errors));
      Belos::MinresSolMgr<Scalar, MultiVector, Operator> minres(problem, params);
      try {
        minres.solve();  // an unconverged solve still gives a usable direction
      } catch (const std::exception&) {
        lhs->putScalar(0.0);  // breakdown: only the bound rows move; the line search decides
      }
    }
    step.update(1.0, *lhs, 1.0);  // dx = [dx_F; dx_B]
    qp.A->apply(step, Astep);
    ++applies;

    // Armijo backtracking on the merit 1/2 |F|^2.
    const double theta = merit(x, Ax, step, Astep, 0.0, b, lower, upper);
    double t = 1.0;
    bool accepted = false;
    while (t >= min_step_) {
      const double trial = merit(x, Ax, step, Astep, t, b, lower, upper);
      if (trial <= (1.0 - 2.0 * armijo_ * t) * theta) {
        accepted = true;
        break;
      }
      t *= 0.5;
    }
    if (accepted) {
      x.update(t, step, 1.0);
      Ax.update(t, Astep, 1.0);
      if (t == 1.0) {  // full step: the bound rows are exactly on their bounds
        double* px = x.getLocalViewHost(Tpetra::Access::ReadWrite).data();
#pragma omp parallel for schedule(static)
        for (Index i = 0; i < n; ++i) {
          const std::size_t k = static_cast<std::size_t>(i);
          if (!is_free[k]) px[i] = target[k];
        }
      }
    } else {
      // Fallback: one projected-gradient step from y = Pi_K(x).
      Tpetra::deep_copy(y, x);
      qp.cones.project(y);
      qp.A->apply(y, Ay);
      ++applies;
      projectedStep(qp.cones, y, Ay, &b, 1.0, step);  // Pi_K(y - (A y + b))
      step.update(-1.0, y, 1.0);                      // d
      qp.A->apply(step, Astep);
      ++applies;
      const double dAd = step.dot(Astep);
      const double slope = Ay.dot(step) + b.dot(step);  // (A y + b).d < 0
      double s = dAd > 0.0 ? -slope / dAd : 1.0;
      if (!(s >= 0.0)) s = 0.0;
      s = std::min(s, 1.0);
      Tpetra::deep_copy(x, y);
      Tpetra::deep_copy(Ax, Ay);
      x.update(s, step, 1.0);
      Ax.update(s, Astep, 1.0);
    }

    residual = naturalResidual(qp.cones, x, Ax, &b);
    if (residual <= tol) {  // confirm with the exact A x (it was updated incrementally)
      qp.A->apply(x, Ax);
      ++applies;
      residual = naturalResidual(qp.cones, x, Ax, &b);
    }
    if (residual < best_residual) {
      best_residual = residual;
      Tpetra::deep_copy(best, x);
    }
    observe(iterations, x);
  }
  // A converged iterate outside K: return its projection when that is converged too.
  if (best_residual <= tol) {
    Tpetra::deep_copy(y, best);
    qp.cones.project(y);
    y.update(-1.0, best, 1.0);
    if (y.normInf() > 0.0) {
      y.update(1.0, best, 1.0);
      qp.A->apply(y, Ay);
      ++applies;
      if (naturalResidual(qp.cones, y, Ay, &b) <= tol) Tpetra::deep_copy(best, y);
    }
  }
  return finishReport(name(), qp, best, gamma, iterations, applies, tol);
}

}  // namespace

std::unique_ptr<Solver> makeNewtonSolver(const SolverSettings& settings) {
  return std::make_unique<NewtonSolver>(settings);
}

}  // namespace grains::solver_detail
