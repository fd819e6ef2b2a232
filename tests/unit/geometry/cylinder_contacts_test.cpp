// Solid cylinder bodies against spheres and walls: analytic cases for every
// region (side, cap, rim edge, inside) and the conventions of contact_geometry.hpp.
#include "grains/geometry/contact_geometry.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <stdexcept>

namespace grains {
namespace {

// Radius 1, half-length 0.5, axis along world z, centred at the origin.
Body unitCylinder(const Vec3& axis = Vec3::UnitZ()) {
  return makeCylinder(7, 1.0, 0.5, 10.0, Vec3::Zero(), axis);
}

TEST(CylinderContacts, InertiaOfASolidCylinder) {
  const Body c = unitCylinder();
  EXPECT_NEAR(c.inertia.z(), 0.5 * 10.0 * 1.0, 1e-14);
  EXPECT_NEAR(c.inertia.x(), 10.0 * (3.0 + 1.0) / 12.0, 1e-14);
  EXPECT_NEAR(boundingRadius(c), std::sqrt(1.25), 1e-14);
}

TEST(CylinderContacts, SphereAboveTheCapSideAndRim) {
  const Body c = unitCylinder();
  // Above the cap.
  auto g = cylinderSphere(c, Vec3(0.3, 0.2, 0.8), 0.1);
  EXPECT_NEAR(g.gap, 0.2, 1e-14);
  EXPECT_NEAR((g.normal - Vec3::UnitZ()).norm(), 0.0, 1e-14);
  EXPECT_NEAR((g.point_a - Vec3(0.3, 0.2, 0.5)).norm(), 0.0, 1e-14);
  // Beside the mantle.
  g = cylinderSphere(c, Vec3(0.0, 1.5, -0.2), 0.25);
  EXPECT_NEAR(g.gap, 0.25, 1e-14);
  EXPECT_NEAR((g.normal - Vec3::UnitY()).norm(), 0.0, 1e-14);
  // Diagonally off the rim edge (1, 0, 0.5): distance sqrt(0.3^2 + 0.4^2) = 0.5.
  g = cylinderSphere(c, Vec3(1.3, 0.0, 0.9), 0.1);
  EXPECT_NEAR(g.gap, 0.4, 1e-14);
  EXPECT_NEAR((g.normal - Vec3(0.6, 0.0, 0.8)).norm(), 0.0, 1e-14);
  EXPECT_NEAR((g.point_a - Vec3(1.0, 0.0, 0.5)).norm(), 0.0, 1e-14);
  EXPECT_NEAR((g.point_b - g.point_a).dot(g.normal), g.gap, 1e-14);
}

TEST(CylinderContacts, SphereCentreInsideLeavesThroughTheNearerFace) {
  const Body c = unitCylinder();
  auto g = cylinderSphere(c, Vec3(0.0, 0.0, 0.45), 0.1);  // 0.05 below the cap
  EXPECT_NEAR(g.gap, -0.15, 1e-14);
  EXPECT_NEAR((g.normal - Vec3::UnitZ()).norm(), 0.0, 1e-14);
  g = cylinderSphere(c, Vec3(-0.98, 0.0, 0.0), 0.1);  // 0.02 inside the mantle
  EXPECT_NEAR(g.gap, -0.12, 1e-14);
  EXPECT_NEAR((g.normal + Vec3::UnitX()).norm(), 0.0, 1e-14);
}

TEST(CylinderContacts, RotatedCylinderMatchesTheRotatedCase) {
  const Vec3 axis = Vec3(1.0, 1.0, 0.0).normalized();
  Body c = unitCylinder(axis);
  c.position = Vec3(2.0, -1.0, 3.0);
  // A sphere 0.3 beyond the +axis cap.
  const auto g = cylinderSphere(c, c.position + 0.8 * axis, 0.1);
  EXPECT_NEAR(g.gap, 0.2, 1e-13);
  EXPECT_NEAR((g.normal - axis).norm(), 0.0, 1e-13);
}

TEST(CylinderContacts, BodyBodyDispatchFlipsForSphereFirst) {
  const Body c = unitCylinder();
  const Body s = makeSphere(1, 0.1, 1.0, Vec3(0.0, 0.0, 0.8));
  const auto cs = bodyBody(c, s);
  const auto sc = bodyBody(s, c);
  EXPECT_NEAR(cs.gap, sc.gap, 1e-15);
  EXPECT_NEAR((cs.normal + sc.normal).norm(), 0.0, 1e-15);
  EXPECT_NEAR((cs.point_a - sc.point_b).norm(), 0.0, 1e-15);
  EXPECT_THROW(bodyBody(c, c), std::invalid_argument);
}

TEST(CylinderContacts, PlaneSupportPointsFlatAndTilted) {
  const Wall floor = Wall::plane(Vec3::Zero(), Vec3::UnitZ(), "floor");
  Body c = unitCylinder();
  c.position = Vec3(0.4, 0.2, 0.7);
  auto g = wallCylinder(floor, c);  // flat: the face centre, 0.2 above the floor
  EXPECT_NEAR(g.gap, 0.2, 1e-14);
  EXPECT_NEAR((g.point_b - Vec3(0.4, 0.2, 0.2)).norm(), 0.0, 1e-14);
  // Tilted by 90 degrees (axis along x): lowest line at z = centre - radius.
  Body lying = unitCylinder(Vec3::UnitX());
  lying.position = Vec3(0.0, 0.0, 1.5);
  g = wallCylinder(floor, lying);
  EXPECT_NEAR(g.gap, 0.5, 1e-14);
  // Tilted by 45 degrees: the lowest rim point at h sin45 + r cos45 below the centre.
  Body tilted = unitCylinder(Vec3(1.0, 0.0, 1.0).normalized());
  tilted.position = Vec3(0.0, 0.0, 2.0);
  g = wallCylinder(floor, tilted);
  EXPECT_NEAR(g.gap, 2.0 - (0.5 + 1.0) / std::sqrt(2.0), 1e-14);
}

TEST(CylinderContacts, InsideContainerFarthestRimPoint) {
  const Wall container = Wall::cylinder(Vec3::Zero(), Vec3::UnitZ(), 1.5, true, "container");
  Body c = unitCylinder();
  c.position = Vec3(0.2, 0.0, 1.0);
  auto g = wallCylinder(container, c);
  EXPECT_NEAR(g.gap, 1.5 - 1.2, 1e-10);
  EXPECT_NEAR((g.normal + Vec3::UnitX()).norm(), 0.0, 1e-6);
  // Tilted about y by angle t: the farthest rim point is at x = 0.2 + cos t + 0.5 sin t.
  const double t = 0.3;
  Body tilted = unitCylinder(Vec3(std::sin(t), 0.0, std::cos(t)));
  tilted.position = Vec3(0.2, 0.0, 1.0);
  g = wallCylinder(container, tilted);
  EXPECT_NEAR(g.gap, 1.5 - (0.2 + std::cos(t) + 0.5 * std::sin(t)), 1e-10);
  const Wall pillar = Wall::cylinder(Vec3::Zero(), Vec3::UnitZ(), 0.1, false, "pillar");
  EXPECT_THROW(wallCylinder(pillar, c), std::invalid_argument);
}

// Finite differences: moving the sphere along the normal changes the gap at unit rate.
TEST(CylinderContacts, GapGradientIsTheNormal) {
  std::mt19937 rng(4);
  std::uniform_real_distribution<double> u(-2.0, 2.0);
  Body c = unitCylinder(Vec3(0.3, -0.2, 1.0).normalized());
  int checked = 0;
  for (int k = 0; k < 200; ++k) {
    const Vec3 p(u(rng), u(rng), u(rng));
    const auto g = cylinderSphere(c, p, 0.1);
    const double h = 1e-6;
    const auto moved = cylinderSphere(c, p + h * g.normal, 0.1);
    if (std::abs(g.gap) < 0.05) continue;  // near a region switch
    EXPECT_NEAR((moved.gap - g.gap) / h, 1.0, 1e-5) << p.transpose();
    ++checked;
  }
  EXPECT_GT(checked, 150);
}

}  // namespace
}  // namespace grains
