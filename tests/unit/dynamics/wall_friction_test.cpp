// A wall's own friction (walls.N.friction) against rigid-body closed forms:
// a sphere of mass m, radius r, J = 2/5 m r^2 on a floor whose coefficients
// are not the run's (coulomb with mu = 0, no rolling resistance).
//   incline theta, floor mu_w < tan(theta) < floor mu_r:
//                                 slides, dv/dt = g (sin(theta) - mu_w cos(theta))
//   level, floor mu_r, rolling:   dv/dt = -(5/7) mu_r g
// With the run's coefficients the sphere slides down freely at g sin(theta).
#include "grains/dynamics/time_stepper.hpp"

#include <gtest/gtest.h>
#include <Tpetra_Core.hpp>

#include <cmath>

namespace grains {
namespace {

constexpr double kG = 9.81;
constexpr double kMass = 1.0;
constexpr double kRadius = 0.1;
constexpr double kDt = 1e-3;

/// The floor tilted by theta (gravity rotated): downhill is +x.
Vec3 inclinedGravity(double theta) {
  return Vec3(kG * std::sin(theta), 0.0, -kG * std::cos(theta));
}

/// One sphere moving along +x on a floor with `floor_friction`, in a run
/// with Coulomb friction mu = 0 and no rolling resistance.
class SphereOnFloor {
 public:
  SphereOnFloor(const WallFriction& floor_friction, const Vec3& velocity,
                const Vec3& angular_velocity, const Vec3& gravity = Vec3(0, 0, -kG))
      : domain_(Tpetra::getDefaultComm(), {sphere(velocity, angular_velocity)}),
        stepper_(settings(floor_friction, gravity), {floor(floor_friction)},
                 solver(floor_friction)) {}

  void run(int steps) {
    for (int k = 0; k < steps; ++k) {
      const StepReport report = stepper_.step(domain_, step_++);
      ASSERT_TRUE(report.solve.converged) << "step " << step_;
    }
  }
  const Body& body() const { return domain_.bodies()[0]; }

 private:
  static Body sphere(const Vec3& velocity, const Vec3& angular_velocity) {
    Body b = makeSphere(0, kRadius, kMass, Vec3(0, 0, kRadius));
    b.velocity = velocity;
    b.angular_velocity = angular_velocity;
    return b;
  }
  static Wall floor(const WallFriction& friction) {
    Wall w = Wall::plane(Vec3::Zero(), Vec3::UnitZ(), "floor");
    w.friction = friction;
    return w;
  }
  // What the config loader makes of a wall with rolling resistance in a
  // coulomb run (config_loader.cpp, applyWallFriction).
  static FrictionModel model(const WallFriction& friction) {
    return friction.resistsRolling() ? FrictionModel::CoulombRolling : FrictionModel::Coulomb;
  }
  static StepperSettings settings(const WallFriction& friction, const Vec3& gravity) {
    StepperSettings s;
    s.assembly.dt = kDt;
    s.assembly.friction = model(friction);
    s.assembly.motion.gravity = gravity;
    s.mu = 0.0;
    s.envelope = 0.01;
    return s;
  }
  static std::unique_ptr<Solver> solver(const WallFriction& friction) {
    SolverSettings s;
    s.tolerance = 1e-13;
    s.max_iterations = 20000;
    return SolverRegistry::instance().create("apgd", s, model(friction));
  }

  BodyDomain domain_;
  TimeStepper stepper_;
  long step_ = 0;
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
