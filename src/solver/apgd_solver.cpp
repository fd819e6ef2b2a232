// Accelerated projected gradient descent with adaptive restart ("apgd"):
// Nesterov's method as given by Mazhar, Heyn, Negrut, Tasora, "Using
// Nesterov's method to accelerate multibody dynamics with friction and
// contact", ACM TOG 34(3), 2015, Algorithm "APGD" (with the restart and the
// step-growth heuristics of that paper):
//   L_0 = ||A(x_0 - 1)|| / ||x_0 - 1||,  theta_0 = 1,  y_0 = x_0
//   x_{k+1} = Pi(y_k - (A y_k + b) / L_k), backtracking L_k <- 2 L_k until
//             f(x_{k+1}) <= f(y_k) + g(y_k).(x_{k+1} - y_k) + L_k/2 |x_{k+1} - y_k|^2
//   theta_{k+1} = (-theta_k^2 + theta_k sqrt(theta_k^2 + 4)) / 2
//   beta_{k+1}  = theta_k (1 - theta_k) / (theta_k^2 + theta_{k+1})
//   y_{k+1} = x_{k+1} + beta_{k+1} (x_{k+1} - x_k)
//   restart (y_{k+1} = x_{k+1}, theta_{k+1} = 1) when g(y_k).(x_{k+1} - x_k) > 0
//   L_{k+1} = 0.9 L_k
// and the best-residual iterate is returned.
// For the quadratic f the upper-bound test is exactly d.A d <= L d.d with
// d = x_{k+1} - y_k; we evaluate it in that form (no cancellation between two
// objective values). A y_{k+1} is obtained by linearity from A x_{k+1} and
// A x_k, so an iteration costs one A-apply per backtracking trial; a converged
// solve reports the measures of its last iterate from the A x it already has.
// y and A y are never stored: the step and the backtracking sums form them
// from x_{k+1}, x_k and their images where they read them.
// Beyond the paper (docs/solvers.md): solveFromImage starts from the A x_0 the
// time stepper measured the warm start with; option preconditioned runs the method
// in the diagonal metric of diagonal_metric.hpp, and check_every evaluates
// the natural residual (a second projection of every contact) only every
// that many iterations; the returned iterate is always one that was checked.
// With a stop quantile (Solver::setStopQuantile) that check is a histogram of
// the contacts' residuals and the stop is the StopRule's.
// The iterates are the same bits on any thread and rank count: the sums that
// feed numbers (L_0, the objective) are reproducible sums, and those that
// only feed decisions (backtracking, restart) are summed the ordinary way and
// again reproducibly when their round-off could flip the decision.
#include "diagonal_metric.hpp"
#include "solver_factories.hpp"
#include "solver_kernels.hpp"

#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>
#include <utility>

namespace grains::solver_detail {
namespace {

class ApgdSolver final : public Solver {
 public:
  explicit ApgdSolver(SolverSettings settings)
      : settings_(std::move(settings)),
        max_backtracks_(static_cast<int>(solverOption(settings_, "max_backtracks"))),
        shrink_(solverOption(settings_, "lipschitz_shrink")),
        preconditioned_(solverOption(settings_, "preconditioned") != 0.0),
        check_every_(static_cast<int>(solverOption(settings_, "check_every"))) {}
  std::string name() const override { return "apgd"; }
  bool supportsStopQuantile() const override { return true; }
  SolveReport solve(const QuadraticProgram& qp, Vector& gamma) const override {
    return run(qp, gamma, nullptr);
  }
  SolveReport solveFromImage(const QuadraticProgram& qp, Vector& gamma,
                             Vector& image) const override {
    return run(qp, gamma, &image);
  }

 private:
  // `start_image`: A gamma of a gamma already on K (solveFromImage), or null.
  SolveReport run(const QuadraticProgram& qp, Vector& gamma, Vector* start_image) const;

