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
#include <optional>
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

/// The options of one solve (see the header: MINRES tolerance and iteration
/// limit, Armijo constant, smallest step of the line search).
struct NewtonOptions {
  double krylov_tolerance;
  int krylov_iterations;
  double armijo;
  double min_step;
};

class NewtonSolver final : public Solver {
 public:
  explicit NewtonSolver(SolverSettings settings)
      : settings_(std::move(settings)),
        options_{solverOption(settings_, "krylov_tolerance"),
                 static_cast<int>(solverOption(settings_, "krylov_iterations")),
                 solverOption(settings_, "armijo"), solverOption(settings_, "min_step")} {}
  std::string name() const override { return "newton"; }
  SolveReport solve(const QuadraticProgram& qp, Vector& gamma) const override;

 private:
  SolverSettings settings_;
  NewtonOptions options_;
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

/// The state of one solve: the iterate x (gamma; it need not lie in K) and
/// A x, the bounds, the Newton step dx and A dx (`step`, `Astep`), the row
/// selection of J, the reduced system and the best iterate so far.
class NewtonRun {
 public:
  NewtonRun(const QuadraticProgram& qp, const NewtonOptions& options, double tol, Vector& x)
      : qp_(qp),
        options_(options),
        tol_(tol),
        b_(*qp.b),
        x_(x),
        n_(static_cast<Index>(x.getLocalLength())),
        lower_(static_cast<std::size_t>(n_)),
        upper_(static_cast<std::size_t>(n_)),
        Ax_(x.getMap(), false),
        step_(x.getMap(), false),
        Astep_(x.getMap(), false),
        best_(x.getMap(), false),
        y_(x.getMap(), false),
        Ay_(x.getMap(), false),
        lhs_(rcp(new Vector(x.getMap(), false))),
        rhs_(rcp(new Vector(x.getMap(), false))),
        is_free_(static_cast<std::size_t>(n_), 0),
        target_(static_cast<std::size_t>(n_), 0.0),
        jacobian_(rcp(new ReducedJacobian(qp.A, is_free_, applies_))) {
    qp.cones.bounds(lower_.data(), upper_.data());
  }

  void start();
  /// One Newton step (eq. 20) with the Armijo search, or the fallback step.
  void iterate();
  void projectBestIfConverged();
  double residual() const { return residual_; }
  const Vector& best() const { return best_; }
  int applies() const { return applies_; }

 private:
  void newtonDirection();
  bool selectRows();
  void reducedRightHandSide(bool bound_moves);
  void solveReducedSystem();
  std::optional<double> armijoStep() const;
  void takeNewtonStep(double t);
  void projectedGradientStep();
  void updateResidual();

