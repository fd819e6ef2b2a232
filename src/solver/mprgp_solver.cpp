// MPRGP on Coulomb cones ("mprgp"): modified proportioning with reduced
// gradient projections. The method for bound constraints is Z. Dostal,
// J. Schoeberl, "Minimizing quadratic functions subject to bound constraints
// with the rate of convergence and finite termination", Computational
// Optimization and Applications 30(1), 2005 (also Z. Dostal, Optimal Quadratic
// Programming Algorithms, Springer 2009, chapter 5); its extension to
// separable convex constraints, which this follows, is R. Kucera,
// "Convergence rate of an optimization algorithm for minimizing quadratic
// functions with separable convex constraints", SIAM Journal on Optimization
// 19(2), 2008 (after R. Kucera, "Minimizing quadratic functions with separable
// quadratic constraints", Optimization Methods and Software 22(3), 2007), and
// Z. Dostal, T. Kozubek, "An optimal algorithm and superrelaxation for
// minimization of a quadratic function subject to separable convex
// constraints with applications", Mathematical Programming 135, 2012. The
// projected CG step of option `expansion` is one of the variants compared by
// J. Kruzik, D. Horak, M. Cermak, L. Pospisil, M. Pecha, "Active set expansion
// strategies in MPRGP algorithm", Advances in Engineering Software 149, 2020.
//
// The method runs in the diagonal metric of apgd (diagonal_metric.hpp): on
// y = S^-1 gamma with A~ = S A S (unit diagonal), b~ = S b and the cones
// S^-1 K. Per contact, at a feasible y and g = A~ y + b~:
//   free (interior of its set: |t| < mu n, or n > 0 without friction):
//     free gradient phi = g, chopped gradient beta = 0;
//   active (on the cone's surface |t| = mu n > 0, or at the apex y = 0):
//     phi = 0, beta = the projected gradient of the contact, the part of g
//     its set lets it follow: g without the blocked outward normal part on
//     the surface, -Pi_K(-g) at the apex.
// Each iteration is one of
//   proportional (|beta|^2 <= Gamma^2 |phi|^2): conjugate gradients on the
//     free contacts, p = phi - rho p_old (rho making p A~-conjugate to p_old),
//     alpha_cg = phi.p / p.A~p, alpha_f the largest feasible step along -p
//     (the first root of mu^2 n^2 - |t|^2 along the line, per contact);
//       alpha_cg <= alpha_f: CG step, g <- g - alpha_cg A~p (exact: free
//       contacts move on straight lines inside their cones);
//       otherwise expansion: y_half = y - alpha_f p (the contacts that bound
//       alpha_f land on their surface or apex), then a projected step
//       y <- Pi_K(y_half - alpha_bar g(y_half));
//   not proportional: proportioning, the projected step
//     Pi_K(y - alpha_bar g) on the active contacts only (Kucera's reduced
//     step: it releases the chopped gradient).
// alpha_bar = step_factor / ||A~||, ||A~|| from a few power iterations at the
// first projected step (a lower bound); it is halved while a step would raise
// q, so every step lowers q.
// Faces without curvature: A restricted to the free contacts of a statically
// indeterminate pile has a null space of self-stresses, along which b may
// have a component (docs/solvers.md): that face QP is unbounded below. A CG
// direction with p.A~p <= 0 has alpha_cg = inf and expands to the feasible
// boundary; when no boundary lies ahead either (a ray in K along which q
// falls without bound) the QP itself is unbounded: the solve stops,
// unconverged. Convergence is the natural residual of the original problem,
// with a fresh product of A before a recurred gradient may declare it.
#include "cone_face.hpp"
#include "diagonal_metric.hpp"
#include "separable_bounds.hpp"
#include "solver_factories.hpp"
#include "solver_kernels.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>
#include <vector>