  SolverSettings settings_;
  int max_backtracks_;
  double shrink_;
  bool preconditioned_;
  int check_every_;
};

// Lipschitz estimate L_0 = ||A(x_0 - 1)||_2 / ||x_0 - 1||_2 (in the metric
// when there is one), guarded for x_0 = 1 and for (x_0 - 1) in the null space
// of A; one application of A, into the work vectors d and Ad.
double initialLipschitz(const QuadraticProgram& qp, const DiagonalMetric* metric, const Vector& x,
                        Vector& d, Vector& Ad) {
  d.putScalar(1.0);
  d.update(1.0, x, -1.0);
  qp.A->apply(d, Ad);
  double L = 0.0;
  if (metric) {
    L = scaledLipschitzEstimate(*metric, d, Ad);
  } else {
    const double denominator = reproducibleNorm2(d);
    L = denominator > 0.0 ? reproducibleNorm2(Ad) / denominator : 0.0;
  }
  return L > 0.0 && std::isfinite(L) ? L : 1.0;
}

// The extrapolation weight of the next step: theta_{k+1} and beta_{k+1} of
// Mazhar et al. (2015) (header formulas), or theta = 1, beta = 0 after a
// restart (y_{k+1} = x_{k+1}).
struct Momentum {
  double theta = 1.0;
  double beta = 0.0;
};

Momentum nextMomentum(double theta, bool restart) {
  if (restart) return {};
  const double theta_next = 0.5 * (-theta * theta + theta * std::sqrt(theta * theta + 4.0));
  return {theta_next, theta * (1.0 - theta) / (theta * theta + theta_next)};
}

SolveReport ApgdSolver::run(const QuadraticProgram& qp, Vector& gamma, Vector* start_image) const {
  checkLayout(qp, gamma, "apgd");
  if (start_image && !start_image->getMap()->isSameAs(*gamma.getMap()))
    throw std::invalid_argument("apgd: the start image's map differs from gamma's");
  const StopRule stop = stopRule(settings_.tolerance);
  const double tol = stop.target;
  const Vector* b = qp.b.get();
  const auto map = gamma.getMap();
  // Work vectors, allocated once per solve. The iterates x_k, x_{k-1} and the
  // next trial, and their images under A, rotate through three vectors each
  // (x_k starts in gamma's storage, A x_k in the start image when the caller
  // gave one); the extrapolated point y_k is never stored
  // (extrapolated_point.hpp).
  Vector store_a(map, false), store_b(map, false), A_b(map, false), A_c(map, false),
      spare_storage(map, false);
  std::optional<Vector> A_a;
  Vector* x = &gamma;
  Vector* z = &store_a;
  Vector* xn = &store_b;
  Vector* Ax = start_image;
  Vector* Az = &A_b;
  Vector* Axn = &A_c;

  int applies = 0;
  if (!start_image) {
    A_a.emplace(map, false);
    Ax = &*A_a;
    qp.cones.project(gamma);  // warm start onto K
    qp.A->apply(*x, *Ax);
    ++applies;
  }
  const StopCheck start = checkStop(stop, qp.cones, *x, *Ax, b);
  double best_residual = start.residual;
  int iterations = 0;
  if (start.stop || settings_.max_iterations <= 0) {
    return finishReport(name(), qp, *x, *Ax, gamma, iterations, applies, tol);
  }
  // The best-checked iterate is never copied: when a step is about to
  // overwrite the vector that holds it, that vector leaves the rotation and a
  // spare one takes its place.
  const Vector* best = x;
  Vector* spare = &spare_storage;

  // With the diagonal metric the method runs on S A S (diagonal_metric.hpp):
  // only the projected step and the length in the backtracking test change.
  const DiagonalMetric metric = preconditioned_ ? diagonalMetric(qp) : DiagonalMetric{};
  auto step = [&](const Extrapolation& from, double alpha, Vector& to) {
    if (preconditioned_) {
      scaledProjectedStep(metric, from, b, alpha, to);
    } else {
      projectedStep(qp.cones, from, b, alpha, to);
    }
  };

  double L = initialLipschitz(qp, preconditioned_ ? &metric : nullptr, *x, *xn, *Axn);
  ++applies;

  Momentum momentum;  // y_k = x_k at the start
  while (iterations < settings_.max_iterations) {
    ++iterations;
    const Extrapolation y{x, Ax, z, Az, momentum.beta};
    TrialStep trial_step;
    bool certain = true;
    auto sums = [&](bool reproducible) {
      return trialStep(*xn, *Axn, y, preconditioned_ ? metric.inverse.data() : nullptr, b,
                       reproducible);
    };
    if (best == xn) std::swap(xn, spare);
    // Backtracking, bounded by max_backtracks; after the last doubling the step is
    // accepted as is (it is still a feasible projected step).
    for (int trial = 0;; ++trial) {
      step(y, 1.0 / L, *xn);
      qp.A->apply(*xn, *Axn);
      ++applies;
      trial_step = sums(false);
      bool backtrack = trial_step.needsBacktracking(L, certain);
      if (!certain) {
        trial_step = sums(true);
        backtrack = trial_step.needsBacktracking(L, certain);
      }
      if (!backtrack || trial >= max_backtracks_) break;
      L *= 2.0;
    }
    bool restart = trial_step.restarts(certain);
    if (!certain) restart = sums(true).restarts(certain);

    // The natural residual, a second projection of every contact, is checked
    // every check_every iterations (and at the last); the restart product
    // came with the backtracking test.
    const bool check = iterations % check_every_ == 0 || iterations == settings_.max_iterations;
    const StopCheck checked = check ? checkStop(stop, qp.cones, *xn, *Axn, b)
                                    : StopCheck{std::numeric_limits<double>::infinity(), false};
    observe(iterations, *xn);
    if (checked.stop) {
      // Converged at the newest iterate, whose image A x_{k+1} is at hand.
      return finishReport(name(), qp, *xn, *Axn, gamma, iterations, applies, tol);
    }
    if (check && checked.residual < best_residual) {
      best_residual = checked.residual;
      best = xn;
    }

    // y_{k+1} = x_{k+1} + beta (x_{k+1} - x_k), or x_{k+1} after a restart;
    // then x_{k+1} becomes x_k and x_k's vectors take the next trial.
    momentum = nextMomentum(momentum.theta, restart);
    std::swap(z, x);
    std::swap(x, xn);
    std::swap(Az, Ax);
    std::swap(Ax, Axn);
    L *= shrink_;
  }
  return finishReport(name(), qp, *best, gamma, iterations, applies, tol);
}

}  // namespace

std::unique_ptr<Solver> makeApgdSolver(const SolverSettings& settings) {
  return std::make_unique<ApgdSolver>(settings);
}

}  // namespace grains::solver_detail
