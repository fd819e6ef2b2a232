#include "grains/geometry/sphere_box_volume.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

namespace grains {
namespace {

/// Integral of the half chord s(x) = sqrt(rho^2 - x^2) over [lo, hi] within [-rho, rho].
/// rho^2 - x^2 is taken as (rho - x)(rho + x): exactly 0 at x = rho, where a
/// fused rho*rho - x*x would leave x*x's rounding error (1e-8 relative under sqrt).
double halfChordIntegral(double rho, double lo, double hi) {
  lo = std::max(lo, -rho);
  hi = std::min(hi, rho);
  if (!(hi > lo)) return 0.0;
  const auto antiderivative = [rho](double x) {
    const double ratio = std::clamp(x / rho, -1.0, 1.0);
    return 0.5 *
           (x * std::sqrt(std::max((rho - x) * (rho + x), 0.0)) + rho * rho * std::asin(ratio));
  };
  return antiderivative(hi) - antiderivative(lo);
}

/// Area of the disc inside the quadrant {x < a, y < b}: the integral over x
/// < a of the length of {y < b} within the chord (-s(x), s(x)).
double discQuadrantArea(double rho, double a, double b) {
  if (b <= -rho || a <= -rho) return 0.0;
  if (b >= rho) return 2.0 * halfChordIntegral(rho, -rho, a);
  // Where |x| < w the chord reaches beyond |b|: the length is b + s(x).
  const double w = std::sqrt((rho - b) * (rho + b));
  double area = 0.0;
  const double hi = std::min(a, w);
  if (hi > -w) area += b * (hi + w) + halfChordIntegral(rho, -w, hi);
  // Where |x| >= w the chord lies below b (b > 0, whole chord) or above it (b < 0, none).
  if (b > 0.0)
    area += 2.0 * (halfChordIntegral(rho, -rho, std::min(a, -w)) + halfChordIntegral(rho, w, a));
  return area;
}

/// Gauss-Legendre nodes and weights on [0, 1] (Newton on P_n).
struct GaussRule {
  std::vector<double> nodes, weights;
  explicit GaussRule(int n) {
    for (int i = 1; i <= n; ++i) {
      double x = std::cos(kPi * (i - 0.25) / (n + 0.5));
      double derivative = 0.0;
      for (int iteration = 0; iteration < 100; ++iteration) {
        double p0 = 1.0, p1 = x;
        for (int k = 2; k <= n; ++k) {
          const double p2 = ((2.0 * k - 1.0) * x * p1 - (k - 1.0) * p0) / k;
          p0 = p1;
          p1 = p2;
        }
        derivative = n * (x * p1 - p0) / (x * x - 1.0);
        const double step = p1 / derivative;
        x -= step;
        if (std::abs(step) < 1e-16) break;
      }
      nodes.push_back(0.5 * (1.0 - x));
      weights.push_back(1.0 / ((1.0 - x * x) * derivative * derivative));
    }
  }
};

const GaussRule& gaussRule() {
  static const GaussRule rule(24);
  return rule;
}

}  // namespace

double discRectangleArea(double rho, double x0, double x1, double y0, double y1) {
  if (!(rho > 0.0) || !(x1 > x0) || !(y1 > y0)) return 0.0;
  const double area = discQuadrantArea(rho, x1, y1) - discQuadrantArea(rho, x0, y1) -
                      discQuadrantArea(rho, x1, y0) + discQuadrantArea(rho, x0, y0);
  return std::max(area, 0.0);
}

double sphereBoxVolume(const Vec3& center, double radius, const Vec3& lower, const Vec3& upper) {
  const Vec3 lo = lower - center, hi = upper - center;
  const double r = radius;
  if ((lo.array() >= r).any() || (hi.array() <= -r).any()) return 0.0;
  if ((lo.array() <= -r).all() && (hi.array() >= r).all()) return 4.0 / 3.0 * kPi * r * r * r;
  const double z0 = std::max(lo.z(), -r), z1 = std::min(hi.z(), r);
  // The slice area is smooth in z except where the slice circle (radius
  // sqrt(r^2 - z^2)) passes a face or a corner of the rectangle: split there.
  std::vector<double> cuts = {z0, z1};
  const auto add = [&](double distance_squared) {
    if (distance_squared >= r * r) return;
    const double z = std::sqrt(r * r - distance_squared);
    for (double c : {-z, z})
      if (c > z0 && c < z1) cuts.push_back(c);
  };
  for (double x : {lo.x(), hi.x()}) {
    add(x * x);
    for (double y : {lo.y(), hi.y()}) add(x * x + y * y);
  }
  for (double y : {lo.y(), hi.y()}) add(y * y);
  if (z0 < 0.0 && z1 > 0.0) cuts.push_back(0.0);
  std::sort(cuts.begin(), cuts.end());
  const GaussRule& rule = gaussRule();
  double volume = 0.0;
  for (std::size_t k = 0; k + 1 < cuts.size(); ++k) {
    const double a = cuts[k], b = cuts[k + 1];
    if (!(b > a)) continue;
    // z = a + (b - a) u(t), u(t) = t^3 (10 - 15 t + 6 t^2): flat at both ends,
    // so the (z - z_cut)^(3/2) kinks at the cuts cost no accuracy.
    for (std::size_t q = 0; q < rule.nodes.size(); ++q) {
      const double t = rule.nodes[q];
      const double u = t * t * t * (10.0 - 15.0 * t + 6.0 * t * t);
      const double du = 30.0 * t * t * (1.0 - t) * (1.0 - t);
      const double z = a + (b - a) * u;
      const double rho = std::sqrt(std::max((r - z) * (r + z), 0.0));
      volume +=
          rule.weights[q] * (b - a) * du * discRectangleArea(rho, lo.x(), hi.x(), lo.y(), hi.y());
    }
  }
  return volume;
}

}  // namespace grains
