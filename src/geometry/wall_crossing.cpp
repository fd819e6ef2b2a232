#include "grains/geometry/wall_crossing.hpp"

#include "grains/geometry/triangle_mesh.hpp"

#include <cmath>
#include <vector>

namespace grains {

namespace {

bool crossesDisc(const Wall& wall, const Vec3& from, const Vec3& to) {
  const double s0 = wall.normal.dot(from - wall.point);
  const double s1 = wall.normal.dot(to - wall.point);
  if (!(s0 * s1 < 0.0)) return false;  // same side, or touching the plane only
  const Vec3 x = from + (s0 / (s0 - s1)) * (to - from);
  const Vec3 d = x - wall.point;
  const Vec3 in_sheet = d - wall.normal.dot(d) * wall.normal;
  const double radial = in_sheet.norm();
  if (wall.hasRectangularHole()) {
    const Vec3 second = wall.normal.cross(wall.hole_axis);
    if (std::abs(in_sheet.dot(wall.hole_axis)) < wall.hole_half_length &&
        std::abs(in_sheet.dot(second)) < wall.hole_half_width)
      return false;  // through the orifice
  }
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

/// Does the segment p0-p1 pass through triangle (a, b, c) (Moeller & Trumbore's
/// ray-triangle test restricted to the segment), from one side to the other?
bool segmentCrossesTriangle(const Vec3& p0, const Vec3& p1, const Vec3& a, const Vec3& b,
                            const Vec3& c) {
  const Vec3 normal = (b - a).cross(c - a);
  const double s0 = normal.dot(p0 - a);
  const double s1 = normal.dot(p1 - a);
  if (!(s0 * s1 < 0.0)) return false;
  const Vec3 x = p0 + (s0 / (s0 - s1)) * (p1 - p0);
  // Inside the triangle: x on the inner side of all three edges.
  const double u = normal.dot((b - a).cross(x - a));
  const double v = normal.dot((c - b).cross(x - b));
  const double w = normal.dot((a - c).cross(x - c));
  return (u >= 0.0 && v >= 0.0 && w >= 0.0) || (u <= 0.0 && v <= 0.0 && w <= 0.0);
}

bool crossesMesh(const Wall& wall, const Vec3& from, const Vec3& to) {
  if (!wall.mesh) return false;
  // In the mesh's own frame (world x = point + orientation * x_mesh).
  const Quat to_mesh = wall.orientation.conjugate();
  const Vec3 p0 = to_mesh * (from - wall.point);
  const Vec3 p1 = to_mesh * (to - wall.point);
  std::vector<int> near;
  wall.mesh->trianglesNear(0.5 * (p0 + p1), 0.5 * (p1 - p0).norm(), near);
  for (int t : near) {
    const auto k = static_cast<std::size_t>(t);
    if (segmentCrossesTriangle(p0, p1, wall.mesh->corner(k, 0), wall.mesh->corner(k, 1),
                               wall.mesh->corner(k, 2)))
      return true;
  }
  return false;
}

}  // namespace

bool pathCrossesThinWall(const Wall& wall, const Vec3& from, const Vec3& to) {
  switch (wall.kind) {
    case WallKind::Disc:
      return crossesDisc(wall, from, to);
    case WallKind::Cone:
      return crossesCone(wall, from, to);
    case WallKind::Mesh:
      return crossesMesh(wall, from, to);
    default:
      return false;
  }
}

}  // namespace grains
