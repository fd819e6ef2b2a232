// Preconditioned spectral projected gradient with fallback ("spg"), P-SPG-FB of
// Heyn et al. (2013) §4.3 (Algorithm P-SPG-FB, lines 1-27, with eqs. 22-24):
//   (1-2)   g0 = Pi_K(g0), gradient g = A g0 + b, f = q(g0)
//   (4-5)   d = Pi_K(gamma - a P^-1 g) - gamma
//   (6-7)   if <d, g> >= 0: d = Pi_K(gamma - a g) - gamma   (unpreconditioned)
//   (8-16)  GLL non-monotone line search: largest accepted lambda in
//           1, then lambda_new in [sigma_min lambda, sigma_max lambda], with
//           q(gamma + lambda d) <= max_{i=0..min(j,N_GLL)} q(gamma^(j-i)) + xi lambda <d, g>
//   (17-18) s = gamma^(j+1) - gamma^(j), y = g^(j+1) - g^(j)
//   (19-23) j odd: a = <s, P s> / <s, y> (BB1, eq. 22); j even: a = <s, y> / <y, P^-1 y>
//           (BB2, eq. 23)
//   (24)    a = min(a_max, max(a_min, a))
//   (25-26) w = || (gamma - Pi_K(gamma - tau_g g)) / tau_g ||_2  (eq. 24); the iterate
//           with the smallest w so far is the fallback gamma_FB
//   (27)    return gamma_FB
// Implementation choices:
// - P = diag(A) with the diagonal entries of each contact block averaged (the
//   paper's "custom diagonal preconditioner"): P is a multiple of the identity
//   on every contact, so the Euclidean projection of line 5 is also the
//   projection in the P metric and d is a descent direction; line 7 is then
//   only a guard against rounding. preconditioned = 0 uses P = I.
// - The objective is quadratic, so along d it is exactly
//   q(gamma + l d) = q + l <d, g> + l^2/2 <d, A d>: one application of A (to d)
//   per iteration serves every line-search trial, and g^(j+1) = g + l A d.
//   lambda_new is the minimiser of the quadratic interpolating q(gamma),
//   q'(gamma; d) and q(gamma + lambda d), clipped to [sigma_min lambda, sigma_max lambda];
//   the trials are bounded by max_backtracks (with <d, g> < 0 the first
//   interpolated lambda already satisfies line 13 unless it is clipped).
// - Line 13 is evaluated in differences: the memory holds
//   q(gamma^(j-i)) - q(gamma^(j)), updated with the increments
//   lambda <d, g> + lambda^2/2 <d, A d>, which are computed from small
//   quantities. Comparing absolute objective values instead stalls the method
//   once q has converged to its rounding level (about 1e-16 |q|) while the
//   residual is still far above a tight tolerance: the accept/reject decisions
//   then follow rounding noise (observed on badly scaled problems).
// - If <d, g> >= 0 even for the unpreconditioned direction (impossible in exact
//   arithmetic unless d = 0; it happens at the rounding level near a solution)
//   the full step lambda = 1 is taken, a plain projected-gradient step whose
//   fixed points are the solutions; without it the method can stop moving.
// - a_0: 1 when preconditioned (P^-1 A has about unit diagonal: a Jacobi step),
//   else 1 / ||gamma0 - Pi_K(gamma0 - g)||_inf as in bbpgd. <s, y> <= 0 (no
//   curvature along s, A is only PSD) gives a_max, as in the SPG of Birgin,
//   Martinez and Raydan that the paper builds on.
// - The fallback starts with the actual eq. 24 value of the projected warm start
//   (the paper initialises w^(0) = 1e29, which would discard a good warm start).
// - Stopping (contract of every solver here): the natural residual
//   ||gamma - Pi_K(gamma - g)||_inf is checked at every iterate; an iterate that
//   meets the tolerance is returned. When the iteration cap is hit, gamma_FB is
//   returned (line 27) and the report describes gamma_FB.
// One iteration = one application of A.
#include "solver_factories.hpp"
#include "solver_kernels.hpp"

