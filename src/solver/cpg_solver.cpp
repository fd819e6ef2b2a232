// Conjugate projected gradient ("cpg"), Preclik, Iglberger, Ruede (seeds/002
// §3.2, Algorithm 2; Algorithm 1 without the conjugation, option conjugate = 0):
//   1  r^k     = -(A x^k + b)
//   2  rh^k    = Pi_T(x^k)(r^k)                 (T: tangent cone of K at x^k)
//   3  p^{k-1} = Pi_T(x^k)(p^{k-1})
//   4  beta^k  = -rh^k.A p^{k-1} / p^{k-1}.A p^{k-1}
//   5  p^k     = rh^k + beta^k p^{k-1}          (the paper prints r^k; with r^k the
//                                               direction would point out of K at
//                                               active constraints, so we use rh^k)
//   6  alpha^k = r^k.p^k / p^k.A p^k
//   7  x^{k+1/2} = x^k + alpha^k p^k
//   8  x^{k+1}   = Pi_K(x^{k+1/2})
// Tangent cones: frictionless and box, an unknown at a bound loses the
// outward component of the direction; cylinder, a tangential pair on the
// circle |t| = mu * normal_bound loses the outward radial component (the
// whole pair when the radius is 0). Models: frictionless, box, cylinder (the
// registry adds pyramid and coulomb through the Tresca-to-Coulomb fixed point).
//
// Curved boundary (cylinder; the paper leaves non-polyhedral sets open): along
// the circle the projected step x + alpha p -> Pi_K bends, and a sliding
// contact pushed outwards with multiplier lambda = r_t . t/|t| > 0 adds the
// second-order term lambda s^2 / (2 R) for an arc length s. Lines 4 and 6 use
// H = A + sum_c (lambda_c / R_c) P_c (P_c: the tangential pair of a sliding
// contact) instead of A, i.e. the second-order model of f along the projected
// arc; without it the line-search step of line 6 overshoots by orders of
// magnitude on small discs and the iteration crawls. For frictionless and box
// H = A: Alg. 2 exactly.
//
// Matrix-vector products (all counted in operator_applies): A p^k every
// iteration; A p^{k-1} again only when line 3 changed p^{k-1} (otherwise the
// stored A p^{k-1} is reused, as in CG); A x^{k+1} only when line 8 moved
// x^{k+1/2} (otherwise A x^{k+1} = A x^k + alpha A p^k, recomputed exactly every
// 50 such updates and before declaring convergence). While no constraint
// changes, one product per iteration, like CG.
//
// Safeguards (not in the paper, which notes that the extension to curved sets
// is open; they make the method a descent method on our PSD problems):
// - r.p is evaluated as rh.p + beta (r - rh).p^{k-1} (see descentDots); a p^k
//   with r.p <= 0 (possible when beta < 0) is replaced by rh^k (restart; A rh^k
//   = A p^k - beta A p^{k-1}, no extra product);
// - a projected step (line 8) that fails the Armijo test on the projected arc
//   (f(Pi(x + alpha p)) - f(x) <= -1e-4 r.(Pi(x + alpha p) - x), up to the
//   rounding of f) is halved, at most max_backtracks times, and then the
//   iteration restarts with rh^k, for which small steps always decrease f;
// - p.A p = 0 (A is only PSD) gives alpha = infinity: the largest step that
//   stays in K is taken; if the ray never leaves K the objective is unbounded
//   below and the solve stops.
// So the objective never increases (beyond rounding). When no step decreases
// it (the projected gradient vanishes to rounding, or the problem is
// unbounded) the solve stops early, unconverged, with the iterations done.
#include "solver_factories.hpp"
#include "solver_kernels.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <tuple>
#include <utility>
#include <vector>

