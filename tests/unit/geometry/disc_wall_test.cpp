// A sphere against a disc wall (a ring in a plane, two-sided): over the ring
// the plane's distance on the sphere's side; in the hole and beyond the rim
// the distance to the nearest edge point, with the normal from there.
#include "grains/geometry/contact_geometry.hpp"
#include "grains/geometry/shape_traits.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace grains {
namespace {

// Ring 0.5 <= rho <= 2 in the plane z = 1.
const Wall kRing = Wall::disc(Vec3(0, 0, 1), Vec3::UnitZ(), 2.0, 0.5, "ring");

TEST(DiscWall, OverTheRingBothSidesSeeThePlane) {
  const ContactGeometry above = wallSphere(kRing, Vec3(1, 0, 1.3), 0.2);
  EXPECT_NEAR(above.gap, 0.1, 1e-15);
  EXPECT_TRUE(above.normal.isApprox(Vec3::UnitZ()));
  EXPECT_TRUE(above.point_a.isApprox(Vec3(1, 0, 1)));
  EXPECT_TRUE(above.point_b.isApprox(Vec3(1, 0, 1.1)));
  const ContactGeometry below = wallSphere(kRing, Vec3(0, -1.5, 0.85), 0.2);
  EXPECT_NEAR(below.gap, -0.05, 1e-15);
  EXPECT_TRUE(below.normal.isApprox(-Vec3::UnitZ()));
}

TEST(DiscWall, InTheHoleTheInnerEdgeIsNearest) {
  // Centre 0.3 from the axis, 0.4 above the plane: the inner edge is 0.2
  // away radially, so the distance is sqrt(0.2^2 + 0.4^2).
  const ContactGeometry g = wallSphere(kRing, Vec3(0.3, 0, 1.4), 0.1);
  EXPECT_NEAR(g.gap, std::hypot(0.2, 0.4) - 0.1, 1e-14);
  EXPECT_TRUE(g.point_a.isApprox(Vec3(0.5, 0, 1)));
  EXPECT_TRUE(g.normal.isApprox(Vec3(-0.2, 0, 0.4).normalized()));
  // A sphere smaller than the hole falls through its middle untouched.
  EXPECT_NEAR(wallSphere(kRing, Vec3(0, 0, 1), 0.3).gap, 0.2, 1e-15);
}

TEST(DiscWall, BeyondTheRimTheOuterEdgeIsNearest) {
  const ContactGeometry g = wallSphere(kRing, Vec3(0, 2.3, 0.6), 0.1);
  EXPECT_NEAR(g.gap, 0.5 - 0.1, 1e-14);
  EXPECT_TRUE(g.point_a.isApprox(Vec3(0, 2, 1)));
  EXPECT_TRUE(g.normal.isApprox(Vec3(0, 0.6, -0.8)));
}

TEST(DiscWall, APlaneWithAHoleHasNoRim) {
  const Wall floor =
      Wall::disc(Vec3::Zero(), Vec3::UnitZ(), std::numeric_limits<double>::infinity(), 0.1);
  EXPECT_NEAR(wallSphere(floor, Vec3(1e6, 0, 0.5), 0.2).gap, 0.3, 1e-9);
  EXPECT_NEAR(wallSphere(floor, Vec3(0, 0, 0.5), 0.2).gap, std::hypot(0.1, 0.5) - 0.2, 1e-14);
}

TEST(DiscWall, OtherShapesAreRefusedNamingTheWall) {
  const Body ellipsoid = makeEllipsoid(3, Vec3(0.1, 0.1, 0.2), 1.0, Vec3(1, 0, 1.5));
  try {
    wallBody(kRing, ellipsoid);
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("wall 'ring' (disc)"), std::string::npos) << what;
    EXPECT_NE(what.find("spheres only"), std::string::npos) << what;
  }
  EXPECT_NEAR(wallBody(kRing, makeSphere(1, 0.1, 1.0, Vec3(1, 0, 1.5))).gap, 0.4, 1e-15);
}

}  // namespace
}  // namespace grains

namespace grains {
namespace {

// A hopper: from radius 0.2 at z = 0 to radius 1 at z = 0.8 (a 45 degree
// band), opening upwards.
const Wall kHopper = Wall::cone(Vec3::Zero(), Vec3::UnitZ(), 0.2, 1.0, 0.8, "hopper");

TEST(ConeWall, InsideTheBandTheNormalPointsInwardAndUp) {
  // The band's inner side at z = 0.4 is at radius 0.6; a centre at radius
  // 0.3 there is 0.3 / sqrt(2) from it along (-1, 1) / sqrt(2).
  const ContactGeometry g = wallSphere(kHopper, Vec3(0, 0.3, 0.4), 0.1);
  EXPECT_NEAR(g.gap, 0.3 / std::sqrt(2.0) - 0.1, 1e-14);
  EXPECT_TRUE(g.normal.isApprox(Vec3(0, -1, 1).normalized()));
  EXPECT_TRUE(g.point_a.isApprox(Vec3(0, 0.45, 0.25)));
  // Outside the band the normal points outward and down.
  const ContactGeometry out = wallSphere(kHopper, Vec3(0.9, 0, 0.4), 0.1);
  EXPECT_NEAR(out.gap, 0.3 / std::sqrt(2.0) - 0.1, 1e-14);
  EXPECT_TRUE(out.normal.isApprox(Vec3(1, 0, -1).normalized()));
}

TEST(ConeWall, BelowTheOutletTheLowerRimIsNearest) {
  const ContactGeometry g = wallSphere(kHopper, Vec3(0.2, 0, -0.5), 0.1);
  EXPECT_NEAR(g.gap, 0.4, 1e-14);
  EXPECT_TRUE(g.point_a.isApprox(Vec3(0.2, 0, 0)));
  EXPECT_TRUE(g.normal.isApprox(-Vec3::UnitZ()));
  // On the axis below the outlet: the rim circle, at any angle.
  EXPECT_NEAR(wallSphere(kHopper, Vec3(0, 0, -0.15), 0.05).gap, 0.25 - 0.05, 1e-14);
}

}  // namespace
}  // namespace grains
