#include "grains/geometry/contact_geometry.hpp"
#include "grains/geometry/triangle_mesh.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace grains {

Vec3 anyPerpendicular(const Vec3& axis) {
  const Vec3 trial = std::abs(axis.x()) < 0.9 ? Vec3::UnitX() : Vec3::UnitY();
  return (trial - trial.dot(axis) * axis).normalized();
}

ContactGeometry flipped(const ContactGeometry& g) {
  ContactGeometry out;
  out.gap = g.gap;
  out.normal = -g.normal;
  out.point_a = g.point_b;
  out.point_b = g.point_a;
  return out;
}

ContactGeometry sphereSphere(const Vec3& center_a, double radius_a, const Vec3& center_b,
                             double radius_b) {
  ContactGeometry g;
  const Vec3 d = center_b - center_a;
  const double dist = d.norm();
  // Coincident centres: any direction is a valid shared normal.
  g.normal = dist > 1e-300 ? Vec3(d / dist) : Vec3::UnitZ();
  g.gap = dist - radius_a - radius_b;
  g.point_a = center_a + radius_a * g.normal;
  g.point_b = center_b - radius_b * g.normal;
  return g;
}

namespace {

/// In the half-plane through the axis and the centre, the band is the
/// segment from (radius, 0) to (top_radius, height) in (distance from the
/// axis, height) coordinates: the nearest point of the segment is the
/// nearest point of the band.
ContactGeometry coneSphere(const Wall& wall, const Vec3& center, double radius) {
  const Vec3 rel = center - wall.point;
  const double z = wall.normal.dot(rel);
  const Vec3 in_plane = rel - z * wall.normal;
  const double rho = in_plane.norm();
  const Vec3 radial = rho > 1e-300 ? Vec3(in_plane / rho) : anyPerpendicular(wall.normal);
  const Eigen::Vector2d a(wall.radius, 0.0), b(wall.top_radius, wall.height), p(rho, z);
  const Eigen::Vector2d along = b - a;
  const double t = std::clamp((p - a).dot(along) / along.squaredNorm(), 0.0, 1.0);
  const Eigen::Vector2d q = a + t * along;
  Eigen::Vector2d off = p - q;
  const double dist = off.norm();
  // A centre on the band itself: the band's normal towards the axis.
  off = dist > 1e-300 ? Eigen::Vector2d(off / dist)
                      : Eigen::Vector2d(-along.y(), along.x()).normalized();
  ContactGeometry g;
  g.point_a = wall.point + q.x() * radial + q.y() * wall.normal;
  g.normal = off.x() * radial + off.y() * wall.normal;
  g.gap = dist - radius;
  g.point_b = center - radius * g.normal;
  return g;
}

/// A disc (or a plane: radius infinite) with a rectangular hole: the
/// nearest point of the sheet is the centre's foot in the plane, moved onto
/// the nearest side of the hole when the foot is in the hole, or onto the
/// outer rim when it is beyond it.
ContactGeometry slottedSheetSphere(const Wall& wall, const Vec3& center, double radius) {
  const Vec3 rel = center - wall.point;
  const double height = wall.normal.dot(rel);
  const Vec3 in_plane = rel - height * wall.normal;
  const Vec3 u = wall.hole_axis, v = wall.normal.cross(u);
  const double x = in_plane.dot(u), y = in_plane.dot(v);
  const double to_x = wall.hole_half_length - std::abs(x),
               to_y = wall.hole_half_width - std::abs(y);
  Vec3 nearest = in_plane;
  if (to_x > 0.0 && to_y > 0.0) {
    // In the hole: the foot on the nearest side.
    nearest = to_x <= to_y ? Vec3(std::copysign(wall.hole_half_length, x) * u + y * v)
                           : Vec3(x * u + std::copysign(wall.hole_half_width, y) * v);
  } else if (in_plane.norm() > wall.radius) {
    nearest = wall.radius * in_plane.normalized();
  }
  return sheetSphere(wall.point + nearest, nearest == in_plane, wall.normal, height, center,
                     radius);
}

}  // namespace

ContactGeometry sheetSphere(const Vec3& nearest, bool on_face, const Vec3& sheet_normal,
                            double height, const Vec3& center, double radius) {
  ContactGeometry g;
  g.point_a = nearest;
  const Vec3 off = center - nearest;
  const double dist = off.norm();
  if (on_face || !(dist > 1e-300)) {
    g.normal = height >= 0.0 ? sheet_normal : Vec3(-sheet_normal);
    g.gap = std::abs(height) - radius;
  } else {
    g.normal = off / dist;
    g.gap = dist - radius;
  }
  g.point_b = center - radius * g.normal;
  return g;
}

ContactGeometry wallSphere(const Wall& wall, const Vec3& center, double radius) {
  ContactGeometry g;
  switch (wall.kind) {
    case WallKind::Plane: {
      const double height = wall.normal.dot(center - wall.point);
      g.normal = wall.normal;
      g.gap = height - radius;
      g.point_a = center - height * wall.normal;
      g.point_b = center - radius * wall.normal;
      return g;
    }
    case WallKind::CylinderInside:
    case WallKind::CylinderOutside: {
      const Vec3 rel = center - wall.point;
      const Vec3 on_axis = wall.point + rel.dot(wall.normal) * wall.normal;
      const Vec3 radial = center - on_axis;
      const double dist = radial.norm();
      const Vec3 outward = dist > 1e-300 ? Vec3(radial / dist) : anyPerpendicular(wall.normal);
      const bool inside = wall.kind == WallKind::CylinderInside;
      g.normal = inside ? Vec3(-outward) : outward;
      g.gap = inside ? wall.radius - dist - radius : dist - wall.radius - radius;
      g.point_a = on_axis + wall.radius * outward;
      g.point_b = center - radius * g.normal;
      return g;
    }
    case WallKind::Disc: {
      if (wall.hasRectangularHole()) return slottedSheetSphere(wall, center, radius);
      // The nearest point of the ring: the foot of the centre in the plane,
      // moved radially into [inner_radius, radius]. Over the ring the normal
      // is the plane's, towards the sphere's side; off it (in the hole or
      // beyond the rim) it points from the edge to the centre.
      const Vec3 rel = center - wall.point;
      const double height = wall.normal.dot(rel);
      const Vec3 in_plane = rel - height * wall.normal;
      const double rho = in_plane.norm();
      const Vec3 radial = rho > 1e-300 ? Vec3(in_plane / rho) : anyPerpendicular(wall.normal);
      const double nearest = std::clamp(rho, wall.inner_radius, wall.radius);
      return sheetSphere(wall.point + nearest * radial, nearest == rho, wall.normal, height, center,
                         radius);
    }
    case WallKind::Cone:
      return coneSphere(wall, center, radius);
    case WallKind::Mesh:
      // The nearest triangle; contact detection asks the mesh for every
      // contact instead (meshSphereContacts).
      return meshSphereNearest(wall, center, radius);
  }
  throw std::logic_error("wallSphere: unknown wall kind");
}

}  // namespace grains
