#pragma once
// Narrow-phase results for one pair. Sign convention (the one place it is
// written, see docs/model.md): the normal points from side a to side b, the
// gap is negative when the shapes overlap, and point_a / point_b are the
// contact points on each surface (world frame).
#include "grains/core/body.hpp"
#include "grains/core/wall.hpp"

namespace grains {

struct ContactGeometry {
  double gap = 0.0;
  Vec3 normal = Vec3::UnitZ();
  Vec3 point_a = Vec3::Zero();
  Vec3 point_b = Vec3::Zero();
};

/// Sphere a against sphere b (normal from a's centre to b's centre).
ContactGeometry sphereSphere(const Vec3& center_a, double radius_a, const Vec3& center_b,
                             double radius_b);

/// Wall (side a, static) against a sphere (side b): the normal points from the
/// wall into the free space the sphere lives in.
ContactGeometry wallSphere(const Wall& wall, const Vec3& center, double radius);

/// Solid cylinder body (side a) against a sphere (side b).
ContactGeometry cylinderSphere(const Body& cylinder, const Vec3& center, double radius);

/// Wall (side a) against a cylinder body (side b): planes and the inside of
/// cylinders; throws std::invalid_argument for the outside of a cylinder.
ContactGeometry wallCylinder(const Wall& wall, const Body& cylinder);

/// Dispatch on the shapes (sphere-sphere, sphere-cylinder; two cylinders
/// throw std::invalid_argument).
ContactGeometry bodyBody(const Body& a, const Body& b);
ContactGeometry wallBody(const Wall& wall, const Body& b);

/// Largest distance from a body's centre to its surface (for neighbour search).
double boundingRadius(const Body& b);

}  // namespace grains