namespace grains::solver_detail {
namespace {

using Index = long long;

double* rw(Vector& v) { return v.getLocalViewHost(Tpetra::Access::ReadWrite).data(); }
double* wo(Vector& v) { return v.getLocalViewHost(Tpetra::Access::OverwriteAll).data(); }

constexpr double kInf = std::numeric_limits<double>::infinity();
/// Bound on the alpha_bar halvings of one projected step.
constexpr int kMaxStepHalvings = 30;

/// The solver options (makeMprgpSolver's).
struct MprgpOptions {
  double gamma2;         ///< Gamma^2 of the proportionality test
  double step_factor;    ///< alpha_bar = step_factor / ||A~||
  int power_iterations;  ///< for ||A~||
  bool projected_cg;     ///< option expansion: try the projected CG step first
};

class MprgpSolver final : public Solver {
 public:
  explicit MprgpSolver(SolverSettings settings)
      : settings_(std::move(settings)),
        options_{std::pow(solverOption(settings_, "gamma"), 2),
                 solverOption(settings_, "step_factor"),
                 static_cast<int>(solverOption(settings_, "power_iterations")),
                 solverOption(settings_, "expansion") != 0.0} {}
  std::string name() const override { return "mprgp"; }
  SolveReport solve(const QuadraticProgram& qp, Vector& gamma) const override;

 private:
  SolverSettings settings_;
  MprgpOptions options_;
};

/// The state of one solve: the scaled problem, the work vectors, alpha_bar
/// and the state of the CG chain (one member per step of the iteration).
class MprgpRun {
 public:
  MprgpRun(const QuadraticProgram& qp, const Vector& gamma, const MprgpOptions& options)
      : y(gamma.getMap(), false),
        g(gamma.getMap(), false),
        b(gamma.getMap(), false),
        phi(gamma.getMap(), false),
        beta(gamma.getMap(), false),
        p(gamma.getMap(), false),
        Ap(gamma.getMap(), false),
        work(gamma.getMap(), false),
        y_from(gamma.getMap(), false),
        g_from(gamma.getMap(), false),
        A_gamma(gamma.getMap(), false),
        qp_(qp),
        metric_(diagonalMetric(qp)),
        map_(gamma.getMap()),
        block_(qp.cones.blockSize()),
        contacts_(static_cast<Index>(qp.cones.localContacts())),
        n_(static_cast<Index>(gamma.getLocalLength())),
        options_(options) {
    const double* ps = metric_.scale.data();
    const double* pb = readOnly(*qp.b);
    double* pbs = wo(b);
    for (Index i = 0; i < n_; ++i) pbs[i] = ps[i] * pb[i];
  }

  Vector y, g, b, phi, beta, p, Ap, work, y_from, g_from;
  Vector A_gamma;  ///< A S y at the last freshGradient()
  int applies = 0;

  /// One iteration: CG or expansion when proportional, else proportioning;
  /// false when q falls without bound along a ray inside K.
  bool iterate();
  double residualConfirmed(double tol);

  const ConeSet& cones() const { return metric_.cones; }

  /// out = S A S v.
  void applyScaled(const Vector& v, Vector& out) {
    scaleInto(v, work);
    qp_.A->apply(work, out);
    ++applies;
    double* po = rw(out);
    const double* ps = metric_.scale.data();
#pragma omp parallel for schedule(static)
    for (Index i = 0; i < n_; ++i) po[i] *= ps[i];
  }

  /// g = S A S y + b~, keeping A gamma (gamma = S y) for the report.
  void freshGradient() {
    scaleInto(y, work);
    qp_.A->apply(work, A_gamma);
    ++applies;
    const double* pa = readOnly(A_gamma);
    const double* pb = readOnly(b);
    const double* ps = metric_.scale.data();
    double* pg = wo(g);
#pragma omp parallel for schedule(static)
    for (Index i = 0; i < n_; ++i) pg[i] = ps[i] * pa[i] + pb[i];
  }

  /// y = Pi_{S^-1 K}(S^-1 gamma).
  void startFrom(const Vector& gamma) {
    const double* pg = readOnly(gamma);
    double* py = wo(y);
    const double* pinv = metric_.inverse.data();
    for (Index i = 0; i < n_; ++i) py[i] = pg[i] * pinv[i];
    cones().project(py);
  }

