#pragma once
// Geometry of a torus's centre circle. A torus (ring) is the set of points
// within its tube radius of this circle, so every torus contact reduces to a
// distance from the circle (src/geometry/torus_contacts.cpp). Exposed for the
// constraint generator, which wants every local contact of a ring pair.
#include "grains/core/body.hpp"
#include "grains/geometry/contact_geometry.hpp"

#include <vector>

namespace grains {

/// The circle center + radius (cos t u + sin t v) with axis = u x v.
struct CentreCircle {
  Vec3 center = Vec3::Zero();
  Vec3 u = Vec3::UnitX();
  Vec3 v = Vec3::UnitY();
  Vec3 axis = Vec3::UnitZ();
  double radius = 0.0;

  Vec3 at(double angle) const;
  /// d at(angle) / d angle (length radius, along the circle's tangent).
  Vec3 derivative(double angle) const;
};

/// A torus body's centre circle (u, v, axis = the body x, y, z axes). Throws
/// std::invalid_argument when the body is not a torus or has negative radii.
CentreCircle centreCircle(const Body& torus);

/// The point of the circle closest to p. On the axis every circle point is
/// equally near: then the point at angle 0 (u), so the answer is deterministic.
Vec3 closestPointOnCircle(const CentreCircle& circle, const Vec3& p);

/// Every distinct local minimum of the shared-normal signed separation of two
/// tori (local minima of the distance between their centre circles, minus the
/// tube radii), sorted by gap: the first is torusPair(a, b). Configurations
/// where the distance is the same all along the circle (coaxial rings,
/// Villarceau-like links) give a single contact.
std::vector<ContactGeometry> torusPairLocalMinima(const Body& a, const Body& b);

}  // namespace grains
