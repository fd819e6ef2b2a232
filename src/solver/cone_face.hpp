#pragma once
// Where a contact's impulse lies on its friction cone {|t| <= mu n}, and how
// far it can move along a direction before leaving the cone (internal to
// src/solver; the active-set geometry of mprgp). Block 1 is a frictionless
// contact (n only); mu = 0 fixes the tangential unknowns at 0.
#include "grains/solver/cone_set.hpp"

#include <cmath>
#include <limits>

namespace grains::solver_detail {

/// The step along a direction that never leaves the cone.
constexpr double kUnboundedStep = std::numeric_limits<double>::infinity();
/// A contact within this relative distance of its cone's surface is on it.
constexpr double kBoundaryTolerance = 1e-10;

enum class Face : unsigned char { Interior, Sliding, Apex };

/// The face of contact values v (n or n, u, w) with friction coefficient mu
/// (block 1, or mu = 0: the tangential unknowns are fixed at 0).
inline Face faceOf(int block, double mu, const double* v) {
  if (!(v[0] > 0.0)) return Face::Apex;
  if (block == 1 || !(mu > 0.0)) return Face::Interior;
  return tangentMagnitude(v[1], v[2]) >= mu * v[0] * (1.0 - kBoundaryTolerance) ? Face::Sliding
                                                                                : Face::Interior;
}

/// Largest a >= 0 with (n, t) + a (dn, dt) in {|t| <= mu n}, from a point
/// strictly inside: the first root of mu^2 (n + a dn)^2 - |t + a dt|^2.
inline double interiorStep(double mu, const double* v, const double* d) {
  const double c = mu * mu * v[0] * v[0] - (v[1] * v[1] + v[2] * v[2]);
  const double a = mu * mu * d[0] * d[0] - (d[1] * d[1] + d[2] * d[2]);
  const double b = mu * mu * v[0] * d[0] - (v[1] * d[1] + v[2] * d[2]);
  if (!(c > 0.0)) return b > 0.0 && a < 0.0 ? -2.0 * b / a : (b > 0.0 ? kUnboundedStep : 0.0);
  if (a == 0.0) return b < 0.0 ? c / (-2.0 * b) : kUnboundedStep;
  const double disc = b * b - a * c;
  if (a > 0.0) {
    if (b >= 0.0 || disc < 0.0) return kUnboundedStep;  // never leaves the upper cone
    return c / (-b + std::sqrt(disc));
  }
  const double root = std::sqrt(disc);  // a < 0, c > 0: one positive root
  return b >= 0.0 ? (b + root) / -a : c / (root - b);
}

/// Largest a >= 0 keeping a free contact v + a d feasible.
inline double freeStep(int block, double mu, const double* v, const double* d) {
  if (block == 1 || !(mu > 0.0)) return d[0] < 0.0 ? v[0] / -d[0] : kUnboundedStep;
  return interiorStep(mu, v, d);
}

/// Places contact v (just moved) on its cone's surface: t scaled to mu n, or
/// the apex when n <= 0.
inline void onSurface(int block, double mu, double* v) {
  if (!(v[0] > 0.0)) {
    for (int k = 0; k < block; ++k) v[k] = 0.0;
    return;
  }
  if (block == 1 || !(mu > 0.0)) return;
  const double t = tangentMagnitude(v[1], v[2]);
  if (t > 0.0) {
    const double factor = mu * v[0] / t;
    v[1] *= factor;
    v[2] *= factor;
  }
}

}  // namespace grains::solver_detail
