// Contacts of solid circular cylinder bodies (radius R, half-length h along
// the body z axis) with spheres and walls: one deepest-point constraint per
// pair, with the conventions of contact_geometry.hpp.
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

Vec3 bodyAxis(const Body& cylinder) { return cylinder.orientation * Vec3::UnitZ(); }

}  // namespace

ContactGeometry cylinderSphere(const Body& cylinder, const Vec3& center, double radius) {
  const Vec3 axis = bodyAxis(cylinder);
  const Vec3 rel = center - cylinder.position;
  const double z = rel.dot(axis);
  const Vec3 radial = rel - z * axis;
  const double rho = radial.norm();
  const Vec3 e_r = rho > 1e-300 ? Vec3(radial / rho) : perpendicularTo(axis);
  const double R = cylinder.radius;
  const double h = cylinder.half_length;
  ContactGeometry g;
  if (rho > R || std::abs(z) > h) {
    // Outside: the closest point of the solid cylinder clamps the radial and
    // axial coordinates; the sphere centre is strictly away from it.
    const Vec3 q = cylinder.position + std::clamp(z, -h, h) * axis + std::min(rho, R) * e_r;
    const Vec3 d = center - q;
    const double dist = d.norm();
    g.normal = d / dist;
    g.gap = dist - radius;
    g.point_a = q;
  } else {
    // Centre inside: leave through the nearer of the side and the cap.
    const double side = R - rho;
    const double cap = h - std::abs(z);
    if (side < cap) {
      g.normal = e_r;
      g.gap = -side - radius;
      g.point_a = cylinder.position + z * axis + R * e_r;
    } else {
      const double s = z >= 0.0 ? 1.0 : -1.0;
      g.normal = s * axis;
      g.gap = -cap - radius;
      g.point_a = cylinder.position + s * h * axis + radial;
    }
  }
  g.point_b = center - radius * g.normal;
  return g;
}

ContactGeometry wallCylinder(const Wall& wall, const Body& cylinder) {
  const Vec3 axis = bodyAxis(cylinder);
  const double R = cylinder.radius;
  const double h = cylinder.half_length;
  ContactGeometry g;
  switch (wall.kind) {
    case WallKind::Plane: {
      // Deepest point: the support point in the direction -n. When the axis
      // is parallel to n a whole face is lowest; its centre carries no torque.
      const Vec3& n = wall.normal;
      const double an = axis.dot(n);
      const Vec3 n_perp = n - an * axis;
      const double perp = n_perp.norm();
      Vec3 s = cylinder.position - (an >= 0.0 ? h : -h) * axis;
      if (perp > 1e-9) s -= R * n_perp / perp;
      g.normal = n;
      g.gap = n.dot(s - wall.point);
      g.point_a = s - g.gap * n;
      g.point_b = s;
      return g;
    }
    case WallKind::CylinderInside: {
      // The point farthest from the container axis lies on one of the two
      // rims: sample each rim, then refine the best sample by golden section.
      const Vec3& e = wall.normal;
      const Vec3 u = perpendicularTo(axis);
      const Vec3 v = axis.cross(u);
      auto point = [&](double end, double theta) {
        return Vec3(cylinder.position + end * h * axis +
                    R * (std::cos(theta) * u + std::sin(theta) * v));
      };
      auto axis_distance = [&](const Vec3& p) {
        const Vec3 rel = p - wall.point;
        return (rel - rel.dot(e) * e).norm();
      };
      constexpr int kSamples = 64;
      const double step = 2.0 * kPi / kSamples;
      double best_end = 1.0, best_theta = 0.0, best = -1.0;
      for (double end : {-1.0, 1.0}) {
        for (int k = 0; k < kSamples; ++k) {
          const double d = axis_distance(point(end, k * step));
          if (d > best) {
            best = d;
            best_end = end;
            best_theta = k * step;
          }
        }
      }
      double lo = best_theta - step, hi = best_theta + step;
      const double ratio = 0.5 * (std::sqrt(5.0) - 1.0);
      for (int it = 0; it < 60; ++it) {
        const double m1 = hi - ratio * (hi - lo);
        const double m2 = lo + ratio * (hi - lo);
        if (axis_distance(point(best_end, m1)) < axis_distance(point(best_end, m2)))
          lo = m1;
        else
          hi = m2;
      }
      const Vec3 p = point(best_end, 0.5 * (lo + hi));
      const Vec3 rel = p - wall.point;
      const Vec3 on_axis = wall.point + rel.dot(e) * e;
      const Vec3 radial = p - on_axis;
      const double dist = radial.norm();
      const Vec3 outward = dist > 1e-300 ? Vec3(radial / dist) : perpendicularTo(e);
      g.normal = -outward;
      g.gap = wall.radius - dist;
      g.point_a = on_axis + wall.radius * outward;
      g.point_b = p;
      return g;
    }
    case WallKind::CylinderOutside:
    case WallKind::Disc:
    case WallKind::Cone:
    case WallKind::Mesh:
      break;
  }
  throw std::invalid_argument("cylinder body " + std::to_string(cylinder.gid) + " against wall '" +
                              wall.name +
                              "': only planes and the inside of cylinders are supported");
}

}  // namespace grains