namespace grains::solver_detail {
namespace {

using Index = long long;
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr int kRefreshEvery = 50;  // exact A x after this many incremental updates

double* readWrite(Vector& v) { return v.getLocalViewHost(Tpetra::Access::ReadWrite).data(); }

/// Global sums (a.b + extra_ab, c.d + extra_cd) in one reduction (the extras
/// are this rank's curvature terms, see FeasibleSet::curvature).
std::pair<double, double> dots(const Vector& a, const Vector& b, const Vector& c, const Vector& d,
                               double extra_ab, double extra_cd) {
  const double* pa = readOnly(a);
  const double* pb = readOnly(b);
  const double* pc = readOnly(c);
  const double* pd = readOnly(d);
  const Index n = static_cast<Index>(a.getLocalLength());
  double ab = 0.0;
  double cd = 0.0;
#pragma omp parallel for schedule(static) reduction(+ : ab, cd)
  for (Index i = 0; i < n; ++i) {
    ab += pa[i] * pb[i];
    cd += pc[i] * pd[i];
  }
  const auto global = globalSums<2>(a, {ab + extra_ab, cd + extra_cd});
  return {global[0], global[1]};
}

/// Global sums (r.p, p.Ap + extra) in one reduction for p = rh + beta prev, with r.p
/// evaluated as rh.p + beta (r - rh).prev: r - rh (the normal-cone part of r)
/// is orthogonal to rh, and dropping that product avoids the cancellation of
/// r.rh = |rh|^2 when r is nearly normal to K (|r| >> |rh| near a solution on
/// the cylinder's curved boundary, where r.rh computed directly can come out <= 0).
std::pair<double, double> descentDots(const Vector& r, const Vector& rh, const Vector& prev,
                                      double beta, const Vector& p, const Vector& Ap,
                                      double extra) {
  const double* pr = readOnly(r);
  const double* prh = readOnly(rh);
  const double* pprev = readOnly(prev);
  const double* pp = readOnly(p);
  const double* pAp = readOnly(Ap);
  const Index n = static_cast<Index>(r.getLocalLength());
  double rp = 0.0;
  double curvature = 0.0;
#pragma omp parallel for schedule(static) reduction(+ : rp, curvature)
  for (Index i = 0; i < n; ++i) {
    rp += prh[i] * pp[i] + (beta != 0.0 ? beta * (pr[i] - prh[i]) * pprev[i] : 0.0);
    curvature += pp[i] * pAp[i];
  }
  const auto global = globalSums<2>(r, {rp, curvature + extra});
  return {global[0], global[1]};
}

/// The feasible set of a fixed-bounds model: frictionless, box or cylinder.
class FeasibleSet {
 public:
  explicit FeasibleSet(const ConeSet& cones) : cones_(cones), block_(cones.blockSize()) {
    radius_.assign(cones.localContacts(), 0.0);
    kappa_.assign(cones.localContacts(), 0.0);
    if (block_ == 3) {
      for (std::size_t c = 0; c < radius_.size(); ++c)
        radius_[c] = cones.mu[c] * cones.normal_bound[c];
    }
  }

