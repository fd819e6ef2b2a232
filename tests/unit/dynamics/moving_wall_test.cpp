// Moving walls against rigid-body closed forms: the wall's surface velocity
// enters the constraints, so friction drags bodies along and a wall moving
// into a body pushes it; the loads on the wall are the opposite of the
// contact forces on the bodies.
//   sphere (J = 2/5 m r^2) put at rest on a belt of speed V with friction mu:
//     it slides with du/dt = mu g until its contact point moves with the
//     belt, at u = 2/7 V (t = 2 V / (7 mu g)), then rolls at 2/7 V
//   a floor rising at V lifts a sphere resting on it at V
//   sphere at rest in a drum of radius R turning at omega about a horizontal
//   axis, with friction and rolling resistance large enough: it turns with
//   the drum, and the drum carries the torque m g (R - r) sin(theta).
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

std::unique_ptr<Solver> accurateSolver(FrictionModel friction) {
  SolverSettings s;
  s.tolerance = 1e-13;
  s.max_iterations = 20000;
  return SolverRegistry::instance().create("apgd", s, friction);
}

StepperSettings stepperSettings(FrictionModel friction, double mu, const Vec3& gravity) {
  StepperSettings s;
  s.assembly.dt = kDt;
  s.assembly.friction = friction;
  s.assembly.motion.gravity = gravity;
  s.mu = mu;
  s.envelope = 0.01;
  return s;
}

WallMotion constantMotion(const Vec3& pivot, const Vec3& velocity, const Vec3& angular_velocity) {
  WallMotion m;
  m.pivot = pivot;
  m.table.push_back({0.0, velocity, angular_velocity});
  return m;
}

TEST(MovingWall, PoseFollowsTheTableExactly) {
  WallMotion m;
  m.pivot = Vec3(1, 0, 0);
  m.table.push_back({1.0, Vec3(0, 0, 2), Vec3::Zero()});
  m.table.push_back({2.0, Vec3::Zero(), Vec3(0, 0, kPi / 2)});
  Wall w = Wall::plane(Vec3(2, 0, 0), Vec3::UnitX(), "lid");
  w.motion = m;
  // At rest before the first row, then 2 m/s up for 1 s, then a quarter
  // turn about z through the raised pivot within 1 s.
  EXPECT_TRUE(wallAt(w, 0.5).point.isApprox(Vec3(2, 0, 0)));
  EXPECT_TRUE(wallAt(w, 1.5).point.isApprox(Vec3(2, 0, 1)));
  const Wall turned = wallAt(w, 3.0);
  EXPECT_LT((turned.point - Vec3(1, 1, 2)).norm(), 1e-12);
  EXPECT_LT((turned.normal - Vec3::UnitY()).norm(), 1e-12);
  EXPECT_LT((turned.velocity.at(Vec3(1, 1, 2)) - Vec3(-kPi / 2, 0, 0)).norm(), 1e-12);
}

TEST(MovingWall, ARisingFloorLiftsASphere) {
  const double speed = 0.3;
  Wall floor = Wall::plane(Vec3::Zero(), Vec3::UnitZ(), "piston");
  floor.motion = constantMotion(Vec3::Zero(), Vec3(0, 0, speed), Vec3::Zero());
  BodyDomain domain(Tpetra::getDefaultComm(), {makeSphere(0, kRadius, kMass, Vec3(0, 0, kRadius))});
  TimeStepper stepper(stepperSettings(FrictionModel::Frictionless, 0.0, Vec3::Zero()), {floor},
                      accurateSolver(FrictionModel::Frictionless));
  const int steps = 200;
  for (int k = 0; k < steps; ++k) stepper.step(domain, k);
  const Body& b = domain.bodies()[0];
  EXPECT_NEAR(b.velocity.z(), speed, 1e-9);
  EXPECT_NEAR(b.position.z(), kRadius + speed * steps * kDt, 1e-9);
  EXPECT_NEAR(stepper.time(), steps * kDt, 1e-12);
  EXPECT_NEAR(stepper.stepWalls()[0].point.z(), speed * (steps - 1) * kDt, 1e-12);
}