  const QuadraticProgram& qp_;
  const NewtonOptions options_;
  const double tol_;
  const Vector& b_;
  Vector& x_;
  const Index n_;
  std::vector<double> lower_, upper_;
  Vector Ax_, step_, Astep_, best_, y_, Ay_;
  RCP<Vector> lhs_, rhs_;
  std::vector<char> is_free_;
  std::vector<double> target_;  ///< the bound of each bound row
  int applies_ = 0;
  RCP<ReducedJacobian> jacobian_;  ///< sees is_free_ and counts into applies_
  double residual_ = 0.0;
  double best_residual_ = 0.0;
};

// A x and the residual of the warm start, the best iterate so far.
void NewtonRun::start() {
  qp_.A->apply(x_, Ax_);
  ++applies_;
  residual_ = naturalResidual(qp_.cones, x_, Ax_, &b_);
  best_residual_ = residual_;
  Tpetra::deep_copy(best_, x_);
}

void NewtonRun::iterate() {
  newtonDirection();
  if (const std::optional<double> t = armijoStep()) {
    takeNewtonStep(*t);
  } else {
    projectedGradientStep();
  }
  updateResidual();
}

// dx = [dx_F; dx_B] solving J dx = -F (eq. 20) by its Schur complement, and A dx.
void NewtonRun::newtonDirection() {
  reducedRightHandSide(selectRows());
  solveReducedSystem();
  step_.update(1.0, *lhs_, 1.0);  // dx = [dx_F; dx_B]
  qp_.A->apply(step_, Astep_);
  ++applies_;
}

// Element of the B-differential, row by row (eq. 19), and dx_B = -F_B (in
// step; 0 on the free rows). Returns whether some bound row moves (on any rank).
bool NewtonRun::selectRows() {
  const double* px = readOnly(x_);
  const double* pAx = readOnly(Ax_);
  const double* pb = readOnly(b_);
  double* ps = step_.getLocalViewHost(Tpetra::Access::OverwriteAll).data();
  int moves = 0;
#pragma omp parallel for schedule(static) reduction(max : moves)
  for (Index i = 0; i < n_; ++i) {
    const std::size_t k = static_cast<std::size_t>(i);
    const double g = pAx[i] + pb[i];
    const double to_lower = px[i] - lower_[k];
    const double to_upper = px[i] - upper_[k];
    const double inner = std::min(to_lower, g);
    double target_value = 0.0;
    bool at_bound = true;
    if (to_upper > inner) {
      target_value = upper_[k];
    } else if (to_lower <= g) {
      target_value = lower_[k];
    } else {
      at_bound = false;
    }
    is_free_[k] = at_bound ? 0 : 1;
    target_[k] = target_value;
    ps[i] = at_bound ? target_value - px[i] : 0.0;
    if (ps[i] != 0.0) moves = 1;
  }
  return globalMax(x_, static_cast<double>(moves)) > 0.0;
}

// Reduced right-hand side -(A x + b + A dx_B) on the free rows, 0 on the bound
// rows (A dx_B = 0 without an application of A when no bound row moves).
void NewtonRun::reducedRightHandSide(bool bound_moves) {
  if (bound_moves) {
    qp_.A->apply(step_, Astep_);
    ++applies_;
  } else {
    Astep_.putScalar(0.0);
  }
  const double* pAx = readOnly(Ax_);
  const double* pb = readOnly(b_);
  const double* pAs = readOnly(Astep_);
  double* pr = rhs_->getLocalViewHost(Tpetra::Access::OverwriteAll).data();
#pragma omp parallel for schedule(static)
  for (Index i = 0; i < n_; ++i)
    pr[i] = is_free_[static_cast<std::size_t>(i)] ? -(pAx[i] + pb[i] + pAs[i]) : 0.0;
}

// dx_F (lhs, from 0) by MINRES on P_F A P_F + P_B with the reduced right-hand side.
void NewtonRun::solveReducedSystem() {
  lhs_->putScalar(0.0);
  if (rhs_->normInf() > 0.0) {
    auto problem =
        rcp(new Belos::LinearProblem<Scalar, MultiVector, Operator>(jacobian_, lhs_, rhs_));
    problem->setProblem();
    auto params = Teuchos::parameterList();
    params->set("Convergence Tolerance", options_.krylov_tolerance);
    params->set("Maximum Iterations", options_.krylov_iterations);
    params->set("Verbosity", static_cast<int>(Belos::Errors));
    Belos::MinresSolMgr<Scalar, MultiVector, Operator> minres(problem, params);
    try {
      minres.solve();  // an unconverged solve still gives a usable direction
    } catch (const std::exception&) {
      lhs_->putScalar(0.0);  // breakdown: only the bound rows move; the line search decides
    }
  }
}

// Armijo backtracking on the merit 1/2 |F|^2: the first t = 1, 1/2, ... (down
// to min_step) with theta(x + t dx) <= (1 - 2 armijo t) theta(x); none when it fails.
std::optional<double> NewtonRun::armijoStep() const {
  const double theta = merit(x_, Ax_, step_, Astep_, 0.0, b_, lower_, upper_);
  double t = 1.0;
  while (t >= options_.min_step) {
    const double trial = merit(x_, Ax_, step_, Astep_, t, b_, lower_, upper_);
    if (trial <= (1.0 - 2.0 * options_.armijo * t) * theta) return t;
    t *= 0.5;
  }
  return std::nullopt;
}

// x + t dx and A x + t A dx (no application of A).
void NewtonRun::takeNewtonStep(double t) {
  x_.update(t, step_, 1.0);
  Ax_.update(t, Astep_, 1.0);
  if (t == 1.0) {  // full step: the bound rows are exactly on their bounds
    double* px = x_.getLocalViewHost(Tpetra::Access::ReadWrite).data();
#pragma omp parallel for schedule(static)
    for (Index i = 0; i < n_; ++i) {
      const std::size_t k = static_cast<std::size_t>(i);
      if (!is_free_[k]) px[i] = target_[k];
    }
  }
}

// Fallback: one projected-gradient step from y = Pi_K(x) along
// d = Pi_K(y - (A y + b)) - y, with the exact line minimiser clipped to [0, 1]
// (stays in K, the QP objective decreases; the merit may increase).
void NewtonRun::projectedGradientStep() {
  Tpetra::deep_copy(y_, x_);
  qp_.cones.project(y_);
  qp_.A->apply(y_, Ay_);
  ++applies_;
  projectedStep(qp_.cones, y_, Ay_, &b_, 1.0, step_);  // Pi_K(y - (A y + b))
  step_.update(-1.0, y_, 1.0);                         // d
  qp_.A->apply(step_, Astep_);
  ++applies_;
  const double dAd = step_.dot(Astep_);
  const double slope = Ay_.dot(step_) + b_.dot(step_);  // (A y + b).d < 0
  double s = dAd > 0.0 ? -slope / dAd : 1.0;
  if (!(s >= 0.0)) s = 0.0;
  s = std::min(s, 1.0);
  Tpetra::deep_copy(x_, y_);
  Tpetra::deep_copy(Ax_, Ay_);
  x_.update(s, step_, 1.0);
  Ax_.update(s, Astep_, 1.0);
}

// The residual of the new iterate, and the best iterate so far.
void NewtonRun::updateResidual() {
  residual_ = naturalResidual(qp_.cones, x_, Ax_, &b_);
  if (residual_ <= tol_) {  // confirm with the exact A x (it was updated incrementally)
    qp_.A->apply(x_, Ax_);
    ++applies_;
    residual_ = naturalResidual(qp_.cones, x_, Ax_, &b_);
  }
  if (residual_ < best_residual_) {
    best_residual_ = residual_;
    Tpetra::deep_copy(best_, x_);
  }
}

// A converged iterate outside K: return its projection when that is converged too.
void NewtonRun::projectBestIfConverged() {
  if (best_residual_ <= tol_) {
    Tpetra::deep_copy(y_, best_);
    qp_.cones.project(y_);
    y_.update(-1.0, best_, 1.0);
    if (y_.normInf() > 0.0) {
      y_.update(1.0, best_, 1.0);
      qp_.A->apply(y_, Ay_);
      ++applies_;
      if (naturalResidual(qp_.cones, y_, Ay_, &b_) <= tol_) Tpetra::deep_copy(best_, y_);
    }
  }
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
  const double tol = scaledTolerance(settings_.tolerance);
  NewtonRun run(qp, options_, tol, gamma);
  run.start();
  int iterations = 0;
  while (!(run.residual() <= tol) && iterations < settings_.max_iterations) {
    ++iterations;
    run.iterate();
    observe(iterations, gamma);
  }
  run.projectBestIfConverged();
  return finishReport(name(), qp, run.best(), gamma, iterations, run.applies(), tol);
}

}  // namespace

std::unique_ptr<Solver> makeNewtonSolver(const SolverSettings& settings) {
  return std::make_unique<NewtonSolver>(settings);
}

}  // namespace grains::solver_detail
