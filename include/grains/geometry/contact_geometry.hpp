#pragma once
// Narrow-phase results for one pair. Sign convention (the one place it is
// written, see docs/model.md): the normal points from side a to side b, the
// gap is negative when the shapes overlap, and point_a / point_b are the
// contact points on each surface (world frame).
#include "grains/core/body.hpp"
#include "grains/core/wall.hpp"
#include "grains/geometry/shape_traits.hpp"

namespace grains {

struct ContactGeometry {
  double gap = 0.0;
  Vec3 normal = Vec3::UnitZ();
  Vec3 point_a = Vec3::Zero();
  Vec3 point_b = Vec3::Zero();
};

/// The same contact seen from the other side (a and b swapped).
ContactGeometry flipped(const ContactGeometry& g);

/// A deterministic unit vector perpendicular to `axis` (degenerate cases).
Vec3 anyPerpendicular(const Vec3& axis);

/// Sphere a against sphere b (normal from a's centre to b's centre).
ContactGeometry sphereSphere(const Vec3& center_a, double radius_a, const Vec3& center_b,
                             double radius_b);

/// Wall (side a, static) against a sphere (side b): the normal points from the
/// wall into the free space the sphere lives in.
ContactGeometry wallSphere(const Wall& wall, const Vec3& center, double radius);

/// A thin two-sided sheet (disc, slotted floor, mesh triangle) against a
/// sphere, given the sheet's point nearest to the centre, whether that point
/// is the centre's foot on the sheet's face, and the centre's height above
/// the sheet: over the face the normal is the sheet's, towards the centre's
/// side (exact, where off / |off| would carry rounding); at an edge it points
/// from the edge point to the centre.
ContactGeometry sheetSphere(const Vec3& nearest, bool on_face, const Vec3& sheet_normal,
                            double height, const Vec3& center, double radius);

/// Solid cylinder body (side a) against a sphere (side b).
ContactGeometry cylinderSphere(const Body& cylinder, const Vec3& center, double radius);

/// Wall (side a) against a cylinder body (side b): planes and the inside of
/// cylinders; throws std::invalid_argument for the outside of a cylinder.
ContactGeometry wallCylinder(const Wall& wall, const Body& cylinder);

/// Closest points of segments [p0, p1] and [q0, q1]: parameters s, t in [0, 1]
/// of the points p0 + s (p1 - p0) and q0 + t (q1 - q0). Parallel and
/// degenerate segments get a valid (not unique) pair: the middle of the
/// overlap of their projections.
void closestSegmentPoints(const Vec3& p0, const Vec3& p1, const Vec3& q0, const Vec3& q1, double& s,
                          double& t);

/// Spherocylinder a against spherocylinder b, and against a sphere (b):
/// the signed distance of the two segments minus the radii, normal from a to b.
ContactGeometry spherocylinderPair(const Body& a, const Body& b);
ContactGeometry spherocylinderSphere(const Body& capsule, const Vec3& center, double radius);
/// Wall (side a) against a spherocylinder: planes and both sides of cylinders.
ContactGeometry wallSpherocylinder(const Wall& wall, const Body& capsule);

// Smooth non-spherical shapes. Every function returns the minimum
// shared-normal signed separation ("deepest point", Palmer et al. (2025) section 2.5):
// points on both surfaces whose outward normals are opposite, the normal
// from a to b, gap = (point_b - point_a) . normal (negative when overlapping,
// then the minimum translation that separates the pair); for a non-convex
// torus the global minimum over the local minima.
/// Ellipsoids (src/geometry/ellipsoid_contacts.cpp).
ContactGeometry ellipsoidPair(const Body& a, const Body& b);
ContactGeometry ellipsoidSphere(const Body& ellipsoid, const Vec3& center, double radius);
ContactGeometry ellipsoidSpherocylinder(const Body& ellipsoid, const Body& capsule);
/// Wall (side a) against an ellipsoid: planes, inside and outside of cylinders.
ContactGeometry wallEllipsoid(const Wall& wall, const Body& ellipsoid);
/// Tori (src/geometry/torus_contacts.cpp).
ContactGeometry torusPair(const Body& a, const Body& b);
ContactGeometry torusSphere(const Body& torus, const Vec3& center, double radius);
ContactGeometry torusSpherocylinder(const Body& torus, const Body& capsule);
ContactGeometry torusEllipsoid(const Body& torus, const Body& ellipsoid);
/// Wall (side a) against a torus: planes, inside and outside of cylinders.
ContactGeometry wallTorus(const Wall& wall, const Body& torus);

/// Dispatch on the shapes through the pair-dispatch table
/// (src/geometry/pair_dispatch.cpp): every pair of sphere, spherocylinder,
/// ellipsoid and torus, and cylinder against a sphere; other pairs throw
/// std::invalid_argument. Every shape meets walls.
ContactGeometry bodyBody(const Body& a, const Body& b);
ContactGeometry wallBody(const Wall& wall, const Body& b);
/// Whether bodyBody handles shapes a and b (in either order).
bool supportsPair(ShapeKind a, ShapeKind b);

}  // namespace grains
