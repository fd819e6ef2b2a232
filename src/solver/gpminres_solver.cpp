// Gradient projection with MINRES subspace minimisation ("gpminres"), Heyn et al. (2013)
// (Heyn, Anitescu, Tasora, Negrut) §4.2, Algorithm GPMINRES, for separable
// bounds l <= gamma <= u (frictionless: [0, inf); box: per-unknown intervals).
// One outer iteration k (the reported iteration count) is:
//   lines (3)-(13)  gradient projection from y = gamma^(k): step along the
//                   projected gradient p (eq. 14, extended to upper bounds) with
//                   the optimal step alpha = p.p / p.A p (line 5), halved until
//                   the sufficient decrease test (eq. 16 / line 8, parameter mu)
//                   holds; at most N_GP steps, leaving early when the active set
//                   did not change (eq. 17) or the decrease is sluggish
//                   (eq. 18, parameter eta1);
//   lines (15)-(26) MINRES (Belos::MinresIter) on the free-set system
//                   Z^T A Z w = -Z^T grad q (eq. 19), through RestrictedOperator
//                   (Z Z^T A Z Z^T on full-length vectors); a Belos status test
//                   of our own (MinresLoopControl, gpminres_control.hpp)
//                   evaluates q_k(w) after each MINRES step and stops on
//                   stalling (eq. 20, parameter eta2) or after N_minres steps;
//   lines (27)-(34) projected search gamma^(k+1) = Pi(gamma^(k) + alpha d),
//                   alpha = 1, 1/2, ... at most N_PS times, until sufficient decrease;
//   lines (35)-(45) when the active and binding sets of gamma^(k+1) agree, MINRES
//                   continues with eta2 <- eta2^2 and N_minres += N_AI (from
//                   inside the status test, so the Krylov recurrences are not
//                   restarted), unless eta2 < tau;
//   line (52)       stop on the natural residual ||gamma - Pi(gamma - grad)||_inf <= tol
//                   (the contract's measure; eq. 13 vanishes at the same points).
// Active set A = unknowns at a bound (l = u counts as active), free set = the
// rest; binding set B = active unknowns whose gradient pushes against their bound.
// Departures and details, for robustness and cost:
// - a projected search (or gradient step) that does not decrease q is
//   rejected, so q is monotone; after N_PS halvings the last trial is kept
//   only if it does not increase q; the halvings of line (6) are bounded;
// - q_k(w_j) of line (22) is evaluated in the Krylov basis from MINRES's own
//   Lanczos coefficients (see MinresLoopControl), so a MINRES step costs one
//   application of A; the unrestricted A w is computed once per stall;
// - MINRES stops when its Krylov space is exhausted (beta_{j+1} ~ 0, which a
//   singular restricted system reaches early) and a step that breaks down
//   (vanishing rotation, NaN, increase of q_k) is undone;
// - the MINRES continuation of lines (40)-(41) also ends when gamma^(k+1)
//   already meets the outer tolerance (no application of A needed);
// - A gamma is recomputed once per outer iteration so rounding does not
//   accumulate in the gradient.
#include "gpminres_control.hpp"
#include "restricted_operator.hpp"
#include "separable_bounds.hpp"
#include "solver_factories.hpp"
#include "solver_kernels.hpp"

#include <BelosLinearProblem.hpp>
#include <BelosMinresIter.hpp>
#include <BelosMultiVecTraits_Tpetra.hpp>
#include <BelosOperatorTraits_Tpetra.hpp>
#include <BelosOutputManager.hpp>
#include <BelosStatusTest.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace grains::solver_detail {
namespace {

using Index = long long;
using BelosProblem = Belos::LinearProblem<double, MultiVector, Operator>;

double* wo(Vector& v) { return v.getLocalViewHost(Tpetra::Access::OverwriteAll).data(); }
Index length(const Vector& v) { return static_cast<Index>(v.getLocalLength()); }

/// Bound on the halvings of line (6) (2^-60 ~ 1e-18 of the optimal step).
constexpr int kMaxHalvings = 60;

class GpminresSolver final : public Solver {
 public:
  GpminresSolver(SolverSettings settings, GpminresOptions options)
      : settings_(std::move(settings)), options_(options) {}
  std::string name() const override { return "gpminres"; }
  SolveReport solve(const QuadraticProgram& qp, Vector& gamma) const override;

