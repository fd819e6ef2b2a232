#include "grains/geometry/multisphere.hpp"

#include "grains/geometry/contact_geometry.hpp"
#include "grains/geometry/shape_traits.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace grains {

// Ellipsoid: spheres centred on the major axis (the body axis of the longest
// semi-axis a), each the largest sphere inscribed in the ellipsoid at its
// centre (radius = distance from the centre to the surface). Placement as in
// Markauskas et al. 2010 (Granular Matter 12:107-123) as far as we could
// reconstruct it without the paper at hand: the outermost centres sit at
// +-(a^2 - c^2) / a with c the smallest semi-axis, where the inscribed sphere
// touches the tip and its radius c^2 / a equals the tip's smallest radius of
// curvature (for a prolate spheroid, b^2 / a); the other centres are evenly
// spaced between, so the largest sphere (radius c) sits at the centre.
std::vector<SubSphere> ellipsoidSubSpheres(const Body& b, int count) {
  if (count % 2 == 0) {
    throw std::invalid_argument("multisphere decomposition of ellipsoid body " +
                                std::to_string(b.gid) + ": the sub-sphere count must be odd (got " +
                                std::to_string(count) + ") so that the largest sphere is centred");
  }
  const Vec3& e = b.semi_axes;
  int major = 0;
  e.maxCoeff(&major);
  const double a = e[major];
  const double c = e.minCoeff();
  const double outer = (a * a - c * c) / a;
  // The same ellipsoid at the origin, unrotated: distances in the body frame.
  Body local = b;
  local.position = Vec3::Zero();
  local.orientation = Quat::Identity();
  std::vector<SubSphere> out;
  out.reserve(static_cast<std::size_t>(count));
  const int half = count / 2;
  for (int i = -half; i <= half; ++i) {
    SubSphere s;
    s.offset[major] = half == 0 ? 0.0 : outer * static_cast<double>(i) / half;
    s.radius = -ellipsoidSphere(local, s.offset, 0.0).gap;
    out.push_back(s);
  }
  return out;
}

std::vector<SubSphere> sphereSubSpheres(const Body& b, int /*count*/) {
  return {SubSphere{Vec3::Zero(), b.radius}};
}

std::vector<SubSphere> spherocylinderSubSpheres(const Body& b, int count) {
  std::vector<SubSphere> out(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) {
    const double z = count == 1 ? 0.0 : b.half_length * (2.0 * i / (count - 1) - 1.0);
    out[static_cast<std::size_t>(i)] = SubSphere{Vec3(0.0, 0.0, z), b.radius};
  }
  return out;
}

std::vector<SubSphere> torusSubSpheres(const Body& b, int count) {
  std::vector<SubSphere> out(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) {
    const double phi = 2.0 * kPi * i / count;
    out[static_cast<std::size_t>(i)] = SubSphere{
        Vec3(b.major_radius * std::cos(phi), b.major_radius * std::sin(phi), 0.0), b.radius};
  }
  return out;
}

std::vector<SubSphere> subSpheres(const Body& b, int count) {
  if (count < 1) {
    throw std::invalid_argument("multisphere decomposition of body " + std::to_string(b.gid) +
                                ": the sub-sphere count must be at least 1 (got " +
                                std::to_string(count) + ")");
  }
  const auto decompose = shapeTraits(b.shape).sub_spheres;
  if (decompose == nullptr) {
    throw std::invalid_argument("multisphere decomposition of body " + std::to_string(b.gid) +
                                ": " + shapeName(b.shape) +
                                " bodies have no sub-sphere decomposition");
  }
  return decompose(b, count);
}

Vec3 subSphereCenter(const Body& b, const SubSphere& s) {
  return b.position + b.orientation * s.offset;
}

}  // namespace grains
