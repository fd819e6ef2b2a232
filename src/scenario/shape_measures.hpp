#pragma once
// Internal to src/scenario and src/config: size, volume and construction of
// the generated bodies of a BodiesSection (bodies.shape), shared by the config
// validation (lattice spacing) and the generators.
#include "grains/config/simulation_config.hpp"
#include "grains/core/body.hpp"

#include <algorithm>
#include <string>

namespace grains::scenario_detail {

inline ShapeKind generatedShapeKind(const BodiesSection& b) {
  if (b.shape == "spherocylinder") return ShapeKind::Spherocylinder;
  if (b.shape == "ellipsoid") return ShapeKind::Ellipsoid;
  if (b.shape == "torus") return ShapeKind::Torus;
  return ShapeKind::Sphere;
}

/// Largest distance from the centre to the surface of a generated body whose
/// (sphere, capsule or tube) radius is `radius`: sphere r, capsule h + r,
/// ellipsoid the largest semi-axis, torus R + r.
inline double shapeBoundingRadius(const BodiesSection& b, double radius) {
  switch (generatedShapeKind(b)) {
    case ShapeKind::Spherocylinder:
      return b.half_length + radius;
    case ShapeKind::Ellipsoid:
      return b.semi_axes.maxCoeff();
    case ShapeKind::Torus:
      return b.major_radius + radius;
    default:
      return radius;
  }
}

/// Solid volume: sphere 4/3 pi r^3, capsule pi r^2 2h + 4/3 pi r^3,
/// ellipsoid 4/3 pi a b c, torus 2 pi^2 R r^2.
inline double shapeVolume(const BodiesSection& b, double radius) {
  const double ball = 4.0 / 3.0 * kPi * radius * radius * radius;
  switch (generatedShapeKind(b)) {
    case ShapeKind::Spherocylinder:
      return kPi * radius * radius * 2.0 * b.half_length + ball;
    case ShapeKind::Ellipsoid:
      return 4.0 / 3.0 * kPi * b.semi_axes.prod();
    case ShapeKind::Torus:
      return 2.0 * kPi * kPi * b.major_radius * radius * radius;
    default:
      return ball;
  }
}

/// A generated body through the factories of body.hpp (the body z axis is
/// the capsule's axis, the ellipsoid's c axis and the ring's axis).
inline Body makeShapeBody(const BodiesSection& b, GlobalId gid, double radius, double mass,
                          const Vec3& position, const Quat& orientation) {
  Body body;
  switch (generatedShapeKind(b)) {
    case ShapeKind::Spherocylinder:
      body = makeSpherocylinder(gid, radius, b.half_length, mass, position);
      break;
    case ShapeKind::Ellipsoid:
      body = makeEllipsoid(gid, b.semi_axes, mass, position);
      break;
    case ShapeKind::Torus:
      body = makeTorus(gid, b.major_radius, radius, mass, position);
      break;
    default:
      body = makeSphere(gid, radius, mass, position);
      break;
  }
  body.orientation = orientation.normalized();
  return body;
}

}  // namespace grains::scenario_detail