  /// gamma = S y (as freshGradient forms it).
  void unscaled(Vector& gamma) const { scaleInto(y, gamma); }

  /// The natural residual of the original problem at gamma = S y with the
  /// gradient S^-1 g.
  double naturalResidualOriginal() const {
    const double* py = readOnly(y);
    const double* pg = readOnly(g);
    const double* ps = metric_.scale.data();
    const double* pinv = metric_.inverse.data();
    const int block = block_;
    double local = 0.0;
    bool nan = false;
#pragma omp parallel for schedule(static) reduction(max : local) reduction(|| : nan)
    for (Index c = 0; c < contacts_; ++c) {
      double x[kMaxBlockSize], z[kMaxBlockSize];
      for (int k = 0; k < block; ++k) {
        const Index i = block * c + k;
        x[k] = ps[i] * py[i];
        z[k] = x[k] - pinv[i] * pg[i];
      }
      qp_.cones.projectContact(static_cast<std::size_t>(c), z);
      for (int k = 0; k < block; ++k) {
        const double r = std::abs(x[k] - z[k]);
        if (std::isnan(r)) nan = true;
        local = std::max(local, r);
      }
    }
    return globalMax(y, nan ? kInf : local);
  }

  /// phi and beta at y; returns (phi.phi, beta.beta).
  std::array<double, 2> splitGradient() {
    const double* py = readOnly(y);
    const double* pg = readOnly(g);
    double* pphi = wo(phi);
    double* pbeta = wo(beta);
    const int block = block_;
    double phi2 = 0.0, beta2 = 0.0;
#pragma omp parallel for schedule(static) reduction(+ : phi2, beta2)
    for (Index c = 0; c < contacts_; ++c) {
      const Index i = block * c;
      const double mu = cones().mu[static_cast<std::size_t>(c)];
      const Face face = faceOf(block, mu, py + i);
      double* f = pphi + i;
      double* h = pbeta + i;
      const double* gc = pg + i;
      for (int k = 0; k < block; ++k) f[k] = h[k] = 0.0;
      if (block == 1 || !(mu > 0.0)) {
        // The half-line n >= 0 (tangential unknowns fixed at 0).
        (face == Face::Apex ? h[0] : f[0]) = face == Face::Apex ? std::min(gc[0], 0.0) : gc[0];
      } else if (face == Face::Interior) {
        for (int k = 0; k < 3; ++k) f[k] = gc[k];
      } else if (face == Face::Apex) {
        double z[3] = {-gc[0], -gc[1], -gc[2]};
        projectCoulombCone(mu, z[0], z[1], z[2]);
        for (int k = 0; k < 3; ++k) h[k] = -z[k];
      } else {
        // On the surface: outer unit normal nu = (-mu, t/|t|) / sqrt(1 + mu^2);
        // -g pushing outwards (nu.g < 0) is blocked there.
        const double t = tangentMagnitude(py[i + 1], py[i + 2]);
        const double root = std::sqrt(1.0 + mu * mu);
        const double nu[3] = {-mu / root, py[i + 1] / (t * root), py[i + 2] / (t * root)};
        const double gn = nu[0] * gc[0] + nu[1] * gc[1] + nu[2] * gc[2];
        for (int k = 0; k < 3; ++k) h[k] = gc[k] - std::min(gn, 0.0) * nu[k];
      }
      for (int k = 0; k < block; ++k) {
        phi2 += f[k] * f[k];
        beta2 += h[k] * h[k];
      }
    }
    return globalSums<2>(y, {phi2, beta2});
  }

  /// (p.A~p, phi.p) in one reduction.
  std::array<double, 2> directionProducts() const {
    const double* pp = readOnly(p);
    const double* pap = readOnly(Ap);
    const double* pphi = readOnly(phi);
    double pAp = 0.0, phip = 0.0;
#pragma omp parallel for schedule(static) reduction(+ : pAp, phip)
    for (Index i = 0; i < n_; ++i) {
      pAp += pp[i] * pap[i];
      phip += pphi[i] * pp[i];
    }
    return globalSums<2>(y, {pAp, phip});
  }