  /// d <- Pi_T(x)(d), the projection onto the tangent cone of K at x, in
  /// place; returns whether any entry changed on any rank.
  bool projectTangent(const Vector& x, Vector& d) const {
    const double* px = readOnly(x);
    double* pd = readWrite(d);
    const Index contacts = static_cast<Index>(radius_.size());
    int changed = 0;
#pragma omp parallel for schedule(static) reduction(max : changed)
    for (Index c = 0; c < contacts; ++c) {
      const double* xc = px + block_ * c;
      double* dc = pd + block_ * c;
      if (xc[0] <= 0.0 && dc[0] < 0.0) {  // normal at its bound 0
        dc[0] = 0.0;
        changed = 1;
      }
      if (block_ == 1) continue;
      const double R = radius_[static_cast<std::size_t>(c)];
      if (cones_.model == FrictionModel::Box) {
        for (int k = 1; k < 3; ++k) {
          if ((xc[k] <= -R && dc[k] < 0.0) || (xc[k] >= R && dc[k] > 0.0)) {
            dc[k] = 0.0;
            changed = 1;
          }
        }
      } else if (!(R > 0.0)) {  // cylinder of radius 0: the tangential pair is fixed at 0
        if (dc[1] != 0.0 || dc[2] != 0.0) changed = 1;
        dc[1] = dc[2] = 0.0;
      } else {
        const double t = tangentMagnitude(xc[1], xc[2]);
        if (t >= R * (1.0 - 1e-12)) {  // on the circle: drop the outward radial part
          const double n1 = xc[1] / t;
          const double n2 = xc[2] / t;
          const double outward = dc[1] * n1 + dc[2] * n2;
          if (outward > 0.0) {
            dc[1] -= outward * n1;
            dc[2] -= outward * n2;
            changed = 1;
          }
        }
      }
    }
    return globalMax(x, static_cast<double>(changed)) > 0.0;
  }

  /// Curvature of the circle at sliding contacts (cylinder only): for a
  /// tangential pair on the circle |t| = R with r = -(A x + b) pushing
  /// outwards (lambda = r_t . t/|t| > 0, the multiplier of the constraint),
  /// moving a distance s along the circle changes f by the extra second-order
  /// term lambda s^2 / (2 R). kappa_c = lambda / R (0 elsewhere) is stored for
  /// curvature(); it adds to A in the step length and the conjugation, which
  /// then use the second-order model of f on the projected arc.
  void updateCurvature(const Vector& x, const Vector& r) {
    if (cones_.model != FrictionModel::Cylinder) return;
    const double* px = readOnly(x);
    const double* pr = readOnly(r);
    const Index contacts = static_cast<Index>(radius_.size());
#pragma omp parallel for schedule(static)
    for (Index c = 0; c < contacts; ++c) {
      const std::size_t cs = static_cast<std::size_t>(c);
      const double R = radius_[cs];
      const double* xc = px + 3 * c;
      const double t = tangentMagnitude(xc[1], xc[2]);
      kappa_[cs] = 0.0;
      if (!(R > 0.0) || t < R * (1.0 - 1e-12)) continue;
      const double lambda = (pr[3 * c + 1] * xc[1] + pr[3 * c + 2] * xc[2]) / t;
      if (lambda > 0.0) kappa_[cs] = lambda / R;
    }
  }
  /// This rank's sum kappa_c (u_t . v_t) over the contacts (0 unless cylinder).
  double curvature(const Vector& u, const Vector& v) const {
    if (cones_.model != FrictionModel::Cylinder) return 0.0;
    const double* pu = readOnly(u);
    const double* pv = readOnly(v);
    const Index contacts = static_cast<Index>(radius_.size());
    double sum = 0.0;
#pragma omp parallel for schedule(static) reduction(+ : sum)
    for (Index c = 0; c < contacts; ++c) {
      const double k = kappa_[static_cast<std::size_t>(c)];
      if (k != 0.0) sum += k * (pu[3 * c + 1] * pv[3 * c + 1] + pu[3 * c + 2] * pv[3 * c + 2]);
    }
    return sum;
  }

