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

/// ||A v|| for the unit vector v after `iterations` power steps (a lower
/// bound of ||A||); the start vector depends on global indices only, so the
/// estimate does not depend on the number of ranks.
double powerEstimate(const Operator& A, const RCP<const Map>& map, int iterations, int& applies) {
  Vector v(map, false), Av(map, false);
  {
    double* pv = wo(v);
    const Index n = static_cast<Index>(map->getNodeNumElements());
    for (Index i = 0; i < n; ++i) {
      const auto gid = static_cast<double>(map->getGlobalElement(static_cast<LocalOrdinal>(i)));
      pv[i] = 1.0 + 0.5 * std::sin(1.0 + 0.7 * gid);
    }
  }
  double norm = v.norm2();
  if (!(norm > 0.0)) return 1.0;
  v.scale(1.0 / norm);
  double estimate = 0.0;
  for (int it = 0; it < iterations; ++it) {
    A.apply(v, Av);
    ++applies;
    estimate = Av.norm2();
    if (!(estimate > 0.0) || !std::isfinite(estimate)) break;
    v.update(1.0 / estimate, Av, 0.0);
  }
  return estimate > 0.0 && std::isfinite(estimate) ? estimate : 1.0;
}

SolveReport KuceraSolver::solve(const QuadraticProgram& qp, Vector& gamma) const {
  checkLayout(qp, gamma, "kucera");
  const SeparableBounds bounds = SeparableBounds::of(qp, "kucera");
  const double tol = scaledTolerance(settings_.tolerance);
  const auto map = gamma.getMap();
  const Index n = length(gamma);
  const double inf = std::numeric_limits<double>::infinity();
  Vector& x = gamma;
  // g = A x + b (kept up to date), p the CG direction, A p, and the point a
  // projected step starts from (for the decrease check).
  Vector g(map, false), p(map, false), Ap(map, false), x_from(map, false), g_from(map, false);
  int applies = 0;
  auto fresh_gradient = [&]() {
    qp.A->apply(x, g);
    ++applies;
    g.update(1.0, *qp.b, 1.0);
  };

  qp.cones.project(x);  // warm start onto K
  fresh_gradient();
  double residual = naturalResidual(qp.cones, x, g, nullptr);
  if (residual <= tol || settings_.max_iterations <= 0) {
    return finishReport(name(), qp, x, gamma, 0, applies, tol);
  }
  double alpha_t = step_factor_ / powerEstimate(*qp.A, map, power_iterations_, applies);

  // p = phi(x): the gradient on the free set (eq. 28).
  auto free_gradient = [&]() {
    const double* px = readOnly(x);
    const double* pg = readOnly(g);
    double* pp = wo(p);
#pragma omp parallel for schedule(static)
    for (Index i = 0; i < n; ++i)
      pp[i] = bounds.isFree(static_cast<std::size_t>(i), px[i]) ? pg[i] : 0.0;
  };
  // From (x_from, g_from): x = x_from with the unknowns of one set moved by a
  // projected step Pi(x - alpha~ g) (active set: proportioning, line 19, as
  // x - alpha~ beta~; free set: second half of the expansion, line 15, as
  // x - alpha~ phi~), then g = A x + b. alpha~ is halved while q would increase.
  auto projected_step = [&](bool on_free_set) {
    for (int attempt = 0;; ++attempt) {
      {
        const double* pf = readOnly(x_from);
        const double* pgf = readOnly(g_from);
        double* px = wo(x);
#pragma omp parallel for schedule(static)
        for (Index i = 0; i < n; ++i) {
          const auto k = static_cast<std::size_t>(i);
          const bool moves = bounds.isFree(k, pf[i]) == on_free_set;
          px[i] = moves ? bounds.clamp(k, pf[i] - alpha_t * pgf[i]) : pf[i];
        }
      }
      fresh_gradient();
      // q(x) - q(x_from) = (x - x_from).(g(x_from) + g(x)) / 2, exact for a quadratic.
      const double* px = readOnly(x);
      const double* pf = readOnly(x_from);
      const double* pg = readOnly(g);
      const double* pgf = readOnly(g_from);
      double change = 0.0, scale = 0.0;
#pragma omp parallel for schedule(static) reduction(+ : change, scale)
      for (Index i = 0; i < n; ++i) {
        const double s = px[i] - pf[i];
        change += 0.5 * s * (pg[i] + pgf[i]);
        scale += std::abs(s) * (std::abs(pg[i]) + std::abs(pgf[i]));
      }
      const auto sums = globalSums<2>(x, {change, scale});
      if (sums[0] <= 1e-12 * sums[1] || attempt >= kMaxStepHalvings) break;
      alpha_t *= 0.5;
    }
    free_gradient();  // lines 17 and 21: restart the CG chain
  };

  free_gradient();
  bool g_recurred = false;  // g updated by the CG recurrence since the last A x
  int k = 0;
  while (k < settings_.max_iterations) {
    ++k;
    // Line 5: beta~.g <= Gamma^2 phi~.g (strict proportionality).
    double beta_g = 0.0, phi_g = 0.0;
    {
      const double* px = readOnly(x);
      const double* pg = readOnly(g);
#pragma omp parallel for schedule(static) reduction(+ : beta_g, phi_g)
      for (Index i = 0; i < n; ++i) {
        const auto k_i = static_cast<std::size_t>(i);
        const double gt = (px[i] - bounds.clamp(k_i, px[i] - alpha_t * pg[i])) / alpha_t;
        (bounds.isFree(k_i, px[i]) ? phi_g : beta_g) += gt * pg[i];
      }
    }
    const auto proportion = globalSums<2>(x, {beta_g, phi_g});
    if (proportion[0] <= gamma2_ * proportion[1]) {
      qp.A->apply(p, Ap);
      ++applies;
      // Lines 6-7: CG step length and the feasible step along -p.
      double pAp = 0.0, gp = 0.0, feasible = inf;
      {
        const double* px = readOnly(x);
        const double* pp = readOnly(p);
        const double* pAp_v = readOnly(Ap);
        const double* pg = readOnly(g);
#pragma omp parallel for schedule(static) reduction(+ : pAp, gp) reduction(min : feasible)
        for (Index i = 0; i < n; ++i) {
          const auto k_i = static_cast<std::size_t>(i);
          pAp += pp[i] * pAp_v[i];
          gp += pg[i] * pp[i];
          if (pp[i] > 0.0) feasible = std::min(feasible, (px[i] - bounds.lower[k_i]) / pp[i]);
          if (pp[i] < 0.0) feasible = std::min(feasible, (bounds.upper[k_i] - px[i]) / -pp[i]);
        }
      }
      const auto dots = globalSums<2>(x, {pAp, gp});
      const double alpha_f = globalMinimum(x, feasible);
      const double alpha_cg = dots[0] > 0.0 ? dots[1] / dots[0] : inf;
      if (alpha_cg < alpha_f) {
        // Lines 9-12: CG step, then p = phi - rho p with rho = phi.A p / p.A p (eq. 29).
        x.update(-alpha_cg, p, 1.0);
        g.update(-alpha_cg, Ap, 1.0);
        g_recurred = true;
        double* px = rw(x);
        const double* pg = readOnly(g);
        const double* pAp_v = readOnly(Ap);
        double phi_Ap = 0.0;
#pragma omp parallel for schedule(static) reduction(+ : phi_Ap)
        for (Index i = 0; i < n; ++i) {
          const auto k_i = static_cast<std::size_t>(i);
          // alpha_cg < alpha_f keeps x inside; the clamp only removes rounding.
          px[i] = bounds.clamp(k_i, px[i]);
          if (bounds.isFree(k_i, px[i])) phi_Ap += pg[i] * pAp_v[i];
        }
        const double rho = globalSum(x, phi_Ap) / dots[0];
        double* pp = rw(p);
#pragma omp parallel for schedule(static)
        for (Index i = 0; i < n; ++i) {
          const double phi = bounds.isFree(static_cast<std::size_t>(i), px[i]) ? pg[i] : 0.0;
          pp[i] = phi - rho * pp[i];
        }
      } else {
        // Line 14: gamma^(k+1/2) = gamma - alpha_f p; the unknowns that define
        // alpha_f land exactly on their bound. (alpha_f = inf with no finite
        // CG step only happens for a problem unbounded below: no move.)
        const double step = std::isfinite(alpha_f) ? alpha_f : 0.0;
        {
          const double* px = readOnly(x);
          const double* pp = readOnly(p);
          const double* pg = readOnly(g);
          const double* pAp_v = readOnly(Ap);
          double* pf = wo(x_from);
          double* pgf = wo(g_from);
#pragma omp parallel for schedule(static)
          for (Index i = 0; i < n; ++i) {
            const auto k_i = static_cast<std::size_t>(i);
            double v = bounds.clamp(k_i, px[i] - step * pp[i]);
            if (pp[i] > 0.0 && (px[i] - bounds.lower[k_i]) / pp[i] == alpha_f)
              v = bounds.lower[k_i];
            if (pp[i] < 0.0 && (bounds.upper[k_i] - px[i]) / -pp[i] == alpha_f)
              v = bounds.upper[k_i];
            pf[i] = v;
            pgf[i] = pg[i] - step * pAp_v[i];
          }
        }
        projected_step(true);  // lines 15-17
        g_recurred = false;
      }
    } else {
      Tpetra::deep_copy(x_from, x);
      Tpetra::deep_copy(g_from, g);
      projected_step(false);  // lines 19-21
      g_recurred = false;
    }
    residual = naturalResidual(qp.cones, x, g, nullptr);
    if (residual <= tol && g_recurred) {
      // Converged by the recurrence: confirm with the true gradient.
      fresh_gradient();
      g_recurred = false;
      residual = naturalResidual(qp.cones, x, g, nullptr);
    }
    observe(k, x);
    if (residual <= tol) break;
  }
  return finishReport(name(), qp, x, gamma, k, applies, tol);
}

}  // namespace

std::unique_ptr<Solver> makeKuceraSolver(const SolverSettings& settings) {
  return std::make_unique<KuceraSolver>(settings);
}

}  // namespace grains::solver_detail
