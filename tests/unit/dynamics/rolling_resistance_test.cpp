// Rolling and spinning resistance (friction model coulomb_rolling) against
// rigid-body closed forms: a sphere of mass m, radius r, J = 2/5 m r^2 on a
// plane, whose rolling radius is r, so the torque bounds are mu_r r N and
// mu_s r N.
//   rolling on a level plane:   dv/dt = -(5/7) mu_r g
//   incline of angle theta:     at rest if tan(theta) <= mu_r (and <= mu),
//                               else dv/dt = (5/7) g (sin(theta) - mu_r cos(theta))
//   spinning about the normal:  d(omega)/dt = -mu_s r m g / J
#include "sphere_on_plane.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace grains {
namespace {

using test::inclinedGravity;
constexpr double kG = test::kSphereG;
constexpr double kMass = test::kSphereMass;
constexpr double kRadius = test::kSphereRadius;
constexpr double kDt = test::kSphereDt;

struct Resistance {
  double mu = 0.5;
  double rolling = 0.0;
  double spinning = 0.0;
};

/// The sphere on the plane z = 0 with the run's coefficients `resistance`.
class SphereOnPlane : public test::SphereOnPlane {
 public:
  SphereOnPlane(const Resistance& resistance, const Vec3& gravity, const Vec3& velocity,
                const Vec3& angular_velocity)
      : test::SphereOnPlane(settings(resistance, gravity), Wall::plane(Vec3::Zero(), Vec3::UnitZ()),
                            velocity, angular_velocity) {}