  /// The largest alpha >= 0 with x + alpha p in K (over all ranks; +inf when
  /// the ray stays in K).
  double maxStep(const Vector& x, const Vector& p) const {
    const double* px = readOnly(x);
    const double* pp = readOnly(p);
    const Index contacts = static_cast<Index>(radius_.size());
    double local = kInf;
#pragma omp parallel for schedule(static) reduction(min : local)
    for (Index c = 0; c < contacts; ++c) {
      const double* xc = px + block_ * c;
      const double* pc = pp + block_ * c;
      if (pc[0] < 0.0) local = std::min(local, std::max(xc[0], 0.0) / -pc[0]);
      if (block_ == 1) continue;
      const double R = radius_[static_cast<std::size_t>(c)];
      if (cones_.model == FrictionModel::Box) {
        for (int k = 1; k < 3; ++k) {
          if (pc[k] > 0.0) local = std::min(local, std::max(R - xc[k], 0.0) / pc[k]);
          if (pc[k] < 0.0) local = std::min(local, std::max(xc[k] + R, 0.0) / -pc[k]);
        }
      } else {
        // |t + alpha d| = R: the positive root of dd a^2 + 2 td a + (tt - R^2) = 0,
        // in the form without cancellation.
        const double dd = pc[1] * pc[1] + pc[2] * pc[2];
        if (!(dd > 0.0)) continue;
        const double td = xc[1] * pc[1] + xc[2] * pc[2];
        const double slack = std::max(R * R - (xc[1] * xc[1] + xc[2] * xc[2]), 0.0);
        const double root = std::sqrt(td * td + dd * slack);
        const double alpha = td <= 0.0 ? (root - td) / dd : slack / (td + root);
        local = std::min(local, alpha);
      }
    }
    return -globalMax(x, -local);
  }

  /// Armijo test of a projected step y = Pi_K(x + alpha p) against x (over all ranks):
  ///   f(y) - f(x) <= -1e-4 max(0, r.(y - x)),  r = -(A x + b),
  /// with f(y) - f(x) = (y - x).(1/2 (A y + A x) + b), which has no cancellation
  /// between two objective values. On the cylinder's circle the projection
  /// leaves |t| = R (1 + O(eps)); that radial rounding changes f by
  /// O(eps R |grad|), which near a sliding solution is far larger than the
  /// decrease of a short tangential step, so its first-order effect
  /// g(x).(t - R t/|t|) is removed from the change. The remaining rounding of
  /// the sum is allowed for (8 eps sum |y - x| (|A x + b| + |A y - A x|)).
  bool sufficientDecrease(const Vector& x, const Vector& y, const Vector& Ax, const Vector& Ay,
                          const Vector& b) const {
    constexpr double kSigma = 1e-4;
    constexpr double kRounding = 8.0 * std::numeric_limits<double>::epsilon();
    const double* px = readOnly(x);
    const double* py = readOnly(y);
    const double* pAx = readOnly(Ax);
    const double* pAy = readOnly(Ay);
    const double* pb = readOnly(b);
    const Index n = static_cast<Index>(x.getLocalLength());
    double change = 0.0;
    double predicted = 0.0;
    double noise = 0.0;
#pragma omp parallel for schedule(static) reduction(+ : change, predicted, noise)
    for (Index i = 0; i < n; ++i) {
      const double d = py[i] - px[i];
      const double g = pAx[i] + pb[i];
      change += d * (0.5 * (pAy[i] + pAx[i]) + pb[i]);
      predicted -= d * g;
      noise += std::abs(d) * (std::abs(g) + std::abs(pAy[i] - pAx[i]));
    }
    if (cones_.model == FrictionModel::Cylinder) {
      const Index contacts = static_cast<Index>(radius_.size());
      double rounding = 0.0;
#pragma omp parallel for schedule(static) reduction(+ : rounding)
      for (Index c = 0; c < contacts; ++c) {
        const double R = radius_[static_cast<std::size_t>(c)];
        const double* yc = py + 3 * c;
        const double t = tangentMagnitude(yc[1], yc[2]);
        if (!(R > 0.0) || t < R * (1.0 - 1e-12)) continue;
        const double excess = (t - R) / t;  // y_t - R y_t / |y_t| = excess * y_t
        for (int k = 1; k < 3; ++k) {
          const Index i = 3 * c + k;
          rounding += (pAx[i] + pb[i]) * excess * yc[k];
        }
      }
      change -= rounding;
    }
    const auto global = globalSums<3>(x, {change, predicted, noise});
    return global[0] <= -kSigma * std::max(global[1], 0.0) + kRounding * global[2];
  }