TEST(MovingWall, ASphereOnABeltSlidesThenRollsWithTheBelt) {
  // Slow and smooth: a sliding contact hovers by dt mu |slip| per step (the
  // relaxed cone complementarity, docs/model.md), which gravity has to undo.
  const double belt = 0.05, mu = 0.1;
  Wall plane = Wall::plane(Vec3::Zero(), Vec3::UnitZ(), "belt");
  plane.load_name = "belt";
  plane.motion = constantMotion(Vec3::Zero(), Vec3(belt, 0, 0), Vec3::Zero());
  BodyDomain domain(Tpetra::getDefaultComm(), {makeSphere(0, kRadius, kMass, Vec3(0, 0, kRadius))});
  TimeStepper stepper(stepperSettings(FrictionModel::Coulomb, mu, Vec3(0, 0, -kG)), {plane},
                      accurateSolver(FrictionModel::Coulomb));
  const Body& b = domain.bodies()[0];
  // Sliding: the belt drags the sphere at mu g, and the sphere drags the belt back.
  StepReport report;
  const int sliding = 10;  // < 2 V / (7 mu g) = 14.6 ms
  for (int k = 0; k < sliding; ++k) report = stepper.step(domain, k);
  // (1 %: in some steps the hover leaves the sphere just clear of the belt)
  EXPECT_NEAR(b.velocity.x(), mu * kG * sliding * kDt, 0.01 * mu * kG * sliding * kDt);
  ASSERT_EQ(report.wall_loads.size(), 1u);
  EXPECT_NEAR(report.wall_loads[0].force.x(), -mu * kMass * kG, 1e-6);
  EXPECT_NEAR(report.wall_loads[0].force.z(), -kMass * kG, 1e-6);
  // Rolling: the contact point moves with the belt, the centre at 2/7 of it.
  for (int k = sliding; k < 200; ++k) report = stepper.step(domain, k);
  const Vec3 contact_point = b.velocity + b.angular_velocity.cross(Vec3(0, 0, -kRadius));
  EXPECT_NEAR(contact_point.x(), belt, 1e-6);
  EXPECT_NEAR(b.velocity.x(), 2.0 / 7.0 * belt, 1e-6);
  EXPECT_NEAR(report.wall_loads[0].force.x(), 0.0, 1e-6);
  EXPECT_NEAR(b.position.z(), kRadius, 1e-4);
}

TEST(MovingWall, ASphereTurnsWithADrumAndLoadsIt) {
  const double drum = 0.5, omega = 1.0, r = 0.05;
  Wall cylinder = Wall::cylinder(Vec3::Zero(), Vec3::UnitX(), drum, /*inside=*/true, "drum");
  cylinder.load_name = "drum";
  cylinder.motion = constantMotion(Vec3::Zero(), Vec3::Zero(), Vec3(omega, 0, 0));
  BodyDomain domain(Tpetra::getDefaultComm(), {makeSphere(0, r, kMass, Vec3(0, 0, r - drum))});
  StepperSettings settings = stepperSettings(FrictionModel::CoulombRolling, 5.0, Vec3(0, 0, -kG));
  settings.assembly.rolling_friction = 2.0;  // > tan(theta): it cannot roll back down
  TimeStepper stepper(settings, {cylinder}, accurateSolver(FrictionModel::CoulombRolling));
  StepReport report;
  const int steps = 500;
  for (int k = 0; k < steps; ++k) report = stepper.step(domain, k);
  const Body& b = domain.bodies()[0];
  // The drum turns 0.5 rad; the sphere lags only by the few steps friction
  // needs to bring it up to speed.
  const double theta = std::atan2(b.position.y(), -b.position.z());
  EXPECT_NEAR(theta, omega * steps * kDt, 0.01);
  EXPECT_NEAR(b.angular_velocity.x(), omega, 1e-3);
  EXPECT_NEAR(Vec3(0, b.position.y(), b.position.z()).norm(), drum - r, 1e-4);
  ASSERT_EQ(report.wall_loads.size(), 1u);
  const double torque = -kMass * kG * (drum - r) * std::sin(theta);
  EXPECT_NEAR(report.wall_loads[0].torque.x(), torque, 0.01 * std::abs(torque));
}

TEST(MovingWall, WithoutRollingResistanceTheSphereRollsAtTheBottom) {
  const double drum = 0.5, omega = 1.0, r = 0.05;
  Wall cylinder = Wall::cylinder(Vec3::Zero(), Vec3::UnitX(), drum, /*inside=*/true, "drum");
  cylinder.motion = constantMotion(Vec3::Zero(), Vec3::Zero(), Vec3(omega, 0, 0));
  BodyDomain domain(Tpetra::getDefaultComm(), {makeSphere(0, r, kMass, Vec3(0, 0, r - drum))});
  TimeStepper stepper(stepperSettings(FrictionModel::Coulomb, 5.0, Vec3(0, 0, -kG)), {cylinder},
                      accurateSolver(FrictionModel::Coulomb));
  for (int k = 0; k < 500; ++k) stepper.step(domain, k);
  // Rolling, it climbs only a little (a ball in a turning drum rocks about
  // the bottom); its contact point moves with the drum.
  const Body& b = domain.bodies()[0];
  const double theta = std::atan2(b.position.y(), -b.position.z());
  EXPECT_LT(std::abs(theta), 0.25);
  const Vec3 to_contact = r * Vec3(0, b.position.y(), b.position.z()).normalized();
  const Vec3 surface = Vec3(omega, 0, 0).cross(b.position + to_contact);
  // (to O(dt) of the contact frame turning within the step)
  EXPECT_LT((b.velocity + b.angular_velocity.cross(to_contact) - surface).norm(),
            1e-5 * omega * drum);
}

}  // namespace
}  // namespace grains