 private:
  SolverSettings settings_;
  GpminresOptions options_;
};

/// The state of one solve: gamma (x), A x, q(x), work vectors and the Belos objects.
class GpminresRun {
 public:
  GpminresRun(const QuadraticProgram& qp, const SeparableBounds& bounds,
              const GpminresOptions& options, double tau, Vector& x, Vector& Ax)
      : qp_(qp),
        bounds_(bounds),
        o_(options),
        tau_(tau),
        x_(x),
        Ax_(Ax),
        p_(x.getMap(), false),
        Ap_(x.getMap(), false),
        s_(x.getMap(), false),
        As_(x.getMap(), false),
        trial_(x.getMap(), false),
        xc_(x.getMap(), false),
        Axc_(x.getMap(), false),
        w_(rcp(new Vector(x.getMap(), true))),
        r_(rcp(new Vector(x.getMap(), true))),
        c_(rcp(new Vector(x.getMap(), true))),
        free_(x.getLocalLength(), 0),
        active_(x.getLocalLength(), 0) {
    restricted_ = rcp(new RestrictedOperator(qp.A, free_));
    control_ = rcp(new MinresLoopControl(qp.A, *restricted_, w_, r_, o_,
                                         [this](double eta2) { return projectedSearch(eta2); }));
    problem_ = rcp(new BelosProblem(restricted_, w_, c_));
    problem_->setInitResVec(c_);  // w starts at 0: no application of A for r_0
    problem_->setProblem();
    problem_->setLSIndex(std::vector<int>{0});
    Teuchos::ParameterList params;
    minres_ =
        rcp(new BelosMinres(problem_, rcp(new Belos::OutputManager<double>()), control_, params));
    q_ = objectiveValue(x_, Ax_, qp_.b.get());
  }

  void gradientProjection();
  void minresPhase();
  /// A x and q(x) from scratch (one application of A).
  void refresh() {
    qp_.A->apply(x_, Ax_);
    ++applies_;
    q_ = objectiveValue(x_, Ax_, qp_.b.get());
  }
  int applies() const { return applies_ + restricted_->applies() + control_->applies(); }

 private:
  bool projectedSearch(double eta2);
  /// s = Pi(x + alpha v) - x, and A s (from A v when nothing was clipped);
  /// returns (g.s, s.A s).
  std::pair<double, double> projectedStep(const Vector& v, const Vector& Av, double alpha);
  /// Largest step along -p before the first unknown reaches a bound (inf: none).
  double firstBreakpoint() const;

