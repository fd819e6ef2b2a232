// Kucera's method ("kucera"): proportioning, expansion and conjugate gradient
// steps for separable bounds, Heyn et al. (2013) (Heyn, Anitescu, Tasora, Negrut) §4.4,
// Algorithm KUCERA, written for intervals l <= gamma <= u (frictionless:
// [0, inf); box: per-unknown intervals) instead of gamma >= 0:
//   free set F = {l < gamma < u}, active set A = the rest (also l = u);
//   g~ = (gamma - Pi(gamma - alpha~ g)) / alpha~                         (eq. 25)
//   phi~ = g~ on F, beta~ = g~ on A (eqs. 26-27); phi = g on F (eq. 28);
//   line 5: strictly proportional when beta~.g <= Gamma^2 phi~.g, then
//     alpha_cg = g.p / p.A p, alpha_f = largest feasible step along -p (to the
//     nearer bound of each unknown)                                   (lines 6-7)
//     CG step if alpha_cg < alpha_f                                   (lines 9-12, eq. 29)
//     else expansion: gamma - alpha_f p, then a projected step
//     Pi(. - alpha~ g) on its free unknowns                           (lines 14-17)
//   otherwise proportioning gamma - alpha~ beta~                      (lines 19-21).
// alpha~ = step_factor / ||A||, ||A|| estimated once per solve by a few power
// iterations (global reductions). One CG, expansion or proportioning step is
// one iteration. The method decreases q at every step; should the power
// estimate be too low for that (alpha~ >= 2/||A||), a step that would raise q
// halves alpha~ and is redone. The stopping test is the contract's natural
// residual (zero exactly when g~ of line 4 is), and the CG recurrence for g is
// refreshed with one application of A before convergence is declared.
#include "separable_bounds.hpp"
#include "solver_factories.hpp"
#include "solver_kernels.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <utility>

namespace grains::solver_detail {
namespace {

using Index = long long;

double* rw(Vector& v) { return v.getLocalViewHost(Tpetra::Access::ReadWrite).data(); }
double* wo(Vector& v) { return v.getLocalViewHost(Tpetra::Access::OverwriteAll).data(); }
Index length(const Vector& v) { return static_cast<Index>(v.getLocalLength()); }

/// Bound on the alpha~ halvings of one step (a safety net, see the header).
constexpr int kMaxStepHalvings = 30;

class KuceraSolver final : public Solver {
 public:
  explicit KuceraSolver(SolverSettings settings)
      : settings_(std::move(settings)),
        gamma2_(std::pow(solverOption(settings_, "gamma"), 2)),
        step_factor_(solverOption(settings_, "step_factor")),
        power_iterations_(static_cast<int>(solverOption(settings_, "power_iterations"))) {}
  std::string name() const override { return "kucera"; }
  SolveReport solve(const QuadraticProgram& qp, Vector& gamma) const override;

 private:
  SolverSettings settings_;
  double gamma2_;  ///< Gamma^2 of line 5
  double step_factor_;
  int power_iterations_;
};

/// The state of one solve: the iterate x (gamma), g = A x + b (kept up to
/// date), the CG direction p and A p, the point a projected step starts from
/// (x_from, g_from: for the decrease check), alpha~ and the applications of A.
class KuceraRun {
 public:
  KuceraRun(const QuadraticProgram& qp, const SeparableBounds& bounds, Vector& x)
      : qp_(qp),
        bounds_(bounds),
        x_(x),
        n_(length(x)),
        g_(x.getMap(), false),
        p_(x.getMap(), false),
        Ap_(x.getMap(), false),
        x_from_(x.getMap(), false),
        g_from_(x.getMap(), false) {}

  /// g = A x + b from scratch (one application of A).
  void freshGradient() {
    qp_.A->apply(x_, g_);
    ++applies_;
    g_.update(1.0, *qp_.b, 1.0);
    g_recurred_ = false;
  }
  /// The contract's natural residual of x (zero exactly when g~ of line 4 is).
  double residual() const { return naturalResidual(qp_.cones, x_, g_, nullptr); }
  /// alpha~ = step_factor / ||A|| from the power estimate, and the first CG direction.
  void startIterations(double step_factor, int power_iterations) {
    alpha_t_ = step_factor / powerNormEstimate(x_.getMap(), power_iterations,
                                               [this](const Vector& v, Vector& Av) {
                                                 qp_.A->apply(v, Av);
                                                 ++applies_;
                                               });
    freeGradient();
  }
  /// One CG, expansion or proportioning step (lines 5-21).
  void iterate(double gamma2) {
    if (strictlyProportional(gamma2)) {
      cgOrExpansionStep();
    } else {
      proportioningStep();
    }
  }
  double residualConfirmed(double tol);
  int applies() const { return applies_; }

 private:
  /// CG step length alpha_cg = g.p / p.A p, its denominator, and alpha_f.
  struct StepLengths {
    double pAp;
    double cg;
    double feasible;
  };