 private:
  const ConeSet& cones_;
  int block_;
  std::vector<double> radius_;
  std::vector<double> kappa_;
};

class CpgSolver final : public Solver {
 public:
  explicit CpgSolver(SolverSettings settings)
      : settings_(std::move(settings)),
        conjugate_(solverOption(settings_, "conjugate") != 0.0),
        max_backtracks_(static_cast<int>(solverOption(settings_, "max_backtracks"))) {}
  std::string name() const override { return "cpg"; }
  SolveReport solve(const QuadraticProgram& qp, Vector& gamma) const override;

 private:
  SolverSettings settings_;
  bool conjugate_;
  int max_backtracks_;
};

/// The state of one solve: the iterate x (gamma) and A x, r and rh (lines
/// 1-2), the direction p and A p, the previous direction and its image (lines
/// 3-5), a candidate step and its image, the best iterate, and the counters.
class CpgRun {
 public:
  CpgRun(const QuadraticProgram& qp, Vector& x, bool conjugate, int max_backtracks)
      : qp_(qp),
        set_(qp.cones),
        b_(*qp.b),
        x_(x),
        conjugate_(conjugate),
        max_backtracks_(max_backtracks),
        Ax_(x.getMap(), false),
        r_(x.getMap(), false),
        rh_(x.getMap(), false),
        p_(x.getMap(), false),
        Ap_(x.getMap(), false),
        prev_(x.getMap(), true),
        Aprev_(x.getMap(), true),
        cand_(x.getMap(), false),
        Acand_(x.getMap(), false),
        best_(x.getMap(), false) {}

  double start();
  /// One iteration (lines 1-8); returns whether x moved.
  bool iterate();
  double residualConfirmed(double tol);
  void keepIfBest(double residual);
  const Vector& best() const { return best_; }
  int applies() const { return applies_; }

 private:
  void projectedGradient();
  double conjugationCoefficient();
  void direction(double beta);
  bool descend(double beta);
  std::pair<double, double> restartWithProjectedGradient(double beta);
  bool step(double rp, double pAp);
  bool zeroCurvatureStep();
  bool backtrack(double alpha);
  bool projectionMovesCandidate(double alpha);
  void accept();
  void moveAlong(double alpha);
  void refreshAx();