 private:
  static StepperSettings settings(const Resistance& resistance, const Vec3& gravity) {
    StepperSettings s;
    s.assembly.friction = resistance.rolling > 0.0 || resistance.spinning > 0.0
                              ? FrictionModel::CoulombRolling
                              : FrictionModel::Coulomb;
    s.assembly.rolling_friction = resistance.rolling;
    s.assembly.spinning_friction = resistance.spinning;
    s.assembly.motion.gravity = gravity;
    s.mu = resistance.mu;
    return s;
  }
};

// Rolling along +x: omega_y r = v_x.
TEST(RollingResistance, RollingSphereDeceleratesAtFiveSeventhsMuRG) {
  const double mu_r = 0.1, v0 = 1.0;
  SphereOnPlane s({0.5, mu_r, 0.0}, Vec3(0, 0, -kG), Vec3(v0, 0, 0), Vec3(0, v0 / kRadius, 0));
  const int first = 100, last = 600;
  s.run(first);
  const double v1 = s.body().velocity.x();
  s.run(last - first);
  const double v2 = s.body().velocity.x();
  const double deceleration = (v1 - v2) / ((last - first) * kDt);
  const double expected = 5.0 / 7.0 * mu_r * kG;
  EXPECT_NEAR(deceleration, expected, 1e-6 * expected);
  // Still rolling without slipping, still on the plane (within the O(dt)
  // hover of the cone complementarity relaxation), not yet stopped.
  EXPECT_NEAR(s.body().angular_velocity.y() * kRadius, v2, 1e-9);
  EXPECT_GT(v2, 0.5 * v0);
  EXPECT_NEAR(s.body().position.z(), kRadius, 1e-3 * kRadius);
  // Once stopped it stays at rest: the resistance does not reverse the motion.
  s.run(1200);
  EXPECT_NEAR(s.body().velocity.norm(), 0.0, 1e-9);
  EXPECT_NEAR(s.body().angular_velocity.norm(), 0.0, 1e-8);
}

// The same sphere without rolling resistance keeps rolling: the deceleration
// above is the resistance's, not the integrator's.
TEST(RollingResistance, WithoutResistanceTheSphereKeepsRolling) {
  const double v0 = 1.0;
  SphereOnPlane s({0.5, 0.0, 0.0}, Vec3(0, 0, -kG), Vec3(v0, 0, 0), Vec3(0, v0 / kRadius, 0));
  s.run(300);
  EXPECT_NEAR(s.body().velocity.x(), v0, 1e-9);
  EXPECT_EQ(s.stepper().lastImpulses().size(), 3u);  // coulomb: three unknowns
}

TEST(RollingResistance, SphereStaysPutOnAnInclineBelowTheRollingAngle) {
  const double mu_r = 0.1, theta = std::atan(0.8 * mu_r);  // tan(theta) < mu_r < mu
  SphereOnPlane s({0.5, mu_r, 0.0}, inclinedGravity(theta), Vec3::Zero(), Vec3::Zero());
  s.run(500);
  EXPECT_LT(s.body().velocity.norm(), 1e-9);
  EXPECT_LT(s.body().angular_velocity.norm(), 1e-8);
  EXPECT_NEAR(s.body().position.x(), 0.0, 1e-9);
  // The rolling torque carries the whole downhill moment m g sin(theta) r.
  const auto& g = s.stepper().lastImpulses();
  ASSERT_EQ(g.size(), 6u);
  EXPECT_NEAR(std::hypot(g[3], g[4]) / kDt, kMass * kG * std::sin(theta) * kRadius,
              1e-6 * kMass * kG * kRadius);
}

TEST(RollingResistance, SphereRollsDownAnInclineAboveTheRollingAngle) {
  const double mu_r = 0.1, theta = std::atan(2.0 * mu_r);  // mu_r < tan(theta) < mu
  SphereOnPlane s({0.5, mu_r, 0.0}, inclinedGravity(theta), Vec3::Zero(), Vec3::Zero());
  const int first = 50, last = 250;
  s.run(first);
  const double v1 = s.body().velocity.x();
  s.run(last - first);
  const double v2 = s.body().velocity.x();
  const double acceleration = (v2 - v1) / ((last - first) * kDt);
  const double expected = 5.0 / 7.0 * kG * (std::sin(theta) - mu_r * std::cos(theta));
  EXPECT_NEAR(acceleration, expected, 1e-6 * expected);
  EXPECT_NEAR(s.body().angular_velocity.y() * kRadius, v2, 1e-9);  // no slip
}

// Sliding friction alone would hold neither: it is the rolling bound that
// decides, so with mu_r larger than tan(theta) but mu smaller the sphere slides.
TEST(RollingResistance, SlidesWhenSlidingFrictionIsTooSmall) {
  const double mu = 0.05, mu_r = 0.2, theta = 0.1;  // mu < tan(theta) < mu_r
  SphereOnPlane s({mu, mu_r, 0.0}, inclinedGravity(theta), Vec3::Zero(), Vec3::Zero());
  s.run(200);
  const double expected = kG * (std::sin(theta) - mu * std::cos(theta));
  EXPECT_NEAR(s.body().velocity.x() / (200 * kDt), expected, 1e-3 * expected);
  // The rolling bound exceeds the friction torque: no rotation at all.
  EXPECT_NEAR(s.body().angular_velocity.norm(), 0.0, 1e-8);
}

TEST(SpinningResistance, SpinAboutTheNormalStopsAtThePredictedRate) {
  const double mu_s = 0.02, omega0 = 2.0;
  SphereOnPlane s({0.5, 0.0, mu_s}, Vec3(0, 0, -kG), Vec3::Zero(), Vec3(0, 0, omega0));
  const double inertia = 0.4 * kMass * kRadius * kRadius;
  const double expected = mu_s * kRadius * kMass * kG / inertia;  // [rad/s^2]
  const int first = 20, last = 300;
  s.run(first);
  const double w1 = s.body().angular_velocity.z();
  s.run(last - first);
  const double w2 = s.body().angular_velocity.z();
  EXPECT_NEAR((w1 - w2) / ((last - first) * kDt), expected, 1e-6 * expected);
  // Stops at t = omega0 / expected (0.41 s) and stays stopped.
  s.run(300);
  EXPECT_NEAR(s.body().angular_velocity.norm(), 0.0, 1e-9);
  EXPECT_NEAR(s.body().velocity.norm(), 0.0, 1e-9);
}

TEST(SpinningResistance, WithoutResistanceTheSpinPersists) {
  const double omega0 = 2.0;
  SphereOnPlane s({0.5, 0.0, 0.0}, Vec3(0, 0, -kG), Vec3::Zero(), Vec3(0, 0, omega0));
  s.run(300);
  EXPECT_NEAR(s.body().angular_velocity.z(), omega0, 1e-9);
}

}  // namespace
}  // namespace grains