  /// The largest feasible step along -p (p vanishes on active contacts).
  double feasibleStep() const {
    const double* py = readOnly(y);
    const double* pp = readOnly(p);
    const int block = block_;
    double step = kInf;
#pragma omp parallel for schedule(static) reduction(min : step)
    for (Index c = 0; c < contacts_; ++c) {
      const Index i = block * c;
      const double mu = cones().mu[static_cast<std::size_t>(c)];
      if (faceOf(block, mu, py + i) != Face::Interior) continue;
      double d[3] = {0.0, 0.0, 0.0};
      for (int k = 0; k < block; ++k) d[k] = -pp[i + k];
      step = std::min(step, freeStep(block, mu, py + i, d));
    }
    return globalMinimum(y, step);
  }

  /// y <- y - alpha p; free contacts whose own feasible step alpha reaches
  /// are put on their surface (or the apex).
  void moveAlongDirection(double alpha) {
    double* py = rw(y);
    const double* pp = readOnly(p);
    const int block = block_;
#pragma omp parallel for schedule(static)
    for (Index c = 0; c < contacts_; ++c) {
      const Index i = block * c;
      const double mu = cones().mu[static_cast<std::size_t>(c)];
      double* v = py + i;
      if (faceOf(block, mu, v) != Face::Interior) continue;
      double d[3] = {0.0, 0.0, 0.0};
      for (int k = 0; k < block; ++k) d[k] = -pp[i + k];
      const double limit = freeStep(block, mu, v, d);
      for (int k = 0; k < block; ++k) v[k] += alpha * d[k];
      if (alpha >= limit * (1.0 - 1e-12)) {
        if (block == 1 || !(mu > 0.0)) {
          v[0] = 0.0;
        } else {
          onSurface(block, mu, v);
        }
      }
      if (block == 3) {
        projectCoulombCone(mu, v[0], v[1], v[2]);  // rounding only
      } else {
        v[0] = std::max(v[0], 0.0);
      }
    }
  }

  /// y = Pi_K(y_from - alpha g_from) on every contact (active_only: on the
  /// contacts active at y_from; the others keep y_from).
  void projectedStepFrom(double alpha, bool active_only) {
    const double* pf = readOnly(y_from);
    const double* pgf = readOnly(g_from);
    double* py = wo(y);
    const int block = block_;
#pragma omp parallel for schedule(static)
    for (Index c = 0; c < contacts_; ++c) {
      const Index i = block * c;
      const double mu = cones().mu[static_cast<std::size_t>(c)];
      const bool moves = !active_only || faceOf(block, mu, pf + i) != Face::Interior;
      double z[3] = {0.0, 0.0, 0.0};
      for (int k = 0; k < block; ++k) z[k] = moves ? pf[i + k] - alpha * pgf[i + k] : pf[i + k];
      if (moves) {
        if (block == 3) {
          projectCoulombCone(mu, z[0], z[1], z[2]);
        } else {
          z[0] = std::max(z[0], 0.0);
        }
      }
      for (int k = 0; k < block; ++k) py[i + k] = z[k];
    }
  }

 private:
  /// The CG step length alpha_cg = phi.p / p.A~p, its numerator and
  /// denominator, and the feasible step alpha_f.
  struct StepLengths {
    double pAp;
    double descent;
    double cg;
    double feasible;
  };

  bool proportionalStep();
  void conjugateDirection();
  StepLengths stepLengths() const;
  void cgStep(double alpha_cg, double pAp);
  void expansionStep(const StepLengths& lengths);
  bool projectedCgStep(const StepLengths& lengths);
  void feasibleThenProjectedStep(double alpha_f);
  void proportioningStep();
  void projectedStep(bool active_only);
  void restartCg();

  /// out = S v.
  void scaleInto(const Vector& v, Vector& out) const {
    const double* pv = readOnly(v);
    double* po = wo(out);
    const double* ps = metric_.scale.data();
#pragma omp parallel for schedule(static)
    for (Index i = 0; i < n_; ++i) po[i] = ps[i] * pv[i];
  }

