// A wall's own friction (walls.N.friction) against rigid-body closed forms:
// a sphere of mass m, radius r, J = 2/5 m r^2 on a floor whose coefficients
// are not the run's (coulomb with mu = 0, no rolling resistance).
//   incline theta, floor mu_w < tan(theta) < floor mu_r:
//                                 slides, dv/dt = g (sin(theta) - mu_w cos(theta))
//   level, floor mu_r, rolling:   dv/dt = -(5/7) mu_r g
// With the run's coefficients the sphere slides down freely at g sin(theta).
#include "sphere_on_plane.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace grains {
namespace {

using test::inclinedGravity;
constexpr double kG = test::kSphereG;
constexpr double kRadius = test::kSphereRadius;
constexpr double kDt = test::kSphereDt;

/// The sphere on a floor z = 0 with `floor_friction`, in a run with Coulomb
/// friction mu = 0 and no rolling resistance.
class SphereOnFloor : public test::SphereOnPlane {
 public:
  SphereOnFloor(const WallFriction& floor_friction, const Vec3& velocity,
                const Vec3& angular_velocity, const Vec3& gravity = Vec3(0, 0, -kG))
      : test::SphereOnPlane(settings(floor_friction, gravity), floor(floor_friction), velocity,
                            angular_velocity) {}

 private:
  static Wall floor(const WallFriction& friction) {
    Wall w = Wall::plane(Vec3::Zero(), Vec3::UnitZ(), "floor");
    w.friction = friction;
    return w;
  }
  // What the config loader makes of a wall with rolling resistance in a
  // coulomb run (config_loader.cpp, applyWallFriction).
  static StepperSettings settings(const WallFriction& friction, const Vec3& gravity) {
    StepperSettings s;
    s.assembly.friction =
        friction.resistsRolling() ? FrictionModel::CoulombRolling : FrictionModel::Coulomb;
    s.assembly.motion.gravity = gravity;
    s.mu = 0.0;
    return s;
  }
};

TEST(WallFriction, TheRunsCoefficientsLetASphereSlideDownFreely) {
  const double theta = 0.1;
  SphereOnFloor s(WallFriction{}, Vec3::Zero(), Vec3::Zero(), inclinedGravity(theta));
  s.run(200);
  EXPECT_NEAR(s.body().velocity.x() / (200 * kDt), kG * std::sin(theta), 1e-9);
  EXPECT_NEAR(s.body().angular_velocity.norm(), 0.0, 1e-9);
}

// Rolling resistance above tan(theta) keeps it from rolling, so it slides
// and its own mu holds it back.
TEST(WallFriction, AFloorsOwnMuHoldsBackASphereSlidingDownAnIncline) {
  const double mu_w = 0.05, theta = 0.1;  // mu_w < tan(theta) < rolling
  WallFriction rough;
  rough.mu = mu_w;
  rough.rolling = 0.2;
  SphereOnFloor s(rough, Vec3::Zero(), Vec3::Zero(), inclinedGravity(theta));
  s.run(200);
  const double expected = kG * (std::sin(theta) - mu_w * std::cos(theta));
  EXPECT_NEAR(s.body().velocity.x() / (200 * kDt), expected, 1e-3 * expected);
  EXPECT_NEAR(s.body().angular_velocity.norm(), 0.0, 1e-8);
}

TEST(WallFriction, AFloorsOwnRollingResistanceSlowsARollingSphere) {
  const double mu_r = 0.1, v0 = 1.0;
  WallFriction rough;
  rough.mu = 0.5;
  rough.rolling = mu_r;
  SphereOnFloor s(rough, Vec3(v0, 0, 0), Vec3(0, v0 / kRadius, 0));
  const int first = 100, last = 600;
  s.run(first);
  const double v1 = s.body().velocity.x();
  s.run(last - first);
  const double v2 = s.body().velocity.x();
  const double expected = 5.0 / 7.0 * mu_r * kG;
  EXPECT_NEAR((v1 - v2) / ((last - first) * kDt), expected, 1e-6 * expected);
  EXPECT_NEAR(s.body().angular_velocity.y() * kRadius, v2, 1e-9);
}

}  // namespace
}  // namespace grains
