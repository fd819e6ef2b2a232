#include "grains/geometry/wall_crossing.hpp"

#include <cmath>

namespace grains {

namespace {

bool crossesDisc(const Wall& wall, const Vec3& from, const Vec3& to) {
  const double s0 = wall.normal.dot(from - wall.point);
  const double s1 = wall.normal.dot(to - wall.point);
  if (!(s0 * s1 < 0.0)) return false;  // same side, or touching the plane only
  const Vec3 x = from + (s0 / (s0 - s1)) * (to - from);
  const Vec3 d = x - wall.point;
  const double radial = (d - wall.normal.dot(d) * wall.normal).norm();
  return radial >= wall.inner_radius && radial <= wall.radius;
}

/// Signed radial distance of x from the cone's generator line at x's axial
/// position h (positive outside), and h itself.
double coneSide(const Wall& wall, const Vec3& x, double& h) {
  const Vec3 d = x - wall.point;
  h = wall.normal.dot(d);
  const double radial = (d - h * wall.normal).norm();
  return radial - (wall.radius + (wall.top_radius - wall.radius) * h / wall.height);
}

bool crossesCone(const Wall& wall, const Vec3& from, const Vec3& to) {
  double h0 = 0.0, h1 = 0.0;
  double f0 = coneSide(wall, from, h0);
  const double f1 = coneSide(wall, to, h1);
  if (!(f0 * f1 < 0.0)) return false;
  // The radial distance is not linear along the path: bisect for the crossing.
  double lo = 0.0, hi = 1.0;
  for (int k = 0; k < 50; ++k) {
    const double mid = 0.5 * (lo + hi);
    double h = 0.0;
    const double f = coneSide(wall, from + mid * (to - from), h);
    if ((f < 0.0) == (f0 < 0.0)) {
      lo = mid;
      f0 = f;
    } else {
      hi = mid;
    }
  }
  double h = 0.0;
  coneSide(wall, from + 0.5 * (lo + hi) * (to - from), h);
  return h >= 0.0 && h <= wall.height;
}

}  // namespace

bool pathCrossesThinWall(const Wall& wall, const Vec3& from, const Vec3& to) {
  switch (wall.kind) {
    case WallKind::Disc:
      return crossesDisc(wall, from, to);
    case WallKind::Cone:
      return crossesCone(wall, from, to);
    default:
      return false;
  }
}

}  // namespace grains
