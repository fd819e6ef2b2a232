// Multisphere decompositions: counts, placement and radii of the sub-spheres
// of spheres, capsules, ellipsoids and tori, and the rejected inputs.
#include "grains/geometry/multisphere.hpp"

#include "grains/geometry/contact_geometry.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

namespace grains {
namespace {

TEST(Multisphere, SphereIsItself) {
  const Body s = makeSphere(1, 0.3, 1.0, Vec3(1, 2, 3));
  const auto subs = subSpheres(s, 7);
  ASSERT_EQ(subs.size(), 1u);
  EXPECT_EQ(subs[0].radius, 0.3);
  EXPECT_EQ(subs[0].offset, Vec3::Zero());
  EXPECT_EQ(subSphereCenter(s, subs[0]), Vec3(1, 2, 3));
}

TEST(Multisphere, CapsuleSpheresRunFromTipToTip) {
  const Body c = makeSpherocylinder(2, 0.2, 1.0, 1.0, Vec3(1, 0, 0), Vec3::UnitX());
  const auto subs = subSpheres(c, 5);
  ASSERT_EQ(subs.size(), 5u);
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(subs[i].radius, 0.2);
    EXPECT_NEAR((subs[i].offset - Vec3(0, 0, -1.0 + 0.5 * i)).norm(), 0.0, 1e-15);
  }
  // The end spheres are the caps: centred on the core's ends (world frame).
  EXPECT_NEAR((subSphereCenter(c, subs.front()) - Vec3(0, 0, 0)).norm(), 0.0, 1e-15);
  EXPECT_NEAR((subSphereCenter(c, subs.back()) - Vec3(2, 0, 0)).norm(), 0.0, 1e-15);
  const auto one = subSpheres(c, 1);
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].offset, Vec3::Zero());
  EXPECT_EQ(subSpheres(c, 2).size(), 2u);
}

TEST(Multisphere, SpheroidSpheresFollowTheInscribedRadius) {
  // Prolate spheroid a = 2, b = c = 0.5: inscribed radius on the axis
  // r(s) = b sqrt(1 - s^2 / (a^2 - b^2)), the outermost centre at
  // (a^2 - b^2) / a = 1.875 with radius b^2 / a = 0.125 touching the tip.
  const Body e = makeEllipsoid(3, Vec3(2.0, 0.5, 0.5), 1.0, Vec3::Zero());
  const auto subs = subSpheres(e, 5);
  ASSERT_EQ(subs.size(), 5u);
  const double expected_x[5] = {-1.875, -0.9375, 0.0, 0.9375, 1.875};
  const double expected_r[5] = {0.125, 0.4375, 0.5, 0.4375, 0.125};
  for (int i = 0; i < 5; ++i) {
    EXPECT_NEAR((subs[i].offset - Vec3(expected_x[i], 0, 0)).norm(), 0.0, 1e-14);
    EXPECT_NEAR(subs[i].radius, expected_r[i], 1e-12);
  }
  EXPECT_NEAR(subs.back().offset.x() + subs.back().radius, 2.0, 1e-12);
}

TEST(Multisphere, TriaxialEllipsoidSpheresAreInscribedAndSymmetric) {
  // Major axis along body z; rotated and moved in the world.
  const Quat q(Eigen::AngleAxisd(0.8, Vec3(1, -1, 2).normalized()));
  const Body e = makeEllipsoid(4, Vec3(0.5, 0.7, 2.0), 1.0, Vec3(1, -2, 0.5), q);
  for (const int count : {1, 3, 7, 13, 17}) {
    const auto subs = subSpheres(e, count);
    ASSERT_EQ(subs.size(), static_cast<std::size_t>(count));
    const int mid = count / 2;
    // Largest sphere centred, with the smallest semi-axis as radius.
    EXPECT_NEAR(subs[mid].offset.norm(), 0.0, 1e-15);
    EXPECT_NEAR(subs[mid].radius, 0.5, 1e-12);
    for (int i = 0; i < count; ++i) {
      const SubSphere& s = subs[i];
      const SubSphere& mirror = subs[count - 1 - i];
      EXPECT_NEAR(s.offset.x(), 0.0, 1e-15);
      EXPECT_NEAR(s.offset.y(), 0.0, 1e-15);
      EXPECT_NEAR(s.offset.z(), -mirror.offset.z(), 1e-14);
      EXPECT_NEAR(s.radius, mirror.radius, 1e-12);
      EXPECT_LE(s.radius, subs[mid].radius + 1e-15);
      // Inside and touching: the largest inscribed sphere at its centre, its
      // radius the depth of its centre below the surface.
      const auto g = ellipsoidSphere(e, subSphereCenter(e, s), 0.0);
      EXPECT_NEAR(g.gap, -s.radius, 1e-12);
      if (i > 0 && i <= mid) {
        EXPECT_GT(s.radius, subs[i - 1].radius);
      }
    }
    if (count > 1) {
      // Outermost at (a^2 - c^2) / a with the tip curvature radius c^2 / a.
      EXPECT_NEAR(subs.back().offset.z(), (4.0 - 0.25) / 2.0, 1e-14);
      EXPECT_NEAR(subs.back().radius, 0.25 / 2.0, 1e-12);
      // Evenly spaced.
      for (int i = 1; i < count; ++i) {
        EXPECT_NEAR(subs[i].offset.z() - subs[i - 1].offset.z(), 1.875 * 2.0 / (count - 1), 1e-14);
      }
    }
  }
}

TEST(Multisphere, TorusSpheresSitOnTheCentreCircle) {
  const Quat q(Eigen::AngleAxisd(0.5, Vec3::UnitX()));
  const Body t = makeTorus(5, 1.0, 0.1, 1.0, Vec3(0, 0, 3), q);
  const auto subs = subSpheres(t, 32);
  ASSERT_EQ(subs.size(), 32u);
  const Vec3 axis = q * Vec3::UnitZ();
  for (int i = 0; i < 32; ++i) {
    EXPECT_EQ(subs[i].radius, 0.1);
    EXPECT_NEAR(subs[i].offset.norm(), 1.0, 1e-15);
    EXPECT_NEAR(subs[i].offset.z(), 0.0, 1e-15);
    EXPECT_NEAR(std::atan2(subs[i].offset.y(), subs[i].offset.x()),
                std::remainder(2.0 * kPi * i / 32.0, 2.0 * kPi), 1e-14);
    const Vec3 rel = subSphereCenter(t, subs[i]) - t.position;
    EXPECT_NEAR(rel.dot(axis), 0.0, 1e-15);
    EXPECT_NEAR(rel.norm(), 1.0, 1e-15);
  }
}

TEST(Multisphere, RejectsBadInput) {
  const Body e = makeEllipsoid(6, Vec3(2.0, 1.0, 1.0), 1.0, Vec3::Zero());
  EXPECT_THROW(subSpheres(e, 4), std::invalid_argument);
  EXPECT_THROW(subSpheres(e, 0), std::invalid_argument);
  EXPECT_THROW(subSpheres(makeSphere(1, 0.5, 1.0, Vec3::Zero()), 0), std::invalid_argument);
  EXPECT_THROW(subSpheres(makeCylinder(7, 0.5, 1.0, 1.0, Vec3::Zero()), 3), std::invalid_argument);
}

}  // namespace
}  // namespace grains
