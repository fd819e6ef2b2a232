#include "grains/geometry/contact_geometry.hpp"

#include <gtest/gtest.h>

namespace grains {
namespace {

TEST(SphereContacts, SphereSphereGapNormalAndPoints) {
  const auto g = sphereSphere(Vec3(0, 0, 0), 0.5, Vec3(3, 4, 0), 1.0);
  EXPECT_NEAR(g.gap, 5.0 - 1.5, 1e-14);
  EXPECT_NEAR((g.normal - Vec3(0.6, 0.8, 0)).norm(), 0.0, 1e-14);
  EXPECT_NEAR((g.point_a - Vec3(0.3, 0.4, 0)).norm(), 0.0, 1e-14);
  EXPECT_NEAR((g.point_b - Vec3(3 - 0.6, 4 - 0.8, 0)).norm(), 0.0, 1e-14);
}

TEST(SphereContacts, OverlapIsNegativeGap) {
  const auto g = sphereSphere(Vec3(0, 0, 0), 0.1, Vec3(0, 0, 0.19), 0.1);
  EXPECT_NEAR(g.gap, -0.01, 1e-14);
  EXPECT_NEAR(g.normal.z(), 1.0, 1e-14);
  // The contact points are the deepest points: b's lies below a's.
  EXPECT_NEAR((g.point_b - g.point_a).dot(g.normal), g.gap, 1e-14);
}

TEST(SphereContacts, PlaneNormalPointsIntoFreeSpace) {
  const Wall floor = Wall::plane(Vec3(0, 0, 1), Vec3(0, 0, 2));  // normalised inside
  const auto g = wallSphere(floor, Vec3(5, -2, 1.3), 0.2);
  EXPECT_NEAR(g.gap, 0.1, 1e-14);
  EXPECT_NEAR((g.normal - Vec3::UnitZ()).norm(), 0.0, 1e-14);
  EXPECT_NEAR((g.point_a - Vec3(5, -2, 1)).norm(), 0.0, 1e-14);
  EXPECT_NEAR((g.point_b - Vec3(5, -2, 1.1)).norm(), 0.0, 1e-14);
}

TEST(SphereContacts, InsideCylinderGapAndNormal) {
  const Wall cyl = Wall::cylinder(Vec3(1, 1, 0), Vec3::UnitZ(), 2.0, true);
  const auto g = wallSphere(cyl, Vec3(1 + 1.5, 1, 7), 0.25);
  EXPECT_NEAR(g.gap, 2.0 - 1.5 - 0.25, 1e-14);
  EXPECT_NEAR((g.normal - Vec3(-1, 0, 0)).norm(), 0.0, 1e-14);  // from wall inwards
  EXPECT_NEAR((g.point_a - Vec3(3, 1, 7)).norm(), 0.0, 1e-14);
  EXPECT_NEAR((g.point_b - Vec3(2.75, 1, 7)).norm(), 0.0, 1e-14);
}

TEST(SphereContacts, OutsideCylinderGapAndNormal) {
  const Wall post = Wall::cylinder(Vec3::Zero(), Vec3::UnitX(), 0.5, false);
  const auto g = wallSphere(post, Vec3(3, 0, -0.7), 0.1);
  EXPECT_NEAR(g.gap, 0.7 - 0.5 - 0.1, 1e-14);
  EXPECT_NEAR((g.normal - Vec3(0, 0, -1)).norm(), 0.0, 1e-14);
}

TEST(SphereContacts, SphereOnCylinderAxisHasValidNormal) {
  const Wall cyl = Wall::cylinder(Vec3::Zero(), Vec3::UnitZ(), 2.0, true);
  const auto g = wallSphere(cyl, Vec3(0, 0, 1), 0.1);
  EXPECT_NEAR(g.gap, 1.9, 1e-14);
  EXPECT_NEAR(g.normal.norm(), 1.0, 1e-14);
  EXPECT_NEAR(g.normal.z(), 0.0, 1e-14);
}

}  // namespace
}  // namespace grains