#include <Teuchos_CommHelpers.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <deque>
#include <limits>
#include <stdexcept>
#include <utility>
#include <vector>

namespace grains::solver_detail {
namespace {

using Index = long long;

/// The options of P-SPG-FB (see the header).
struct SpgOptions {
  int n_gll;
  double xi;
  double sigma_min;
  double sigma_max;
  double alpha_min;
  double alpha_max;
  double tau_g;
  bool preconditioned;
  int max_backtracks;

  /// Line 24: a = min(a_max, max(a_min, a)).
  double clampAlpha(double a) const { return std::min(alpha_max, std::max(alpha_min, a)); }
};

class SpgSolver final : public Solver {
 public:
  explicit SpgSolver(SolverSettings settings)
      : settings_(std::move(settings)),
        options_{static_cast<int>(solverOption(settings_, "n_gll")),
                 solverOption(settings_, "xi"),
                 solverOption(settings_, "sigma_min"),
                 solverOption(settings_, "sigma_max"),
                 solverOption(settings_, "alpha_min"),
                 solverOption(settings_, "alpha_max"),
                 solverOption(settings_, "tau_g"),
                 solverOption(settings_, "preconditioned") != 0.0,
                 static_cast<int>(solverOption(settings_, "max_backtracks"))} {
    if (!(options_.sigma_min <= options_.sigma_max)) {
      throw std::invalid_argument("spg: sigma_min must not exceed sigma_max");
    }
    if (!(options_.alpha_min <= options_.alpha_max)) {
      throw std::invalid_argument("spg: alpha_min must not exceed alpha_max");
    }
  }
  std::string name() const override { return "spg"; }
  SolveReport solve(const QuadraticProgram& qp, Vector& gamma) const override;

