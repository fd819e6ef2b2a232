// contact.overlap_slop: SPOOK's gap term relaxes only the part of an overlap
// beyond the slop s. With relaxation k = 4 / (1 + 4 d) per step, a sphere
// resting on a plane with overlap delta_n moves so that
//   delta_{n+1} - s = (1 - k) (delta_n - s)   while delta_n > s,
// and an overlap within the slop is held: the sphere stays where it is,
// exactly at rest, instead of being pushed out.
#include "sphere_on_plane.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace grains {
namespace {

constexpr double kDampingSteps = 4.0;
constexpr double kRelaxation = 4.0 / (1.0 + 4.0 * kDampingSteps);

test::SphereOnPlane restingSphere(double slop, double overlap) {
  StepperSettings s;
  s.assembly.friction = FrictionModel::Coulomb;
  s.mu = 0.5;
  s.assembly.damping_steps = kDampingSteps;
  s.assembly.overlap_slop = slop;
  s.assembly.motion.gravity = Vec3(0.0, 0.0, -test::kSphereG);
  return test::SphereOnPlane(s, Wall::plane(Vec3::Zero(), Vec3::UnitZ()), Vec3::Zero(),
                             Vec3::Zero(), overlap);
}

double overlapOf(const Body& b) { return test::kSphereRadius - b.position.z(); }

TEST(OverlapSlop, OverlapBeyondTheSlopRelaxesDownToIt) {
  const double slop = 1e-5, start = 4e-5;
  test::SphereOnPlane sphere = restingSphere(slop, start);
  for (int n = 1; n <= 12; ++n) {
    sphere.run(1);
    const double expected = slop + std::pow(1.0 - kRelaxation, n) * (start - slop);
    EXPECT_NEAR(overlapOf(sphere.body()), expected, 1e-13) << "step " << n;
  }
}

TEST(OverlapSlop, OverlapWithinTheSlopIsHeldAtRest) {
  const double overlap = 6e-6;
  test::SphereOnPlane sphere = restingSphere(1e-5, overlap);
  sphere.run(50);
  EXPECT_NEAR(overlapOf(sphere.body()), overlap, 1e-13);
  EXPECT_LT(sphere.body().velocity.norm(), 1e-10);
}

TEST(OverlapSlop, WithoutSlopTheOverlapIsRemoved) {
  const double start = 4e-5;
  test::SphereOnPlane sphere = restingSphere(0.0, start);
  for (int n = 1; n <= 12; ++n) {
    sphere.run(1);
    EXPECT_NEAR(overlapOf(sphere.body()), std::pow(1.0 - kRelaxation, n) * start, 1e-13)
        << "step " << n;
  }
}

}  // namespace
}  // namespace grains