  void freeGradient();
  bool strictlyProportional(double gamma2) const;
  void cgOrExpansionStep();
  StepLengths stepLengths() const;
  void cgStep(double alpha_cg, double pAp);
  void expansionStep(double alpha_f);
  void proportioningStep();
  void projectedStep(bool on_free_set);
  void moveFromStart(bool on_free_set);

  const QuadraticProgram& qp_;
  const SeparableBounds& bounds_;
  Vector& x_;
  const Index n_;
  Vector g_, p_, Ap_, x_from_, g_from_;
  double alpha_t_ = 0.0;     ///< alpha~
  bool g_recurred_ = false;  ///< g updated by the CG recurrence since the last A x
  int applies_ = 0;
};

// p = phi(x): the gradient on the free set (eq. 28).
void KuceraRun::freeGradient() {
  const double* px = readOnly(x_);
  const double* pg = readOnly(g_);
  double* pp = wo(p_);
#pragma omp parallel for schedule(static)
  for (Index i = 0; i < n_; ++i)
    pp[i] = bounds_.isFree(static_cast<std::size_t>(i), px[i]) ? pg[i] : 0.0;
}

// Line 5: beta~.g <= Gamma^2 phi~.g (strict proportionality), with g~ of eq. 25
// split into phi~ on F and beta~ on A (eqs. 26-27).
bool KuceraRun::strictlyProportional(double gamma2) const {
  double beta_g = 0.0, phi_g = 0.0;
  {
    const double* px = readOnly(x_);
    const double* pg = readOnly(g_);
#pragma omp parallel for schedule(static) reduction(+ : beta_g, phi_g)
    for (Index i = 0; i < n_; ++i) {
      const auto k_i = static_cast<std::size_t>(i);
      const double gt = (px[i] - bounds_.clamp(k_i, px[i] - alpha_t_ * pg[i])) / alpha_t_;
      (bounds_.isFree(k_i, px[i]) ? phi_g : beta_g) += gt * pg[i];
    }
  }
  const auto proportion = globalSums<2>(x_, {beta_g, phi_g});
  return proportion[0] <= gamma2 * proportion[1];
}

// Lines 6-17: a CG step when it stays feasible (alpha_cg < alpha_f), else expansion.
void KuceraRun::cgOrExpansionStep() {
  qp_.A->apply(p_, Ap_);
  ++applies_;
  const StepLengths lengths = stepLengths();
  if (lengths.cg < lengths.feasible) {
    cgStep(lengths.cg, lengths.pAp);
  } else {
    expansionStep(lengths.feasible);
  }
}

// Lines 6-7: CG step length and the feasible step along -p (to the nearer
// bound of each unknown).
KuceraRun::StepLengths KuceraRun::stepLengths() const {
  const double inf = std::numeric_limits<double>::infinity();
  double pAp = 0.0, gp = 0.0, feasible = inf;
  {
    const double* px = readOnly(x_);
    const double* pp = readOnly(p_);
    const double* pAp_v = readOnly(Ap_);
    const double* pg = readOnly(g_);
#pragma omp parallel for schedule(static) reduction(+ : pAp, gp) reduction(min : feasible)
    for (Index i = 0; i < n_; ++i) {
      const auto k_i = static_cast<std::size_t>(i);
      pAp += pp[i] * pAp_v[i];
      gp += pg[i] * pp[i];
      if (pp[i] > 0.0) feasible = std::min(feasible, (px[i] - bounds_.lower[k_i]) / pp[i]);
      if (pp[i] < 0.0) feasible = std::min(feasible, (bounds_.upper[k_i] - px[i]) / -pp[i]);
    }
  }
  const auto dots = globalSums<2>(x_, {pAp, gp});
  const double alpha_f = globalMinimum(x_, feasible);
  const double alpha_cg = dots[0] > 0.0 ? dots[1] / dots[0] : inf;
  return {dots[0], alpha_cg, alpha_f};
}

// Lines 9-12: CG step, then p = phi - rho p with rho = phi.A p / p.A p (eq. 29).
// g follows by the recurrence g - alpha_cg A p (no application of A).
void KuceraRun::cgStep(double alpha_cg, double pAp) {
  x_.update(-alpha_cg, p_, 1.0);
  g_.update(-alpha_cg, Ap_, 1.0);
  g_recurred_ = true;
  double* px = rw(x_);
  const double* pg = readOnly(g_);
  const double* pAp_v = readOnly(Ap_);
  double phi_Ap = 0.0;
#pragma omp parallel for schedule(static) reduction(+ : phi_Ap)
  for (Index i = 0; i < n_; ++i) {
    const auto k_i = static_cast<std::size_t>(i);
    // alpha_cg < alpha_f keeps x inside; the clamp only removes rounding.
    px[i] = bounds_.clamp(k_i, px[i]);
    if (bounds_.isFree(k_i, px[i])) phi_Ap += pg[i] * pAp_v[i];
  }
  const double rho = globalSum(x_, phi_Ap) / pAp;
  double* pp = rw(p_);
#pragma omp parallel for schedule(static)
  for (Index i = 0; i < n_; ++i) {
    const double phi = bounds_.isFree(static_cast<std::size_t>(i), px[i]) ? pg[i] : 0.0;
    pp[i] = phi - rho * pp[i];
  }
}

// Line 14: gamma^(k+1/2) = gamma - alpha_f p into (x_from, g_from); the
// unknowns that define alpha_f land exactly on their bound. (alpha_f = inf
// with no finite CG step only happens for a problem unbounded below: no move.)
// Then lines 15-17: the projected step on the free unknowns.
void KuceraRun::expansionStep(double alpha_f) {
  const double step = std::isfinite(alpha_f) ? alpha_f : 0.0;
  {
    const double* px = readOnly(x_);
    const double* pp = readOnly(p_);
    const double* pg = readOnly(g_);
    const double* pAp_v = readOnly(Ap_);
    double* pf = wo(x_from_);
    double* pgf = wo(g_from_);
#pragma omp parallel for schedule(static)
    for (Index i = 0; i < n_; ++i) {
      const auto k_i = static_cast<std::size_t>(i);
      double v = bounds_.clamp(k_i, px[i] - step * pp[i]);
      if (pp[i] > 0.0 && (px[i] - bounds_.lower[k_i]) / pp[i] == alpha_f) v = bounds_.lower[k_i];
      if (pp[i] < 0.0 && (bounds_.upper[k_i] - px[i]) / -pp[i] == alpha_f) v = bounds_.upper[k_i];
      pf[i] = v;
      pgf[i] = pg[i] - step * pAp_v[i];
    }
  }
  projectedStep(true);  // lines 15-17
}

// Lines 19-21: proportioning x - alpha~ beta~ from the current point.
void KuceraRun::proportioningStep() {
  Tpetra::deep_copy(x_from_, x_);
  Tpetra::deep_copy(g_from_, g_);
  projectedStep(false);
}

// From (x_from, g_from): x = x_from with the unknowns of one set moved by a
// projected step Pi(x - alpha~ g) (active set: proportioning, line 19, as
// x - alpha~ beta~; free set: second half of the expansion, line 15, as
// x - alpha~ phi~), then g = A x + b. alpha~ is halved while q would increase
// (the power estimate of ||A|| may be too low for a decrease).
void KuceraRun::projectedStep(bool on_free_set) {
  for (int attempt = 0;; ++attempt) {
    moveFromStart(on_free_set);
    freshGradient();
    const auto sums = quadraticChange(x_, x_from_, g_, g_from_);
    if (sums[0] <= 1e-12 * sums[1] || attempt >= kMaxStepHalvings) break;
    alpha_t_ *= 0.5;
  }
  freeGradient();  // lines 17 and 21: restart the CG chain
}

// x = x_from with Pi(x_from - alpha~ g_from) on the unknowns of one set.
void KuceraRun::moveFromStart(bool on_free_set) {
  const double* pf = readOnly(x_from_);
  const double* pgf = readOnly(g_from_);
  double* px = wo(x_);
#pragma omp parallel for schedule(static)
  for (Index i = 0; i < n_; ++i) {
    const auto k = static_cast<std::size_t>(i);
    const bool moves = bounds_.isFree(k, pf[i]) == on_free_set;
    px[i] = moves ? bounds_.clamp(k, pf[i] - alpha_t_ * pgf[i]) : pf[i];
  }
}

// The residual after a step; one converged by the CG recurrence for g is
// confirmed with the true gradient (one application of A).
double KuceraRun::residualConfirmed(double tol) {
  double r = residual();
  if (r <= tol && g_recurred_) {
    freshGradient();
    r = residual();
  }
  return r;
}

SolveReport KuceraSolver::solve(const QuadraticProgram& qp, Vector& gamma) const {
  checkLayout(qp, gamma, "kucera");
  const SeparableBounds bounds = SeparableBounds::of(qp, "kucera");
  const double tol = scaledTolerance(settings_.tolerance);
  KuceraRun run(qp, bounds, gamma);
  qp.cones.project(gamma);  // warm start onto K
  run.freshGradient();
  if (run.residual() <= tol || settings_.max_iterations <= 0) {
    return finishReport(name(), qp, gamma, gamma, 0, run.applies(), tol);
  }
  run.startIterations(step_factor_, power_iterations_);
  int k = 0;
  while (k < settings_.max_iterations) {
    ++k;
    run.iterate(gamma2_);
    const double residual = run.residualConfirmed(tol);
    observe(k, gamma);
    if (residual <= tol) break;
  }
  return finishReport(name(), qp, gamma, gamma, k, run.applies(), tol);
}

}  // namespace

std::unique_ptr<Solver> makeKuceraSolver(const SolverSettings& settings) {
  return std::make_unique<KuceraSolver>(settings);
}

}  // namespace grains::solver_detail
