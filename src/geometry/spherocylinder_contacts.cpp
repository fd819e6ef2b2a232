// Contacts of spherocylinders (capsules: all points within `radius` of a
// segment of length 2 half_length along the body z axis). A capsule's surface
// is the segment's offset surface, so the shared-normal signed separation of
// two capsules, or of a capsule and a sphere, is the distance between the
// closest points of the cores minus the radii, along the line joining them.
#include "grains/geometry/contact_geometry.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace grains {
namespace {

Vec3 perpendicularTo(const Vec3& axis) {
  const Vec3 trial = std::abs(axis.x()) < 0.9 ? Vec3::UnitX() : Vec3::UnitY();
  return (trial - trial.dot(axis) * axis).normalized();
}

struct Segment {
  Vec3 p0, p1;
};

Segment core(const Body& capsule) {
  const Vec3 half = capsule.half_length * (capsule.orientation * Vec3::UnitZ());
  return {capsule.position - half, capsule.position + half};
}

double clamp01(double x) { return std::clamp(x, 0.0, 1.0); }

}  // namespace

// Minimise |p0 + s d1 - q0 - t d2|^2 over the unit square: the interior
// stationary point when the segments are not parallel, clamped, with the
// other parameter re-solved after each clamp (the function is convex).
void closestSegmentPoints(const Vec3& p0, const Vec3& p1, const Vec3& q0, const Vec3& q1, double& s,
                          double& t) {
  const Vec3 d1 = p1 - p0;
  const Vec3 d2 = q1 - q0;
  const Vec3 r = p0 - q0;
  const double a = d1.squaredNorm();
  const double e = d2.squaredNorm();
  const double f = d2.dot(r);
  constexpr double kTiny = 1e-300;
  if (a <= kTiny && e <= kTiny) {
    s = t = 0.0;
    return;
  }
  if (a <= kTiny) {
    s = 0.0;
    t = clamp01(f / e);
    return;
  }
  const double c = d1.dot(r);
  if (e <= kTiny) {
    t = 0.0;
    s = clamp01(-c / a);
    return;
  }
  const double b = d1.dot(d2);
  const double denom = a * e - b * b;
  if (denom > 1e-12 * a * e) {
    s = clamp01((b * f - c * e) / denom);
    t = (b * s + f) / e;
    if (t < 0.0) {
      t = 0.0;
      s = clamp01(-c / a);
    } else if (t > 1.0) {
      t = 1.0;
      s = clamp01((b - c) / a);
    }
    return;
  }
  // Parallel: q0 and q1 sit at s = -c/a and (b - c)/a on p's line. Take the
  // middle of the overlap of [0, 1] with that interval (or the nearer end).
  const double lo = std::min(-c / a, (b - c) / a);
  const double hi = std::max(-c / a, (b - c) / a);
  const double from = std::max(0.0, lo);
  const double to = std::min(1.0, hi);
  s = from <= to ? 0.5 * (from + to) : (hi < 0.0 ? 0.0 : 1.0);
  t = clamp01((r + s * d1).dot(d2) / e);
}

ContactGeometry spherocylinderPair(const Body& a, const Body& b) {
  const Segment sa = core(a);
  const Segment sb = core(b);
  double s = 0.0, t = 0.0;
  closestSegmentPoints(sa.p0, sa.p1, sb.p0, sb.p1, s, t);
  const Vec3 pa = sa.p0 + s * (sa.p1 - sa.p0);
  const Vec3 pb = sb.p0 + t * (sb.p1 - sb.p0);
  const Vec3 d = pb - pa;
  const double dist = d.norm();
  ContactGeometry g;
  if (dist > 1e-12 * (a.radius + b.radius)) {
    g.normal = d / dist;
  } else {
    // Crossing cores: leave along the common perpendicular, towards b.
    const Vec3 axis_a = a.orientation * Vec3::UnitZ();
    Vec3 n = axis_a.cross(b.orientation * Vec3::UnitZ());
    n = n.norm() > 1e-12 ? Vec3(n.normalized()) : perpendicularTo(axis_a);
    g.normal = n.dot(b.position - a.position) < 0.0 ? Vec3(-n) : n;
  }
  g.gap = dist - a.radius - b.radius;
  g.point_a = pa + a.radius * g.normal;
  g.point_b = pb - b.radius * g.normal;
  return g;
}