 private:
  SolverSettings settings_;
  SpgOptions options_;
};

/// P^-1 per local contact: the inverse of the average of the contact's diagonal
/// entries of A (§4.3), or 1 without preconditioning. A contact with a zero
/// diagonal block gets the smallest inverse of the problem.
std::vector<double> inversePreconditioner(const QuadraticProgram& qp, const Vector& like,
                                          bool preconditioned) {
  const std::size_t contacts = qp.cones.localContacts();
  std::vector<double> inverse(contacts, 1.0);
  if (!preconditioned) return inverse;
  const std::vector<double> diagonal = localDiagonal(qp);
  const int block = qp.cones.blockSize();
  std::vector<double> average(contacts, 0.0);
  double largest = 0.0;
  for (std::size_t c = 0; c < contacts; ++c) {
    double sum = 0.0;
    for (int k = 0; k < block; ++k) sum += diagonal[static_cast<std::size_t>(block) * c + k];
    average[c] = sum / block;
    if (std::isfinite(average[c])) largest = std::max(largest, average[c]);
  }
  largest = globalMax(like, largest);
  const double fallback = largest > 0.0 ? largest : 1.0;
  for (std::size_t c = 0; c < contacts; ++c)
    inverse[c] = 1.0 / (average[c] > 0.0 && std::isfinite(average[c]) ? average[c] : fallback);
  return inverse;
}

/// d = Pi_K(x - alpha M^-1 (Ax + b)) - x with M^-1 = diag(scale per contact);
/// returns the global <d, Ax + b>.
double projectedDirection(const ConeSet& cones, const std::vector<double>& inverse, double alpha,
                          const Vector& x, const Vector& Ax, const Vector& b, Vector& d) {
  const double* px = readOnly(x);
  const double* pAx = readOnly(Ax);
  const double* pb = readOnly(b);
  double* pd = d.getLocalViewHost(Tpetra::Access::OverwriteAll).data();
  const int block = cones.blockSize();
  const Index contacts = static_cast<Index>(cones.localContacts());
  double local = 0.0;
#pragma omp parallel for schedule(static) reduction(+ : local)
  for (Index c = 0; c < contacts; ++c) {
    const double step = alpha * inverse[static_cast<std::size_t>(c)];
    double z[kMaxBlockSize];
    for (int k = 0; k < block; ++k) {
      const Index i = block * c + k;
      z[k] = px[i] - step * (pAx[i] + pb[i]);
    }
    cones.projectContact(static_cast<std::size_t>(c), z);
    for (int k = 0; k < block; ++k) {
      const Index i = block * c + k;
      pd[i] = z[k] - px[i];
      local += pd[i] * (pAx[i] + pb[i]);
    }
  }
  return globalSum(x, local);
}

/// Eq. 24: || (x - Pi_K(x - tau g)) / tau ||_2 with g = Ax + b.
double fallbackResidual(const ConeSet& cones, double tau, const Vector& x, const Vector& Ax,
                        const Vector& b) {
  const double* px = readOnly(x);
  const double* pAx = readOnly(Ax);
  const double* pb = readOnly(b);
  const int block = cones.blockSize();
  const Index contacts = static_cast<Index>(cones.localContacts());
  double local = 0.0;
#pragma omp parallel for schedule(static) reduction(+ : local)
  for (Index c = 0; c < contacts; ++c) {
    double z[kMaxBlockSize];
    for (int k = 0; k < block; ++k) {
      const Index i = block * c + k;
      z[k] = px[i] - tau * (pAx[i] + pb[i]);
    }
    cones.projectContact(static_cast<std::size_t>(c), z);
    for (int k = 0; k < block; ++k) {
      const double r = (px[block * c + k] - z[k]) / tau;
      local += r * r;
    }
  }
  const double w = std::sqrt(globalSum(x, local));
  return std::isnan(w) ? std::numeric_limits<double>::infinity() : w;
}

/// Global ( <d, A d>, <d, M d>, <A d, M^-1 A d> ) with M = P (per-contact scale).
std::array<double, 3> directionDots(const std::vector<double>& inverse, int block, const Vector& d,
                                    const Vector& Ad) {
  const double* pd = readOnly(d);
  const double* pAd = readOnly(Ad);
  const Index n = static_cast<Index>(d.getLocalLength());
  double dAd = 0.0;
  double dPd = 0.0;
  double yPy = 0.0;
#pragma omp parallel for schedule(static) reduction(+ : dAd, dPd, yPy)
  for (Index i = 0; i < n; ++i) {
    const double m = inverse[static_cast<std::size_t>(i / block)];
    dAd += pd[i] * pAd[i];
    dPd += pd[i] * pd[i] / m;
    yPy += pAd[i] * pAd[i] * m;
  }
  double local[3] = {dAd, dPd, yPy};
  std::array<double, 3> global{0.0, 0.0, 0.0};
  Teuchos::reduceAll(*d.getMap()->getComm(), Teuchos::REDUCE_SUM, 3, local, global.data());
  return global;
}

/// The state of one solve: the iterate gamma and A gamma, the direction d and
/// A d with their dots, P^-1 (and the identity for the unpreconditioned
/// direction), the GLL memory, the fallback iterate, the spectral step a and
/// the applications of A.
class SpgRun {
 public:
  SpgRun(const QuadraticProgram& qp, Vector& gamma, const SpgOptions& options)
      : qp_(qp),
        b_(*qp.b),
        gamma_(gamma),
        options_(options),
        block_(qp.cones.blockSize()),
        Ax_(gamma.getMap(), false),
        d_(gamma.getMap(), false),
        Ad_(gamma.getMap(), false),
        fallback_(gamma.getMap(), false) {}

  double start();
  void prepare(double residual);
  bool iterate();
  void keepFallback();
  double residual() const { return naturalResidual(qp_.cones, gamma_, Ax_, &b_); }
  void spectralStep(int j, bool accepted);
  const Vector& fallback() const { return fallback_; }
  int applies() const { return applies_; }

