// Spherocylinders (capsules): closest points of segments, capsule pairs
// (crossed, parallel, collinear), capsule-sphere and capsule-wall contacts
// against analytic values, and the gap's gradient by finite differences.
#include "grains/geometry/contact_geometry.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace grains {
namespace {

Body capsule(GlobalId gid, const Vec3& center, const Vec3& axis, double half_length = 1.0,
             double radius = 0.2) {
  return makeSpherocylinder(gid, radius, half_length, 1.0, center, axis);
}

TEST(SpherocylinderContacts, InertiaReducesToASphereAndGrowsWithLength) {
  const Body ball = makeSpherocylinder(0, 0.5, 0.0, 2.0, Vec3::Zero());
  EXPECT_NEAR(ball.inertia.x(), 0.4 * 2.0 * 0.25, 1e-14);
  EXPECT_NEAR(ball.inertia.z(), 0.4 * 2.0 * 0.25, 1e-14);
  const Body rod = makeSpherocylinder(0, 0.5, 2.0, 2.0, Vec3::Zero());
  EXPECT_GT(rod.inertia.x(), 5.0 * rod.inertia.z());
  EXPECT_NEAR(boundingRadius(rod), 2.5, 1e-14);
}

TEST(SpherocylinderContacts, ClosestPointsOfSegments) {
  double s = 0.0, t = 0.0;
  // Skew, perpendicular: x-axis segment and a y-direction segment above it.
  closestSegmentPoints(Vec3(-1, 0, 0), Vec3(1, 0, 0), Vec3(0.5, -1, 2), Vec3(0.5, 1, 2), s, t);
  EXPECT_NEAR(s, 0.75, 1e-14);
  EXPECT_NEAR(t, 0.5, 1e-14);
  // Closest to an end of one segment.
  closestSegmentPoints(Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(2, -1, 0), Vec3(2, 1, 0), s, t);
  EXPECT_NEAR(s, 1.0, 1e-14);
  EXPECT_NEAR(t, 0.5, 1e-14);
  // Parallel with overlapping projections: the middle of the overlap.
  closestSegmentPoints(Vec3(0, 0, 0), Vec3(2, 0, 0), Vec3(1, 1, 0), Vec3(4, 1, 0), s, t);
  EXPECT_NEAR(s, 0.75, 1e-14);  // overlap x in [1, 2]: middle 1.5
  EXPECT_NEAR(t, 1.0 / 6.0, 1e-14);
  // Collinear and disjoint: the facing ends.
  closestSegmentPoints(Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(3, 0, 0), Vec3(2, 0, 0), s, t);
  EXPECT_NEAR(s, 1.0, 1e-14);
  EXPECT_NEAR(t, 1.0, 1e-14);
  // Degenerate (point) segments.
  closestSegmentPoints(Vec3(0, 0, 0), Vec3(0, 0, 0), Vec3(-1, 1, 0), Vec3(1, 1, 0), s, t);
  EXPECT_NEAR(t, 0.5, 1e-14);
}

TEST(SpherocylinderContacts, CrossedAndParallelCapsules) {
  // Crossed: cores 0.3 apart along z, radii 0.2 each.
  const Body a = capsule(0, Vec3::Zero(), Vec3::UnitX());
  const Body b = capsule(1, Vec3(0.1, 0.2, 0.3), Vec3::UnitY());
  auto g = spherocylinderPair(a, b);
  EXPECT_NEAR(g.gap, 0.3 - 0.4, 1e-14);
  EXPECT_NEAR((g.normal - Vec3::UnitZ()).norm(), 0.0, 1e-14);
  EXPECT_NEAR((g.point_a - Vec3(0.1, 0, 0.2)).norm(), 0.0, 1e-14);
  EXPECT_NEAR((g.point_b - Vec3(0.1, 0, 0.1)).norm(), 0.0, 1e-14);
  // Parallel side by side, offset along the axis: gap from the core distance.
  const Body c = capsule(2, Vec3(0.5, 0.0, 0.5), Vec3::UnitX());
  g = spherocylinderPair(a, c);
  EXPECT_NEAR(g.gap, 0.5 - 0.4, 1e-14);
  EXPECT_NEAR((g.normal - Vec3::UnitZ()).norm(), 0.0, 1e-12);
  // End to end along a common axis: cap to cap.
  const Body d = capsule(3, Vec3(2.5, 0, 0), Vec3::UnitX());
  g = spherocylinderPair(a, d);
  EXPECT_NEAR(g.gap, 0.5 - 0.4, 1e-14);
  EXPECT_NEAR((g.normal - Vec3::UnitX()).norm(), 0.0, 1e-14);
  // Crossing cores (deep overlap): the common perpendicular, towards b.
  const Body e = capsule(4, Vec3(0, 0, -1e-15), Vec3::UnitY());
  g = spherocylinderPair(a, e);
  EXPECT_NEAR(g.gap, -0.4, 1e-12);
  EXPECT_NEAR(std::abs(g.normal.z()), 1.0, 1e-12);
  // bodyBody dispatch, both orders.
  const auto ab = bodyBody(a, b);
  const auto ba = bodyBody(b, a);
  EXPECT_NEAR(ab.gap, ba.gap, 1e-15);
  EXPECT_NEAR((ab.normal + ba.normal).norm(), 0.0, 1e-15);
}

TEST(SpherocylinderContacts, SphereAlongTheAxisAndBeside) {
  const Body rod = capsule(0, Vec3(1, 1, 1), Vec3(0, 0, 1), 1.0, 0.3);
  auto g = spherocylinderSphere(rod, Vec3(1, 1, 3), 0.5);  // beyond the top cap
  EXPECT_NEAR(g.gap, 2.0 - 1.0 - 0.3 - 0.5, 1e-14);
  EXPECT_NEAR((g.normal - Vec3::UnitZ()).norm(), 0.0, 1e-14);
  g = spherocylinderSphere(rod, Vec3(2, 1, 1.4), 0.5);  // beside the shaft
  EXPECT_NEAR(g.gap, 1.0 - 0.8, 1e-14);
  EXPECT_NEAR((g.normal - Vec3::UnitX()).norm(), 0.0, 1e-14);
  const Body ball = makeSphere(5, 0.5, 1.0, Vec3(2, 1, 1.4));
  EXPECT_NEAR(bodyBody(ball, rod).gap, 0.2, 1e-14);
  EXPECT_NEAR((bodyBody(ball, rod).normal + Vec3::UnitX()).norm(), 0.0, 1e-14);
}

TEST(SpherocylinderContacts, Walls) {
  const Wall floor = Wall::plane(Vec3::Zero(), Vec3::UnitZ(), "floor");
  // Tilted 30 degrees from the vertical: lowest end at z = 2 - cos(30).
  const double c30 = std::cos(kPi / 6.0);
  const Body tilted = capsule(0, Vec3(0, 0, 2), Vec3(0.5, 0, c30));
  auto g = wallBody(floor, tilted);
  EXPECT_NEAR(g.gap, 2.0 - c30 - 0.2, 1e-14);
  // Lying flat: the middle of the core is the contact point (no torque).
  const Body flat = capsule(1, Vec3(3, 0, 0.5), Vec3::UnitY());
  g = wallBody(floor, flat);
  EXPECT_NEAR(g.gap, 0.3, 1e-14);
  EXPECT_NEAR((g.point_b - Vec3(3, 0, 0.3)).norm(), 0.0, 1e-14);
  // Inside a container of radius 3: the far end.
  const Wall container = Wall::cylinder(Vec3::Zero(), Vec3::UnitZ(), 3.0, true, "container");
  const Body radial = capsule(2, Vec3(1, 0, 0), Vec3::UnitX());
  g = wallBody(container, radial);
  EXPECT_NEAR(g.gap, 3.0 - 2.0 - 0.2, 1e-14);
  EXPECT_NEAR((g.normal + Vec3::UnitX()).norm(), 0.0, 1e-14);
  // Outside a post of radius 0.5 at the origin: a rod passing at distance 1.
  const Wall post = Wall::cylinder(Vec3::Zero(), Vec3::UnitZ(), 0.5, false, "post");
  const Body passing = capsule(3, Vec3(0.3, 1.0, 4.0), Vec3::UnitX());
  g = wallBody(post, passing);
  EXPECT_NEAR(g.gap, 1.0 - 0.5 - 0.2, 1e-14);
  EXPECT_NEAR((g.normal - Vec3::UnitY()).norm(), 0.0, 1e-14);
}

// Moving b along the normal by h changes the gap by h (where the closest
// points are unique), for random capsule pairs.
TEST(SpherocylinderContacts, GapGradientIsTheNormal) {
  std::mt19937 rng(12);
  std::uniform_real_distribution<double> u(-1.5, 1.5);
  int checked = 0;
  for (int k = 0; k < 300; ++k) {
    const Body a = capsule(0, Vec3(u(rng), u(rng), u(rng)), Vec3(u(rng), u(rng), u(rng)));
    Body b = capsule(1, Vec3(u(rng), u(rng), u(rng)), Vec3(u(rng), u(rng), u(rng)));
    const auto g = spherocylinderPair(a, b);
    if (g.gap < -0.35) continue;  // cores nearly crossing: the normal is a choice
    const double h = 1e-7;
    b.position += h * g.normal;
    EXPECT_NEAR((spherocylinderPair(a, b).gap - g.gap) / h, 1.0, 1e-5);
    ++checked;
  }
  EXPECT_GT(checked, 200);
}

}  // namespace
}  // namespace grains