ContactGeometry spherocylinderSphere(const Body& capsule, const Vec3& center, double radius) {
  const Segment seg = core(capsule);
  const Vec3 d1 = seg.p1 - seg.p0;
  const double len2 = d1.squaredNorm();
  const double s = len2 > 0.0 ? clamp01((center - seg.p0).dot(d1) / len2) : 0.0;
  const Vec3 p = seg.p0 + s * d1;
  const Vec3 d = center - p;
  const double dist = d.norm();
  ContactGeometry g;
  g.normal = dist > 1e-12 * (capsule.radius + radius)
                 ? Vec3(d / dist)
                 : perpendicularTo(capsule.orientation * Vec3::UnitZ());
  g.gap = dist - capsule.radius - radius;
  g.point_a = p + capsule.radius * g.normal;
  g.point_b = center - radius * g.normal;
  return g;
}

ContactGeometry wallSpherocylinder(const Wall& wall, const Body& capsule) {
  const Segment seg = core(capsule);
  const double r = capsule.radius;
  ContactGeometry g;
  switch (wall.kind) {
    case WallKind::Plane: {
      // The height is linear along the core: its lowest point is an end, or
      // the whole core when it lies parallel (then its middle: no torque).
      const Vec3& n = wall.normal;
      const double h0 = n.dot(seg.p0 - wall.point);
      const double h1 = n.dot(seg.p1 - wall.point);
      const Vec3 e = std::abs(h0 - h1) <= 1e-12 * (1.0 + std::abs(h0)) ? capsule.position
                     : h0 < h1                                         ? seg.p0
                                                                       : seg.p1;
      const double height = n.dot(e - wall.point);
      g.normal = n;
      g.gap = height - r;
      g.point_a = e - height * n;
      g.point_b = e - r * n;
      return g;
    }
    case WallKind::CylinderInside:
    case WallKind::CylinderOutside: {
      const Vec3& axis = wall.normal;
      auto perp = [&](const Vec3& p) {
        const Vec3 rel = p - wall.point;
        return Vec3(rel - rel.dot(axis) * axis);
      };
      const bool inside = wall.kind == WallKind::CylinderInside;
      Vec3 p;
      if (inside) {
        // The distance from the axis is convex along the core: farthest at an end.
        const double d0 = perp(seg.p0).norm();
        const double d1 = perp(seg.p1).norm();
        p = std::abs(d0 - d1) <= 1e-12 * (1.0 + d0) ? capsule.position : d0 > d1 ? seg.p0 : seg.p1;
      } else {
        // Nearest point of the core to the axis line.
        const Vec3 r0 = perp(seg.p0);
        const Vec3 dr = perp(seg.p1) - r0;
        const double dd = dr.squaredNorm();
        p = seg.p0 + (dd > 0.0 ? clamp01(-r0.dot(dr) / dd) : 0.5) * (seg.p1 - seg.p0);
      }
      const Vec3 radial = perp(p);
      const double dist = radial.norm();
      const Vec3 outward = dist > 1e-300 ? Vec3(radial / dist) : perpendicularTo(axis);
      const Vec3 on_axis = p - radial;
      g.normal = inside ? Vec3(-outward) : outward;
      g.gap = inside ? wall.radius - dist - r : dist - wall.radius - r;
      g.point_a = on_axis + wall.radius * outward;
      g.point_b = p - r * g.normal;
      return g;
    }
    case WallKind::Disc:
    case WallKind::Cone:
    case WallKind::Mesh:
      break;  // refused by wallBody
  }
  throw std::logic_error("wallSpherocylinder: unknown wall kind");
}

}  // namespace grains