 private:
  /// A trial of the line search: lambda, q(gamma + lambda d) - q(gamma), accepted.
  struct Trial {
    double lambda;
    double increase;
    bool accepted;
  };

  double descentDirection();
  Trial lineSearch(double dg, double dAd) const;
  double interpolatedLambda(double lambda, double increase, double dg) const;
  void advance(const Trial& trial);

  const QuadraticProgram& qp_;
  const Vector& b_;
  Vector& gamma_;
  const SpgOptions& options_;
  const int block_;
  Vector Ax_, d_, Ad_, fallback_;
  std::vector<double> inverse_;
  std::vector<double> identity_;
  std::array<double, 3> dots_{};  ///< <d, A d>, <d, P d>, <A d, P^-1 A d>
  std::deque<double> history_;
  double best_w_ = 0.0;
  double alpha_0_ = 0.0;
  double alpha_ = 0.0;
  int applies_ = 0;
};

// Lines 1-2 on the projected warm start: A gamma and its natural residual.
double SpgRun::start() {
  qp_.A->apply(gamma_, Ax_);
  applies_ = 1;
  return naturalResidual(qp_.cones, gamma_, Ax_, &b_);
}

// Before the first iteration: P^-1, the GLL memory, the fallback with the
// eq. 24 value of the warm start, and a_0 (see the header).
void SpgRun::prepare(double residual) {
  inverse_ = inversePreconditioner(qp_, gamma_, options_.preconditioned);
  identity_.assign(qp_.cones.localContacts(), 1.0);
  // GLL memory as differences q(gamma^(j-i)) - q(gamma^(j)), i = 0..min(j, N_GLL),
  // updated with the exact increments along d (see the header).
  history_.assign(1, 0.0);
  best_w_ = fallbackResidual(qp_.cones, options_.tau_g, gamma_, Ax_, b_);
  Tpetra::deep_copy(fallback_, gamma_);
  alpha_0_ = options_.preconditioned
                 ? 1.0
                 : (residual > 0.0 && std::isfinite(residual) ? 1.0 / residual : 1.0);
  alpha_ = options_.clampAlpha(alpha_0_);
}

// Lines 4-18: direction, A d, line search and step; returns whether a trial
// was accepted (gamma moved).
bool SpgRun::iterate() {
  const double dg = descentDirection();
  qp_.A->apply(d_, Ad_);
  ++applies_;
  dots_ = directionDots(inverse_, block_, d_, Ad_);
  const Trial trial = lineSearch(dg, dots_[0]);
  advance(trial);
  return trial.accepted;
}

// Lines 4-7: preconditioned projected direction, unpreconditioned if not
// descent; returns <d, g>.
double SpgRun::descentDirection() {
  double dg = projectedDirection(qp_.cones, inverse_, alpha_, gamma_, Ax_, b_, d_);
  if (dg >= 0.0 && options_.preconditioned) {
    dg = projectedDirection(qp_.cones, identity_, alpha_, gamma_, Ax_, b_, d_);
  }
  return dg;
}

// Lines 8-16: GLL line search on the exact quadratic along d.
// Line 13 as q(gamma + lambda d) - q(gamma) <= max_i [q(gamma^(j-i)) - q(gamma)] + xi lambda
// <d, g>.
SpgRun::Trial SpgRun::lineSearch(double dg, double dAd) const {
  const double above = *std::max_element(history_.begin(), history_.end());
  Trial trial{1.0, 0.0, false};
  if (!(dg < 0.0)) {
    // Not a descent direction even without P: in exact arithmetic only at a
    // stationary point (d = 0); here <d, g> is rounding noise. Take the plain
    // projected-gradient step (whose fixed points are the solutions).
    trial.increase = dg + 0.5 * dAd;
    trial.accepted = true;
    return trial;
  }
  for (int k = 0; k <= options_.max_backtracks; ++k) {
    trial.increase = trial.lambda * dg + 0.5 * trial.lambda * trial.lambda * dAd;
    if (trial.increase <= above + options_.xi * trial.lambda * dg) {
      trial.accepted = true;
      break;
    }
    trial.lambda = interpolatedLambda(trial.lambda, trial.increase, dg);
  }
  return trial;
}

// Minimiser of the quadratic through q(0), q'(0) = dg and q(lambda), clipped.
double SpgRun::interpolatedLambda(double lambda, double increase, double dg) const {
  const double curvature = increase - lambda * dg;  // = lambda^2 dAd / 2 > 0 here
  double lambda_new = curvature > 0.0 ? -dg * lambda * lambda / (2.0 * curvature) : 0.0;
  if (!std::isfinite(lambda_new)) lambda_new = options_.sigma_min * lambda;
  return std::min(options_.sigma_max * lambda, std::max(options_.sigma_min * lambda, lambda_new));
}

// Lines 10-11, 17-18: gamma += lambda d, A gamma += lambda A d (s = lambda d,
// y = lambda A d); the GLL memory moves its reference to the new iterate and
// keeps N_GLL + 1 entries.
void SpgRun::advance(const Trial& trial) {
  if (trial.accepted) {
    gamma_.update(trial.lambda, d_, 1.0);
    Ax_.update(trial.lambda, Ad_, 1.0);
    for (double& h : history_) h -= trial.increase;
  }
  history_.push_back(0.0);
  while (static_cast<int>(history_.size()) > options_.n_gll + 1) history_.pop_front();
}

// Lines 25-26: the fallback iterate (eq. 24).
void SpgRun::keepFallback() {
  const double w = fallbackResidual(qp_.cones, options_.tau_g, gamma_, Ax_, b_);
  if (w <= best_w_) {
    best_w_ = w;
    Tpetra::deep_copy(fallback_, gamma_);
  }
}

// Lines 19-24: spectral step, BB1 (eq. 22) on odd j, BB2 (eq. 23) on even j.
// With s = lambda d and y = lambda A d the quotients do not depend on lambda.
void SpgRun::spectralStep(int j, bool accepted) {
  const auto [dAd, dPd, yPy] = dots_;
  if (!accepted) {  // no trial accepted (non-finite values): restart the spectral step
    alpha_ = options_.clampAlpha(alpha_0_);
  } else if (!(dAd > 0.0)) {
    alpha_ = options_.alpha_max;
  } else {
    const double next = (j % 2 == 1) ? dPd / dAd : dAd / yPy;
    alpha_ = std::isfinite(next) ? options_.clampAlpha(next) : options_.alpha_max;
  }
}

SolveReport SpgSolver::solve(const QuadraticProgram& qp, Vector& gamma) const {
  checkLayout(qp, gamma, "spg");
  const double tol = scaledTolerance(settings_.tolerance);
  SpgRun run(qp, gamma, options_);

  // Line 1-2: project the warm start, gradient and objective.
  qp.cones.project(gamma);
  double residual = run.start();
  int iterations = 0;
  if (residual <= tol || settings_.max_iterations <= 0) {
    return finishReport(name(), qp, gamma, gamma, iterations, run.applies(), tol);
  }
  run.prepare(residual);
  bool converged = false;
  for (int j = 0; iterations < settings_.max_iterations; ++j) {
    ++iterations;
    const bool accepted = run.iterate();
    run.keepFallback();
    residual = run.residual();
    observe(iterations, gamma);
    if (residual <= tol) {
      converged = true;
      break;
    }
    run.spectralStep(j, accepted);
  }
  const Vector& result = converged ? gamma : run.fallback();
  return finishReport(name(), qp, result, gamma, iterations, run.applies(), tol);
}

}  // namespace

std::unique_ptr<Solver> makeSpgSolver(const SolverSettings& settings) {
  return std::make_unique<SpgSolver>(settings);
}

}  // namespace grains::solver_detail
