#pragma once
// LCP-MS constraint generation (Palmer et al. (2025) sections 2.5 and 4.2): every body is
// a union of sub-spheres (grains/geometry/multisphere.hpp) and each pair of
// sub-spheres of neighbouring bodies within the envelope is one sphere-sphere
// constraint acting on the parent bodies. Walls constrain every sub-sphere.
#include "grains/constraint/contact_detection.hpp"
#include "grains/geometry/multisphere.hpp"

namespace grains {

/// Key sub-index of the sub-sphere pair (i of body a, j of body b).
inline std::int64_t subSpherePairIndex(int i, int j) {
  return static_cast<std::int64_t>(i) * 65536 + j;
}

/// How LCP-MS decomposes the bodies and which sub-sphere pairs it constrains.
struct MultisphereSettings {
  int count = 7;  ///< sub-spheres per non-spherical body (spheres are their own one)
  /// Besides the pairs within the envelope, constrain the sub-sphere pairs
  /// whose gap is below buffer x (r_i + r_j), and sub-spheres closer to a wall
  /// than buffer x 2 r_i: the collision buffer relative to the radii of
  /// SimToolBox (colBuf), the code in which Palmer et al. (2025) ran LCP-MS.
  double buffer = 0.0;
};

/// Constraints between sub-spheres, sorted by key for parallel.body_order:
/// gid, in body order for spatial.
std::vector<Contact> detectMultisphereContacts(const BodyDomain& domain,
                                               const std::vector<Wall>& walls,
                                               const DetectionSettings& settings,
                                               const MultisphereSettings& multisphere,
                                               DetectionTimes* times = nullptr);

/// Gap of a multisphere constraint `c` with the bodies where they stand now,
/// given their sub-spheres (a and spheres_a are null for a wall contact).
double multisphereGap(const Contact& c, const Body* a, const std::vector<SubSphere>* spheres_a,
                      const Body& b, const std::vector<SubSphere>& spheres_b,
                      const std::vector<Wall>& walls);

}  // namespace grains