  const QuadraticProgram& qp_;
  const SeparableBounds& bounds_;
  GpminresOptions o_;
  double tau_;
  Vector& x_;
  Vector& Ax_;
  Vector p_, Ap_, s_, As_, trial_, xc_, Axc_;
  RCP<Vector> w_, r_, c_;
  std::vector<char> free_, active_;
  RCP<RestrictedOperator> restricted_;
  RCP<MinresLoopControl> control_;
  RCP<BelosProblem> problem_;
  RCP<BelosMinres> minres_;
  double q_ = 0.0;
  double scale_ = 0.0;  ///< largest Rayleigh quotient p.A p / p.p seen (<= ||A||)
  bool candidate_ = false;
  double qc_ = 0.0;
  int applies_ = 0;
};

std::pair<double, double> GpminresRun::projectedStep(const Vector& v, const Vector& Av,
                                                     double alpha) {
  const double* px = readOnly(x_);
  const double* pv = readOnly(v);
  double* ps = wo(s_);
  const Index n = length(x_);
  double clipped = 0.0;
#pragma omp parallel for schedule(static) reduction(+ : clipped)
  for (Index i = 0; i < n; ++i) {
    const auto k = static_cast<std::size_t>(i);
    ps[i] = bounds_.clamp(k, px[i] + alpha * pv[i]) - px[i];
    if (ps[i] != alpha * pv[i]) clipped += 1.0;
  }
  if (globalSum(x_, clipped) > 0.0) {
    qp_.A->apply(s_, As_);
    ++applies_;
  } else {
    As_.update(alpha, Av, 0.0);
  }
  const double* pAs = readOnly(As_);
  const double* pAx = readOnly(Ax_);
  const double* pb = readOnly(*qp_.b);
  double gs = 0.0, sAs = 0.0;
#pragma omp parallel for schedule(static) reduction(+ : gs, sAs)
  for (Index i = 0; i < n; ++i) {
    gs += (pAx[i] + pb[i]) * ps[i];
    sAs += ps[i] * pAs[i];
  }
  const auto sums = globalSums<2>(x_, {gs, sAs});
  return {sums[0], sums[1]};
}

double GpminresRun::firstBreakpoint() const {
  const double inf = std::numeric_limits<double>::infinity();
  const double* px = readOnly(x_);
  const double* pp = readOnly(p_);
  const Index n = length(x_);
  double step = inf;
#pragma omp parallel for schedule(static) reduction(min : step)
  for (Index i = 0; i < n; ++i) {
    const auto k = static_cast<std::size_t>(i);
    double t = inf;
    if (pp[i] > 0.0 && std::isfinite(bounds_.lower[k])) t = (px[i] - bounds_.lower[k]) / pp[i];
    if (pp[i] < 0.0 && std::isfinite(bounds_.upper[k])) t = (bounds_.upper[k] - px[i]) / -pp[i];
    if (t > 0.0) step = std::min(step, t);
  }
  return globalMinimum(x_, step);
}

// Lines (3)-(14): projected gradient steps from y^(0) = gamma^(k) (kept in x).
void GpminresRun::gradientProjection() {
  const double* pb = readOnly(*qp_.b);
  const Index n = length(x_);
  double max_decrease = 0.0;
  for (int j = 0; j < o_.gp_steps; ++j) {
    // p = projected gradient (eq. 14) at y^(j); A(y^(j)) remembered for eq. (17).
    double pp_local = 0.0;
    {
      const double* px = readOnly(x_);
      const double* pAx = readOnly(Ax_);
      double* pp = wo(p_);
#pragma omp parallel for schedule(static) reduction(+ : pp_local)
      for (Index i = 0; i < n; ++i) {
        const auto k = static_cast<std::size_t>(i);
        pp[i] = bounds_.projectedGradient(k, px[i], pAx[i] + pb[i]);
        pp_local += pp[i] * pp[i];
        active_[k] = bounds_.isFree(k, px[i]) ? 0 : 1;
      }
    }
    const double pp_dot = globalSum(x_, pp_local);
    if (!(pp_dot > 0.0)) return;  // stationary: eq. (13) holds
    qp_.A->apply(p_, Ap_);
    ++applies_;
    const double pAp = p_.dot(Ap_);
    scale_ = std::max(scale_, pAp / pp_dot);
    // Line (5): the minimiser of q(y - alpha p) over alpha > 0. Along a
    // direction of (numerically) zero curvature q decreases linearly: go to
    // the first bound instead.
    double alpha = pAp > 0.0 ? pp_dot / pAp : std::numeric_limits<double>::infinity();
    if (!(pAp > 1e-14 * scale_ * pp_dot)) alpha = std::min(alpha, firstBreakpoint());
    if (!std::isfinite(alpha)) alpha = 1.0 / std::sqrt(pp_dot);
    // Lines (6)-(8): y^(j+1) = Pi(y^(j) - alpha p) (= Pi(y^(j) - alpha grad q) for
    // separable bounds), halving alpha until eq. (16) holds.
    bool accepted = false;
    double dq = 0.0;
    for (int t = 0; t <= kMaxHalvings; ++t, alpha *= 0.5) {
      const auto [gs, sAs] = projectedStep(p_, Ap_, -alpha);
      dq = gs + 0.5 * sAs;
      if (dq <= o_.mu * gs && dq <= 0.0) {
        accepted = true;
        break;
      }
    }
    if (!accepted) return;
    x_.update(1.0, s_, 1.0);
    Ax_.update(1.0, As_, 1.0);
    q_ += dq;
    // Line (9), eq. (17): the step left the active set unchanged.
    bool same = true;
    {
      const double* px = readOnly(x_);
#pragma omp parallel for schedule(static) reduction(&& : same)
      for (Index i = 0; i < n; ++i) {
        const auto k = static_cast<std::size_t>(i);
        same = same && (active_[k] != 0) == !bounds_.isFree(k, px[i]);
      }
    }
    if (globalAll(x_, same)) return;
    // Line (11), eq. (18): sluggish decrease compared with the earlier steps.
    const double decrease = -dq;
    if (j >= 1 && decrease <= o_.eta1 * max_decrease) return;
    max_decrease = std::max(max_decrease, decrease);
  }
}

// Lines (15)-(47) for gamma^(k) = x: free set, r = Z^T grad q (as a masked
// full-length vector), MINRES on Z^T A Z w = -r from w = 0, with the
// projected searches run by the status test.
void GpminresRun::minresPhase() {
  const double* px = readOnly(x_);
  const double* pAx = readOnly(Ax_);
  const double* pb = readOnly(*qp_.b);
  double* pr = wo(*r_);
  double* pc = wo(*c_);
  const Index n = length(x_);
  double rr = 0.0;
#pragma omp parallel for schedule(static) reduction(+ : rr)
  for (Index i = 0; i < n; ++i) {
    const auto k = static_cast<std::size_t>(i);
    free_[k] = bounds_.isFree(k, px[i]) ? 1 : 0;
    pr[i] = free_[k] ? pAx[i] + pb[i] : 0.0;
    pc[i] = -pr[i];
    rr += pr[i] * pr[i];
  }
  rr = globalSum(x_, rr);
  if (!(rr > 0.0) || !std::isfinite(rr)) return;  // nothing free, or the face is solved
  w_->putScalar(0.0);
  control_->start(std::sqrt(rr), scale_);
  candidate_ = false;
  minres_->resetNumIters(0);
  Belos::MinresIterationState<double, MultiVector> state;
  state.Y = c_;
  minres_->initializeMinres(state);
  try {
    minres_->iterate();
  } catch (const Belos::BelosError&) {
    control_->recover();
  }
  if (candidate_) {
    Tpetra::deep_copy(x_, xc_);
    Tpetra::deep_copy(Ax_, Axc_);
    q_ = qc_;
  }
}

// Lines (27)-(45), called by the status test when MINRES stalls: projected
// search along d = Z w from gamma^(k), then the A == B test at the result.
bool GpminresRun::projectedSearch(double eta2) {
  if (control_->q() < 0.0) {
    // q_k(w) < 0 makes d a descent direction: grad q . d = r.w < q_k(w).
    double alpha = 1.0;
    bool found = false;
    double dq = 0.0;
    for (int i = 0; i < o_.projected_searches; ++i, alpha *= 0.5) {
      const auto [gs, sAs] = projectedStep(*w_, control_->Aw(), alpha);
      dq = gs + 0.5 * sAs;
      found = dq <= o_.mu * gs && dq <= 0.0;
      if (found) break;
    }
    // After N_PS halvings the last trial is kept if it does not increase q.
    if ((found || dq <= 0.0) && (!candidate_ || q_ + dq < qc_)) {
      xc_.update(1.0, x_, 1.0, s_, 0.0);
      Axc_.update(1.0, Ax_, 1.0, As_, 0.0);
      qc_ = q_ + dq;
      candidate_ = true;
    }
  }
  // Line (35): active set == binding set at gamma^(k+1).
  const Vector& x = candidate_ ? xc_ : x_;
  const Vector& Ax = candidate_ ? Axc_ : Ax_;
  const double* px = readOnly(x);
  const double* pAx = readOnly(Ax);
  const double* pb = readOnly(*qp_.b);
  const Index n = length(x);
  bool same = true;
#pragma omp parallel for schedule(static) reduction(&& : same)
  for (Index i = 0; i < n; ++i) {
    const auto k = static_cast<std::size_t>(i);
    same = same && (bounds_.isFree(k, px[i]) || bounds_.isBinding(k, px[i], pAx[i] + pb[i]));
  }
  if (!globalAll(x, same)) return false;  // line (45): next outer iteration
  if (eta2 < tau_) return false;          // lines (37)-(38): eta2 < tau ends MINRES
  // Also ended when gamma^(k+1) already meets the outer test of line (52)
  // (no application of A: A gamma^(k+1) is known).
  return naturalResidual(qp_.cones, x, Ax, qp_.b.get()) > tau_;
}

SolveReport GpminresSolver::solve(const QuadraticProgram& qp, Vector& gamma) const {
  checkLayout(qp, gamma, "gpminres");
  const SeparableBounds bounds = SeparableBounds::of(qp, "gpminres");
  const double tol = scaledTolerance(settings_.tolerance);
  const Vector* b = qp.b.get();
  qp.cones.project(gamma);  // warm start onto K
  Vector Ax(gamma.getMap(), false);
  qp.A->apply(gamma, Ax);
  double residual = naturalResidual(qp.cones, gamma, Ax, b);
  if (residual <= tol || settings_.max_iterations <= 0) {
    return finishReport(name(), qp, gamma, gamma, 0, 1, tol);
  }
  GpminresRun run(qp, bounds, options_, tol, gamma, Ax);
  int k = 0;
  while (k < settings_.max_iterations) {
    ++k;
    run.gradientProjection();
    run.minresPhase();
    run.refresh();
    residual = naturalResidual(qp.cones, gamma, Ax, b);
    observe(k, gamma);
    if (residual <= tol) break;  // line (52)
  }
  return finishReport(name(), qp, gamma, gamma, k, 1 + run.applies(), tol);
}

}  // namespace

std::unique_ptr<Solver> makeGpminresSolver(const SolverSettings& settings) {
  GpminresOptions o;
  o.gp_steps = static_cast<int>(solverOption(settings, "gp_steps"));
  o.eta1 = solverOption(settings, "eta1");
  o.eta2 = solverOption(settings, "eta2");
  o.mu = solverOption(settings, "mu");
  o.projected_searches = static_cast<int>(solverOption(settings, "projected_searches"));
  o.minres_iterations = static_cast<int>(solverOption(settings, "minres_iterations"));
  o.additional_iterations = static_cast<int>(solverOption(settings, "additional_iterations"));
  return std::make_unique<GpminresSolver>(settings, o);
}

}  // namespace grains::solver_detail
