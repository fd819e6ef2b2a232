// Predicted contacts (DetectionSettings::velocities): a contact beyond the
// envelope is kept when the velocities close its gap to the envelope within
// the horizon, and only then.
#include "grains/constraint/contact_detection.hpp"

#include <gtest/gtest.h>

namespace grains {
namespace {

Twist twist(const Vec3& u, const Vec3& w = Vec3::Zero()) {
  Twist t;
  t << u, w;
  return t;
}

struct Scene {
  std::vector<Body> bodies;
  std::vector<Twist> velocities;
  std::vector<Wall> walls;
};

std::vector<Contact> detect(const Scene& scene, double horizon, double reach) {
  DetectionSettings s;
  s.envelope = 0.01;
  s.mu = 0.3;
  s.velocities = &scene.velocities;
  s.horizon = horizon;
  s.reach = reach;
  return detectContacts(scene.bodies, scene.bodies.size(), scene.walls, s);
}

// Sphere 1 (r = 0.1) approaches sphere 0 along x with a gap of 0.1: kept
// when horizon * speed closes at least 0.1 - envelope, not otherwise; a pair
// moving together at any speed is not kept.
TEST(PredictedContacts, KeptExactlyWhenTheGapClosesWithinTheHorizon) {
  Scene scene;
  scene.bodies = {makeSphere(0, 0.1, 1.0, Vec3(0, 0, 1)), makeSphere(1, 0.1, 1.0, Vec3(0.3, 0, 1))};
  const double horizon = 0.025;
  // closes 0.1 - 0.01 = 0.09 at 3.6 m/s
  scene.velocities = {twist(Vec3::Zero()), twist(Vec3(-3.7, 0, 0))};
  EXPECT_EQ(detect(scene, horizon, 0.5).size(), 1u);
  scene.velocities = {twist(Vec3::Zero()), twist(Vec3(-3.5, 0, 0))};
  EXPECT_TRUE(detect(scene, horizon, 0.5).empty());
  scene.velocities = {twist(Vec3(-3.5, 0, 0)), twist(Vec3(-7.2, 0, 0))};  // relative -3.7
  EXPECT_EQ(detect(scene, horizon, 0.5).size(), 1u);
  scene.velocities = {twist(Vec3(-50, 0, 0)), twist(Vec3(-50, 0, 0))};  // together
  EXPECT_TRUE(detect(scene, horizon, 0.5).empty());
  scene.velocities = {twist(Vec3::Zero()), twist(Vec3(3.7, 0, 0))};  // separating
  EXPECT_TRUE(detect(scene, horizon, 0.5).empty());
  // Spinning about the line of centres moves no contact point along the normal.
  scene.velocities = {twist(Vec3::Zero(), Vec3(500, 0, 0)), twist(Vec3::Zero())};
  EXPECT_TRUE(detect(scene, horizon, 0.5).empty());
  // Without a horizon only the envelope counts.
  scene.velocities = {twist(Vec3::Zero()), twist(Vec3(-100, 0, 0))};
  EXPECT_TRUE(detect(scene, 0.0, 0.5).empty());
  // A predicted contact has the true geometry (gap 0.1, normal from 0 to 1).
  const auto contacts = detect(scene, horizon, 0.5);
  ASSERT_EQ(contacts.size(), 1u);
  EXPECT_NEAR(contacts[0].geometry.gap, 0.1, 1e-12);
  EXPECT_NEAR(contacts[0].geometry.normal.x(), 1.0, 1e-12);
}

// A sphere falling onto the floor: the wall contact is predicted the same
// way, with the wall at rest; a sphere moving parallel to it is not.
TEST(PredictedContacts, WallContactsArePredictedFromTheBodyVelocity) {
  Scene scene;
  scene.walls = {Wall::plane(Vec3::Zero(), Vec3::UnitZ())};
  scene.bodies = {makeSphere(0, 0.1, 1.0, Vec3(0, 0, 0.3))};  // gap 0.2
  scene.velocities = {twist(Vec3(0, 0, -9))};                 // closes 0.225 in 0.025 s
  EXPECT_EQ(detect(scene, 0.025, 0.5).size(), 1u);
  scene.velocities = {twist(Vec3(0, 0, -7))};  // 0.175 < 0.19
  EXPECT_TRUE(detect(scene, 0.025, 0.5).empty());
  scene.velocities = {twist(Vec3(9, 9, 0))};
  EXPECT_TRUE(detect(scene, 0.025, 0.5).empty());
}

TEST(PredictedContacts, TooFewVelocitiesIsAnError) {
  Scene scene;
  scene.bodies = {makeSphere(0, 0.1, 1.0, Vec3::Zero()), makeSphere(1, 0.1, 1.0, Vec3(1, 0, 0))};
  scene.velocities = {twist(Vec3::Zero())};
  EXPECT_THROW(detect(scene, 0.025, 0.5), std::invalid_argument);
}

}  // namespace
}  // namespace grains
