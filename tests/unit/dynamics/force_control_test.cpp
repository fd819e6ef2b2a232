// A force-controlled wall (a piston: docs/boundaries.md#force-controlled-walls)
// against its equilibrium: a piston of mass m pressed down by a force F onto
// a sphere of mass m_s resting on a floor comes to rest with the load
// F + m g on it and F + (m + m_s) g on the floor, and at rest the contacts
// are compressed by load * compliance (SPOOK, Lacoursiere (2013) eqs. 17-21).
#include "grains/dynamics/time_stepper.hpp"

#include <gtest/gtest.h>
#include <Tpetra_Core.hpp>

#include <cmath>

namespace grains {
namespace {

constexpr double kG = 9.81;
constexpr double kRadius = 0.1;
constexpr double kSphereMass = 1.0;
constexpr double kPistonMass = 0.5;
constexpr double kForce = 10.0;       // [N] pressing down
constexpr double kCompliance = 1e-4;  // [m/N]
constexpr double kDt = 1e-3;

/// The piston, 1 cm above the sphere's top, pressed down by kForce.
Wall piston() {
  Wall w = Wall::plane(Vec3(0, 0, 2 * kRadius + 0.01), -Vec3::UnitZ(), "piston");
  w.load_name = "piston";
  w.force_control.mass = kPistonMass;
  w.force_control.force = Vec3(0, 0, -kForce);
  return w;
}

/// A floor (the run's mu is 0) and `over` above the sphere.
TimeStepper pistonOverSphere(const Wall& over = piston(),
                             FrictionModel model = FrictionModel::Frictionless) {
  StepperSettings s;
  s.assembly.dt = kDt;
  s.assembly.friction = model;
  s.assembly.motion.gravity = Vec3(0, 0, -kG);
  s.assembly.compliance = kCompliance;
  s.mu = 0.0;
  s.envelope = 0.01;
  SolverSettings solver;
  solver.tolerance = 1e-12;
  solver.max_iterations = 20000;
  Wall floor = Wall::plane(Vec3::Zero(), Vec3::UnitZ(), "floor");
  floor.load_name = "floor";
  return TimeStepper(s, {floor, over}, SolverRegistry::instance().create("apgd", solver, model));
}

TEST(ForceControlledWall, APistonComesToRestWithItsForceAndWeightOnTheBed) {
  BodyDomain domain(Tpetra::getDefaultComm(),
                    {makeSphere(0, kRadius, kSphereMass, Vec3(0, 0, kRadius))});
  TimeStepper stepper = pistonOverSphere();
  StepReport last;
  for (int k = 0; k < 3000; ++k) last = stepper.step(domain, k);
  const ForceControlState& piston = stepper.forceControlStates()[1];
  const double on_piston = kForce + kPistonMass * kG;
  const double on_floor = on_piston + kSphereMass * kG;
  ASSERT_EQ(last.wall_loads.size(), 2u);
  // The bodies push the piston up and the floor down.
  EXPECT_NEAR(last.wall_loads[1].force.z(), on_piston, 1e-3 * on_piston);
  EXPECT_NEAR(last.wall_loads[0].force.z(), -on_floor, 1e-3 * on_floor);
  EXPECT_NEAR(piston.velocity, 0.0, 1e-6);
  // It moved down (along its normal -z) the 1 cm gap and compresses both
  // contacts by load * compliance.
  const double expected = 0.01 + kCompliance * (on_piston + on_floor);
  EXPECT_NEAR(piston.displacement, expected, 0.02 * kCompliance * on_floor);
  EXPECT_NEAR(stepper.placedWalls(stepper.time())[1].point.z(),
              2 * kRadius + 0.01 - piston.displacement, 1e-12);
}

TEST(ForceControlledWall, FallsFreelyUntilItTouches) {
  BodyDomain domain(Tpetra::getDefaultComm(),
                    {makeSphere(0, kRadius, kSphereMass, Vec3(0, 0, kRadius))});
  TimeStepper stepper = pistonOverSphere();
  // 20 ms: the piston (a = g + F / m = 29.81 m/s^2) falls 6 mm of its 1 cm.
  const int steps = 20;
  for (int k = 0; k < steps; ++k) stepper.step(domain, k);
  const double a = kG + kForce / kPistonMass;
  const ForceControlState& piston = stepper.forceControlStates()[1];
  // Along the piston's normal (down).
  EXPECT_NEAR(piston.velocity, a * steps * kDt, 1e-12);
  // Symplectic Euler: x_n = a dt^2 n (n - 1) / 2.
  EXPECT_NEAR(piston.displacement, a * kDt * kDt * steps * (steps - 1) / 2.0, 1e-12);
}

// A piston that also slides along itself at V (a shear cell's lid), with a
// friction of its own, over a sphere on a frictionless floor (the run's mu
// is 0). Friction at the sphere's top, the only tangential force, gives it
// momentum J and spin r J / (2/5 m r^2): v_x and omega_y r grow as 1 : 5/2
// whatever the normal load did while the piston landed. Slip ends when the
// top moves with the lid, v_x + omega_y r = V, so v_x = 2/7 V and
// omega_y r = 5/7 V, and then no friction is needed.
TEST(ForceControlledWall, ASlidingPistonDragsTheSphereUntilItsTopMovesWithIt) {
  BodyDomain domain(Tpetra::getDefaultComm(),
                    {makeSphere(0, kRadius, kSphereMass, Vec3(0, 0, kRadius))});
  const double speed = 0.2;
  Wall lid = piston();
  lid.force_control.velocity = Vec3(speed, 0, 0);
  lid.friction.mu = 0.5;
  TimeStepper stepper = pistonOverSphere(lid, FrictionModel::Coulomb);
  EXPECT_EQ(stepper.placedWalls(0.0)[1].velocity.linear, Vec3(speed, 0, 0));
  StepReport last;
  for (int k = 0; k < 3000; ++k) last = stepper.step(domain, k);
  const Body& b = domain.bodies()[0];
  EXPECT_NEAR(b.velocity.x(), 2.0 / 7.0 * speed, 1e-6 * speed);
  EXPECT_NEAR(b.angular_velocity.y() * kRadius, 5.0 / 7.0 * speed, 1e-6 * speed);
  EXPECT_NEAR(last.wall_loads[1].force.x(), 0.0, 1e-6);
  // The normal state is the piston's as without sliding: at rest on the sphere.
  EXPECT_NEAR(last.wall_loads[1].force.z(), kForce + kPistonMass * kG, 1e-3 * kForce);
  EXPECT_NEAR(stepper.forceControlStates()[1].velocity, 0.0, 1e-6);
}

TEST(ForceControlledWall, StatesAreRestoredOnePerWall) {
  TimeStepper stepper = pistonOverSphere();
  // 2 cm up (against its normal), moving down at 0.5 m/s.
  stepper.setForceControlStates({{0.0, 0.0}, {-0.02, 0.5}});
  EXPECT_NEAR(stepper.placedWalls(0.0)[1].point.z(), 2 * kRadius + 0.03, 1e-15);
  EXPECT_EQ(stepper.placedWalls(0.0)[1].velocity.linear, Vec3(0, 0, -0.5));
  EXPECT_THROW(stepper.setForceControlStates({{0.0, 0.0}}), std::invalid_argument);
}

}  // namespace
}  // namespace grains