  const QuadraticProgram& qp_;
  FeasibleSet set_;
  const Vector& b_;
  Vector& x_;
  const bool conjugate_;
  const int max_backtracks_;
  Vector Ax_, r_, rh_, p_, Ap_, prev_, Aprev_, cand_, Acand_, best_;
  int applies_ = 0;
  int incremental_ = 0;     ///< updates of A x since it was last computed exactly
  bool have_prev_ = false;  ///< prev holds the last direction, which moved x
  double best_residual_ = 0.0;
};

// A x and the residual of the warm start, the best iterate so far.
double CpgRun::start() {
  qp_.A->apply(x_, Ax_);
  applies_ = 1;
  incremental_ = 0;
  const double residual = naturalResidual(qp_.cones, x_, Ax_, &b_);
  best_residual_ = residual;
  Tpetra::deep_copy(best_, x_);
  return residual;
}

bool CpgRun::iterate() {
  projectedGradient();
  const double beta = conjugationCoefficient();
  direction(beta);
  const bool moved = descend(beta);
  Tpetra::deep_copy(prev_, p_);
  Tpetra::deep_copy(Aprev_, Ap_);
  have_prev_ = moved;
  return moved;
}

// Lines 1-2: r and rh = Pi_T(x)(r); the circle's curvature at the sliding
// contacts follows r (it enters lines 4 and 6 as H).
void CpgRun::projectedGradient() {
  {
    const double* pAx = readOnly(Ax_);
    const double* pb = readOnly(b_);
    double* pr = r_.getLocalViewHost(Tpetra::Access::OverwriteAll).data();
    const Index n = static_cast<Index>(r_.getLocalLength());
#pragma omp parallel for schedule(static)
    for (Index i = 0; i < n; ++i) pr[i] = -(pAx[i] + pb[i]);
  }
  Tpetra::deep_copy(rh_, r_);
  set_.projectTangent(x_, rh_);
  set_.updateCurvature(x_, r_);
}

// Lines 3-4: beta (0 without conjugation or a previous direction). A p^{k-1}
// is recomputed only when line 3 changed p^{k-1}.
double CpgRun::conjugationCoefficient() {
  if (!conjugate_ || !have_prev_) return 0.0;
  if (set_.projectTangent(x_, prev_)) {
    qp_.A->apply(prev_, Aprev_);
    ++applies_;
  }
  const auto [rhAprev, prevAprev] =
      dots(rh_, Aprev_, prev_, Aprev_, set_.curvature(rh_, prev_), set_.curvature(prev_, prev_));
  double beta = 0.0;
  if (prevAprev > 0.0) beta = -rhAprev / prevAprev;
  if (!std::isfinite(beta)) beta = 0.0;
  return beta;
}

// Line 5 (with rh^k) and A p^k.
void CpgRun::direction(double beta) {
  p_.update(1.0, rh_, beta, prev_, 0.0);
  qp_.A->apply(p_, Ap_);
  ++applies_;
}

// Lines 6-8 along p^k while it is a descent direction; otherwise (or when no
// step along it decreases f) restart with rh^k, for which small steps always do.
bool CpgRun::descend(double beta) {
  double rp = 0.0;
  double pAp = 0.0;
  std::tie(rp, pAp) = descentDots(r_, rh_, prev_, beta, p_, Ap_, set_.curvature(p_, p_));
  bool moved = false;
  if (beta != 0.0 && rp > 0.0) moved = step(rp, pAp);
  if (!moved && beta != 0.0) std::tie(rp, pAp) = restartWithProjectedGradient(beta);
  if (!moved && rp > 0.0) moved = step(rp, pAp);
  return moved;
}

// p = rh with A rh = A p - beta A p^{k-1} (no extra product); returns its (r.p, p.Ap).
std::pair<double, double> CpgRun::restartWithProjectedGradient(double beta) {
  Tpetra::deep_copy(p_, rh_);
  Ap_.update(-beta, Aprev_, 1.0);  // A rh = A p - beta A p^{k-1}
  return descentDots(r_, rh_, prev_, 0.0, p_, Ap_, set_.curvature(p_, p_));
}

// Lines 6-8 with the safeguards; returns false when no step along p could be
// taken (no decrease within max_backtracks halvings, or unbounded).
bool CpgRun::step(double rp, double pAp) {
  const double alpha = pAp > 0.0 ? rp / pAp : kInf;  // line 6
  if (std::isfinite(alpha)) return backtrack(alpha);
  return zeroCurvatureStep();
}

// Zero curvature along p (A is only PSD): f decreases linearly until the ray
// leaves K; unbounded below if it never does.
bool CpgRun::zeroCurvatureStep() {
  const double feasible = set_.maxStep(x_, p_);
  if (feasible > 0.0 && std::isfinite(feasible)) {
    moveAlong(feasible);
    return true;
  }
  if (!std::isfinite(feasible)) return false;
  return backtrack(1.0);  // blocked at once (curved boundary): search the projected arc
}

// Lines 7-8 from alpha, halved until the projected step passes the Armijo
// test on the projected arc (at most max_backtracks times).
bool CpgRun::backtrack(double alpha) {
  for (int trial = 0; trial <= max_backtracks_; ++trial, alpha *= 0.5) {
    if (!projectionMovesCandidate(alpha)) {  // x + alpha p is in K: f decreases along the line
      moveAlong(alpha);
      return true;
    }
    qp_.A->apply(cand_, Acand_);
    ++applies_;
    if (set_.sufficientDecrease(x_, cand_, Ax_, Acand_, b_)) {
      accept();
      return true;
    }
  }
  return false;
}

// cand = Pi_K(x + alpha p) (lines 7-8); returns whether the projection moved
// it (Acand holds the difference meanwhile).
bool CpgRun::projectionMovesCandidate(double alpha) {
  cand_.update(1.0, x_, alpha, p_, 0.0);  // line 7
  Tpetra::deep_copy(Acand_, cand_);
  qp_.cones.project(cand_);  // line 8
  Acand_.update(-1.0, cand_, 1.0);
  return Acand_.normInf() > 0.0;
}

// Accept cand (with A cand) as the next iterate.
void CpgRun::accept() {
  Tpetra::deep_copy(x_, cand_);
  Tpetra::deep_copy(Ax_, Acand_);
  incremental_ = 0;
}

// Move x by alpha * p with A x updated by alpha * A p; a projection of the
// result that moves anything (rounding at a hit bound) recomputes A x, as
// does every kRefreshEvery-th incremental update.
void CpgRun::moveAlong(double alpha) {
  x_.update(alpha, p_, 1.0);
  Ax_.update(alpha, Ap_, 1.0);
  Tpetra::deep_copy(cand_, x_);
  qp_.cones.project(x_);
  cand_.update(-1.0, x_, 1.0);
  if (cand_.normInf() > 0.0 || ++incremental_ >= kRefreshEvery) refreshAx();
}

void CpgRun::refreshAx() {
  qp_.A->apply(x_, Ax_);
  ++applies_;
  incremental_ = 0;
}

// The residual after a step; one that converges with an incrementally updated
// A x is confirmed with the exact A x.
double CpgRun::residualConfirmed(double tol) {
  double residual = naturalResidual(qp_.cones, x_, Ax_, &b_);
  if (residual <= tol && incremental_ > 0) {
    refreshAx();
    residual = naturalResidual(qp_.cones, x_, Ax_, &b_);
  }
  return residual;
}

void CpgRun::keepIfBest(double residual) {
  if (residual < best_residual_) {
    best_residual_ = residual;
    Tpetra::deep_copy(best_, x_);
  }
}

void requireFixedBoundsModel(FrictionModel model) {
  if (model != FrictionModel::Frictionless && model != FrictionModel::Box &&
      model != FrictionModel::Cylinder) {
    throw std::invalid_argument(
        "cpg: friction model '" + frictionModelName(model) +
        "' is not solved directly (frictionless, box, cylinder); create the solver for this "
        "model through SolverRegistry::create(name, settings, model), which adds the "
        "Tresca-to-Coulomb fixed point");
  }
}

SolveReport CpgSolver::solve(const QuadraticProgram& qp, Vector& gamma) const {
  checkLayout(qp, gamma, "cpg");
  requireFixedBoundsModel(qp.cones.model);
  qp.cones.project(gamma);  // warm start onto K (throws when box/cylinder bounds are missing)
  CpgRun run(qp, gamma, conjugate_, max_backtracks_);
  const double tol = scaledTolerance(settings_.tolerance);
  double residual = run.start();
  int iterations = 0;
  while (!(residual <= tol) && iterations < settings_.max_iterations) {
    ++iterations;
    const bool moved = run.iterate();
    residual = run.residualConfirmed(tol);
    run.keepIfBest(residual);
    observe(iterations, gamma);
    // No descent step exists (projected gradient zero up to rounding, or the
    // objective is unbounded below along p): further iterations cannot move.
    if (!moved) break;
  }
  return finishReport(name(), qp, run.best(), gamma, iterations, run.applies(), tol);
}

}  // namespace

std::unique_ptr<Solver> makeCpgSolver(const SolverSettings& settings) {
  return std::make_unique<CpgSolver>(settings);
}

}  // namespace grains::solver_detail