  const QuadraticProgram& qp_;
  DiagonalMetric metric_;
  RCP<const Map> map_;
  int block_;
  Index contacts_;
  Index n_;
  const MprgpOptions options_;
  double first_alpha_bar_ = 0.0;  ///< from ||A~||, at the first projected step
  bool conjugate_ = false;        ///< p holds the previous CG direction, Ap its image
  double previous_pAp_ = 0.0;
  bool recurred_ = false;  ///< g follows the recurrence since the last product A~y
};

bool MprgpRun::iterate() {
  const auto split = splitGradient();
  if (split[1] <= options_.gamma2 * split[0]) return proportionalStep();
  proportioningStep();
  return true;
}

// Proportional (|beta|^2 <= Gamma^2 |phi|^2): conjugate gradients on the free
// contacts, a CG step while it stays feasible, else expansion.
bool MprgpRun::proportionalStep() {
  conjugateDirection();
  const StepLengths lengths = stepLengths();
  if (std::isfinite(lengths.cg) && lengths.cg <= lengths.feasible) {
    cgStep(lengths.cg, lengths.pAp);
    return true;
  }
  // q falls without bound along a ray inside K: stop, unconverged.
  if (!std::isfinite(lengths.feasible)) return false;
  expansionStep(lengths);
  return true;
}

// p = phi - rho p_old (rho making p A~-conjugate to p_old), or phi at the
// start of a CG chain; and A~p.
void MprgpRun::conjugateDirection() {
  if (conjugate_) {
    const double phi_Ap = phi.dot(Ap);
    p.update(1.0, phi, -phi_Ap / previous_pAp_);
  } else {
    Tpetra::deep_copy(p, phi);
  }
  applyScaled(p, Ap);
}

// alpha_cg = phi.p / p.A~p (inf without curvature) and alpha_f along -p.
MprgpRun::StepLengths MprgpRun::stepLengths() const {
  const auto products = directionProducts();
  const double pAp = products[0];
  const double descent = products[1];
  const double alpha_f = feasibleStep();
  const double alpha_cg = pAp > 0.0 ? descent / pAp : kInf;
  return {pAp, descent, alpha_cg, alpha_f};
}

// CG step, g <- g - alpha_cg A~p (exact: free contacts move on straight lines
// inside their cones); the chain goes on.
void MprgpRun::cgStep(double alpha_cg, double pAp) {
  moveAlongDirection(alpha_cg);
  g.update(-alpha_cg, Ap, 1.0);
  recurred_ = true;
  conjugate_ = true;
  previous_pAp_ = pAp;
}

// alpha_cg > alpha_f: the projected CG step when option expansion asks for it
// and it is good enough, else the feasible step and a projected step.
void MprgpRun::expansionStep(const StepLengths& lengths) {
  bool accepted = false;
  if (options_.projected_cg && std::isfinite(lengths.cg)) accepted = projectedCgStep(lengths);
  if (!accepted) feasibleThenProjectedStep(lengths.feasible);
  restartCg();
}

// The projected CG step Pi_K(y - alpha_cg p), kept when it lowers q at least
// as much as the feasible step alone would; otherwise y and g are restored.
bool MprgpRun::projectedCgStep(const StepLengths& lengths) {
  const double alpha_f = lengths.feasible;
  Tpetra::deep_copy(y_from, y);
  Tpetra::deep_copy(g_from, p);
  projectedStepFrom(lengths.cg, false);
  Tpetra::deep_copy(g_from, g);
  freshGradient();
  const double delta = quadraticChange(y, y_from, g, g_from)[0];
  const bool accepted = delta <= -alpha_f * lengths.descent + 0.5 * alpha_f * alpha_f * lengths.pAp;
  if (!accepted) {
    Tpetra::deep_copy(y, y_from);
    Tpetra::deep_copy(g, g_from);
  }
  return accepted;
}

// Expansion: y_half = y - alpha_f p (the contacts that bound alpha_f land on
// their surface or apex), then a projected step with the full gradient.
void MprgpRun::feasibleThenProjectedStep(double alpha_f) {
  moveAlongDirection(alpha_f);
  g.update(-alpha_f, Ap, 1.0);
  Tpetra::deep_copy(y_from, y);
  Tpetra::deep_copy(g_from, g);
  projectedStep(false);
}

// Not proportional: proportioning, the projected step on the active contacts
// only (Kucera's reduced step: it releases the chopped gradient).
void MprgpRun::proportioningStep() {
  Tpetra::deep_copy(y_from, y);
  Tpetra::deep_copy(g_from, g);
  projectedStep(true);
  restartCg();
}

// A projected step from (y_from, g_from): y = Pi_K(y_from - alpha_bar g_from)
// on all or on the active contacts, alpha_bar halved while q would rise;
// leaves g fresh. The halvings hold for one step: kept for good, rises at
// rounding level near the solution shrink alpha_bar until the projected
// steps stall (measured on the unit tests' Coulomb problems).
void MprgpRun::projectedStep(bool active_only) {
  if (!(first_alpha_bar_ > 0.0)) {
    // ||A~|| by power iterations.
    first_alpha_bar_ =
        options_.step_factor /
        powerNormEstimate(map_, options_.power_iterations,
                          [this](const Vector& v, Vector& Av) { applyScaled(v, Av); });
  }
  double alpha_bar = first_alpha_bar_;
  for (int attempt = 0;; ++attempt) {
    projectedStepFrom(alpha_bar, active_only);
    freshGradient();
    const auto delta = quadraticChange(y, y_from, g, g_from);
    if (delta[0] <= 1e-12 * delta[1] || attempt >= kMaxStepHalvings) break;
    alpha_bar *= 0.5;
  }
}

// After a projected step g is fresh and the next direction starts a new chain.
void MprgpRun::restartCg() {
  recurred_ = false;
  conjugate_ = false;
}

// The residual after a step; one converged with a recurred gradient is
// confirmed with a fresh product of A (which also restarts the CG chain).
double MprgpRun::residualConfirmed(double tol) {
  double residual = naturalResidualOriginal();
  if (residual <= tol && recurred_) {
    freshGradient();
    restartCg();
    residual = naturalResidualOriginal();
  }
  return residual;
}

void requireConeModel(FrictionModel model) {
  if (model != FrictionModel::Coulomb && model != FrictionModel::Frictionless) {
    throw std::invalid_argument("mprgp: friction model '" + frictionModelName(model) +
                                "' is not supported; expected coulomb or frictionless");
  }
}

SolveReport MprgpSolver::solve(const QuadraticProgram& qp, Vector& gamma) const {
  checkLayout(qp, gamma, "mprgp");
  requireConeModel(qp.cones.model);
  const double tol = scaledTolerance(settings_.tolerance);
  MprgpRun run(qp, gamma, options_);
  Vector out(gamma.getMap(), false);
  // fresh: g (and A_gamma) belong to the current y, so the report needs no product.
  auto finish = [&](int iterations, bool fresh) {
    run.unscaled(out);
    if (fresh) {
      return finishReport(name(), qp, out, run.A_gamma, gamma, iterations, run.applies, tol);
    }
    return finishReport(name(), qp, out, gamma, iterations, run.applies, tol);
  };

  run.startFrom(gamma);
  run.freshGradient();
  if (run.naturalResidualOriginal() <= tol || settings_.max_iterations <= 0) return finish(0, true);
  int k = 0;
  while (k < settings_.max_iterations) {
    ++k;
    if (!run.iterate()) break;  // unbounded below: unconverged
    const double residual = run.residualConfirmed(tol);
    if (observing()) {
      run.unscaled(out);
      observe(k, out);
    }
    if (residual <= tol) return finish(k, true);
  }
  return finish(k, false);
}

}  // namespace

std::unique_ptr<Solver> makeMprgpSolver(const SolverSettings& settings) {
  return std::make_unique<MprgpSolver>(settings);
}

}  // namespace grains::solver_detail
