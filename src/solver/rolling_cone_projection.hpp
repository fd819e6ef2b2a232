#pragma once
// The exact projection onto the coulomb_rolling contact set, inline (internal
// to src/solver): ConeSet's projectRollingCone and the solvers' hot loops
// (contact_projection.hpp) share this one implementation, and inlined into
// those loops the contact's six values stay in registers.
#include "grains/solver/cone_set.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace grains::solver_detail {

// Projection onto K = {|t| <= mu n, |r| <= k_r n, |s| <= k_s n} (t = (u, w),
// r = (r1, r2), k_r = mu_r, k_s = mu_s on the QP's angular unknowns, the
// torques over the rolling radius rho), the contact set of Tasora & Anitescu
// 2013 (their eqs. 9-11 with the rolling and spinning bounds as torques
// mu_r rho N, mu_s rho N). For a fixed n the closest point of the
// slice is the independent clip of t, r and s to their discs and interval,
// so the squared distance is the convex, C^1 piecewise quadratic
//   f(n) = (n - n0)^2 + sum_i max(a_i - k_i n, 0)^2,
//   (a_i, k_i) = (|t0|, mu), (|r0|, k_r), (|s0|, k_s).
// Term i is active below its breakpoint a_i / k_i (never when k_i = 0: that
// part is clipped to 0 whatever n is). Between consecutive breakpoints f is
// one quadratic with stationary point
//   n*(S) = (n0 + sum_{i in S} k_i a_i) / (1 + sum_{i in S} k_i^2)
// over the active set S. Scanning the pieces from the top (S empty) down,
// the first piece whose n* is not below its lower breakpoint holds the
// minimiser over the real line (f' is increasing and continuous); the
// minimiser over n >= 0 is that n* clamped to 0. Chrono projects the three
// parts one after the other instead, which is not the Euclidean projection.
inline void projectRollingConeInline(double mu, double rolling, double spinning, double* g) {
  const double n0 = g[0];
  const double k_t = std::max(mu, 0.0), k_r = std::max(rolling, 0.0), k_s = std::max(spinning, 0.0);
  // Most contacts stick: inside K, decided on squares (no square root).
  if (n0 >= 0.0) {
    const double t = k_t * n0, r = k_r * n0, s = k_s * n0;
    if (g[1] * g[1] + g[2] * g[2] <= t * t && g[3] * g[3] + g[4] * g[4] <= r * r &&
        g[5] * g[5] <= s * s)
      return;
  }
  const double a_t = tangentMagnitude(g[1], g[2]), a_r = tangentMagnitude(g[3], g[4]),
               a_s = std::abs(g[5]);
  // In the polar cone (n0 + sum_i k_i a_i <= 0: the support of K along g is
  // not positive) the projection is the apex; separating speculative
  // contacts land here.
  if (n0 + k_t * a_t + k_r * a_r + k_s * a_s <= 0.0) {
    for (int k = 0; k < 6; ++k) g[k] = 0.0;
    return;
  }
  // The three terms (breakpoint, k, a), breakpoints in decreasing order by
  // three compare-swaps; -inf marks a term that is never active.
  struct Term {
    double breakpoint, k, a;
  };
  const auto term = [](double k, double a) {
    return Term{k > 0.0 ? a / k : -std::numeric_limits<double>::infinity(), k, a};
  };
  Term x = term(k_t, a_t), y = term(k_r, a_r), z = term(k_s, a_s);
  if (y.breakpoint > x.breakpoint) std::swap(x, y);
  if (z.breakpoint > y.breakpoint) std::swap(y, z);
  if (y.breakpoint > x.breakpoint) std::swap(x, y);
  double numerator = n0, denominator = 1.0, n = n0;
  for (const Term* active : {&x, &y, &z}) {
    if (n >= active->breakpoint) break;  // the minimiser lies in this piece
    numerator += active->k * active->a;
    denominator += active->k * active->k;
    n = numerator / denominator;
  }
  n = std::max(n, 0.0);
  g[0] = n;
  const auto clip = [](double bound, double magnitude, double& p, double& q) {
    if (magnitude > bound) {
      const double factor = bound > 0.0 ? bound / magnitude : 0.0;
      p *= factor;
      q *= factor;
    }
  };
  clip(k_t * n, a_t, g[1], g[2]);
  clip(k_r * n, a_r, g[3], g[4]);
  const double spin_bound = k_s * n;
  g[5] = std::clamp(g[5], -spin_bound, spin_bound);
}

}  // namespace grains::solver_detail
