#pragma once
// Multisphere decompositions: each body as a rigid cluster of spheres, for
// the multisphere constraint method (LCP-MS, Palmer et al. (2025) section 4.2), where
// constraints are placed between nearby sub-spheres of opposing bodies.
#include "grains/core/body.hpp"

#include <vector>

namespace grains {

/// One sphere of a body's decomposition, fixed in the body frame.
struct SubSphere {
  Vec3 offset = Vec3::Zero();  ///< centre in the body frame [m]
  double radius = 0.0;         ///< [m]
};

/// The sub-spheres representing body `b` with `count` spheres (count >= 1),
/// by the decomposition of its shape (ShapeTraits::sub_spheres, below).
/// Throws std::invalid_argument for count < 1, an even count for an
/// ellipsoid, and for shapes without a decomposition (cylinders).
std::vector<SubSphere> subSpheres(const Body& b, int count);

/// The decompositions of the shape traits table:
/// sphere: the sphere itself (count ignored).
std::vector<SubSphere> sphereSubSpheres(const Body& b, int count);
/// Spherocylinder: `count` spheres of the capsule radius evenly along the
/// core segment, both ends included (count 1: the centre).
std::vector<SubSphere> spherocylinderSubSpheres(const Body& b, int count);
/// Ellipsoid: `count` (odd) spheres centred on the major axis, the largest
/// at the centre, each the largest sphere inscribed at its centre (after
/// Markauskas et al. 2010, see multisphere.cpp).
std::vector<SubSphere> ellipsoidSubSpheres(const Body& b, int count);
/// Torus: `count` spheres of the tube radius evenly on the centre circle.
std::vector<SubSphere> torusSubSpheres(const Body& b, int count);

/// World-frame centre of a sub-sphere of `b`: position + orientation * offset.
Vec3 subSphereCenter(const Body& b, const SubSphere& s);

}  // namespace grains
