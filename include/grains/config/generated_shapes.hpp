#pragma once
// The bodies a BodiesSection generates (bodies.shape and its sizes), through
// the shape traits table: shared by the config validation (lattice spacing)
// and the scenario generators.
#include "grains/config/simulation_config.hpp"
#include "grains/geometry/shape_traits.hpp"

namespace grains {

/// Size of a generated body whose (sphere, capsule or tube) radius is `radius`.
inline ShapeSize generatedShapeSize(const BodiesSection& b, double radius) {
  ShapeSize size;
  size.radius = radius;
  size.half_length = b.half_length;
  size.semi_axes = b.semi_axes;
  size.major_radius = b.major_radius;
  return size;
}

/// Largest distance from the centre to the surface of a generated body.
inline double shapeBoundingRadius(const BodiesSection& b, double radius) {
  return shapeTraits(b.shape).bounding_radius(generatedShapeSize(b, radius));
}

/// Solid volume of a generated body.
inline double shapeVolume(const BodiesSection& b, double radius) {
  return shapeTraits(b.shape).volume(generatedShapeSize(b, radius));
}

/// A generated body (the body z axis is the capsule's axis, the ellipsoid's
/// c axis and the ring's axis).
inline Body makeShapeBody(const BodiesSection& b, GlobalId gid, double radius, double mass,
                          const Vec3& position, const Quat& orientation) {
  Body body = makeBody(b.shape, generatedShapeSize(b, radius), gid, mass, position);
  body.orientation = orientation.normalized();
  return body;
}

}  // namespace grains
