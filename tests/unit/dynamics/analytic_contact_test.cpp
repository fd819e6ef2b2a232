// Analytic checks of the inertial time stepper: resting contact forces,
// a stacked column, rolling and slipping on an incline.
#include "grains/dynamics/time_stepper.hpp"

#include <gtest/gtest.h>
#include <Tpetra_Core.hpp>

#include <cmath>

namespace grains {
namespace {

constexpr double kG = 9.81;

std::unique_ptr<Solver> makeSolver(const std::string& name, double tol = 1e-12,
                                   int max_iterations = 5000) {
  SolverSettings s;
  s.tolerance = tol;
  s.max_iterations = max_iterations;
  return SolverRegistry::instance().create(name, s);
}

StepperSettings settingsFor(double dt, FrictionModel friction, double mu, const Vec3& gravity) {
  StepperSettings s;
  s.assembly.dt = dt;
  s.assembly.friction = friction;
  s.assembly.motion.gravity = gravity;
  s.mu = mu;
  s.envelope = 0.01;
  return s;
}

class SolverParam : public ::testing::TestWithParam<std::string> {};

TEST_P(SolverParam, SphereRestingOnPlaneCarriesItsWeight) {
  const double m = 2.5, r = 0.1, dt = 1e-3;
  BodyDomain domain(Tpetra::getDefaultComm(), {makeSphere(0, r, m, Vec3(0.3, -0.2, r))});
  TimeStepper stepper(settingsFor(dt, FrictionModel::Frictionless, 0.0, Vec3(0, 0, -kG)),
                      {Wall::plane(Vec3::Zero(), Vec3::UnitZ())}, makeSolver(GetParam()));
  for (int step = 0; step < 20; ++step) {
    const auto report = stepper.step(domain, step);
    ASSERT_TRUE(report.solve.converged) << "step " << step;
    ASSERT_EQ(stepper.lastContacts().size(), 1u);
    EXPECT_NEAR(stepper.lastImpulses()[0], m * kG * dt, 1e-6 * m * kG * dt);
    EXPECT_LT(report.max_overlap, 1e-12);
  }
  const Body& b = domain.bodies()[0];
  EXPECT_NEAR(b.position.z(), r, 1e-12);
  EXPECT_NEAR(b.velocity.norm(), 0.0, 1e-10);
  EXPECT_NEAR(b.contact_force.z(), m * kG, 1e-6 * m * kG);
}

TEST_P(SolverParam, ColumnOfTenSpheresBottomContactCarriesTenWeights) {
  const double m = 1.0, r = 0.1, dt = 1e-3;
  std::vector<Body> column;
  for (int i = 0; i < 10; ++i) column.push_back(makeSphere(i, r, m, Vec3(0, 0, r + 2 * r * i)));
  BodyDomain domain(Tpetra::getDefaultComm(), column);
  TimeStepper stepper(settingsFor(dt, FrictionModel::Frictionless, 0.0, Vec3(0, 0, -kG)),
                      {Wall::plane(Vec3::Zero(), Vec3::UnitZ())},
                      makeSolver(GetParam(), 1e-13, 20000));
  for (int step = 0; step < 10; ++step) stepper.step(domain, step);
  const auto& contacts = stepper.lastContacts();
  ASSERT_EQ(contacts.size(), 10u);  // floor + 9 sphere-sphere
  for (std::size_t c = 0; c < contacts.size(); ++c) {
    // Contact below sphere k carries the weight of the 10 - k spheres above it.
    const GlobalId upper = contacts[c].key.b;
    const double expected = static_cast<double>(10 - upper) * m * kG * dt;
    EXPECT_NEAR(stepper.lastImpulses()[c], expected, 1e-6 * expected) << "contact " << c;
  }
  for (const Body& b : domain.bodies()) EXPECT_NEAR(b.velocity.norm(), 0.0, 1e-8);
}

INSTANTIATE_TEST_SUITE_P(Solvers, SolverParam, ::testing::Values("bbpgd", "apgd", "pgs"));

// Sphere on a plane tilted by theta (gravity rotated instead of the plane).
// Rolls without slipping (a = 5/7 g sin(theta)) when mu >= 2/7 tan(theta),
// slides with a = g (sin(theta) - mu cos(theta)) otherwise.
double inclineAcceleration(double theta, double mu, double* spin_ratio) {
  const double m = 1.0, r = 0.1, dt = 1e-3;
  const Vec3 gravity(kG * std::sin(theta), 0.0, -kG * std::cos(theta));
  BodyDomain domain(Tpetra::getDefaultComm(), {makeSphere(0, r, m, Vec3(0, 0, r))});
  TimeStepper stepper(settingsFor(dt, FrictionModel::Coulomb, mu, gravity),
                      {Wall::plane(Vec3::Zero(), Vec3::UnitZ())}, makeSolver("bbpgd"));
  const int steps = 200;
  for (int step = 0; step < steps; ++step) {
    const auto report = stepper.step(domain, step);
    EXPECT_TRUE(report.solve.converged);
  }
  const Body& b = domain.bodies()[0];
  EXPECT_NEAR(b.position.z(), r, 1e-3 * r) << "the sphere left the plane";
  // Rolling: omega_y * r = v_x.
  *spin_ratio = b.angular_velocity.y() * r / b.velocity.x();
  return b.velocity.x() / (steps * dt);
}

TEST(Incline, RollsWithoutSlippingWhenFrictionSuffices) {
  const double theta = 0.3;
  double spin = 0.0;
  const double a = inclineAcceleration(theta, 0.5, &spin);
  EXPECT_NEAR(a, 5.0 / 7.0 * kG * std::sin(theta), 1e-4 * kG);
  EXPECT_NEAR(spin, 1.0, 1e-4);
}

TEST(Incline, SlipsWithCoulombForceWhenFrictionIsSmall) {
  const double theta = 0.5, mu = 0.05;  // 2/7 tan(0.5) = 0.156 > mu
  double spin = 0.0;
  const double a = inclineAcceleration(theta, mu, &spin);
  EXPECT_NEAR(a, kG * (std::sin(theta) - mu * std::cos(theta)), 2e-3 * kG);
  // Friction torque mu m g cos(theta) r spins it up slower than rolling.
  EXPECT_LT(spin, 0.9);
  EXPECT_GT(spin, 0.0);
}

TEST(Incline, FrictionlessSphereSlidesWithoutSpinning) {
  double spin = 0.0;
  const double a = inclineAcceleration(0.4, 0.0, &spin);
  EXPECT_NEAR(a, kG * std::sin(0.4), 1e-6 * kG);
  EXPECT_NEAR(spin, 0.0, 1e-9);
}

}  // namespace
}  // namespace grains

namespace grains {
namespace {

// A fast sphere covers 5 radii per step here: the contact must still be seen
// before it happens (no tunnelling, no deep overlap), and the hard contact is
// perfectly inelastic (the sphere stops at the wall).
TEST(FastImpact, NoTunnellingThroughWallsOrSpheres) {
  const double r = 0.1, dt = 0.05;
  std::vector<Body> bodies{makeSphere(0, r, 1.0, Vec3(0, 0, 1.0)),
                           makeSphere(1, r, 1.0, Vec3(3.0, 0, 1.0)),
                           makeSphere(2, r, 1.0, Vec3(5.0, 0, 1.0))};
  bodies[0].velocity = Vec3(0, 0, -10.0);  // towards the floor
  bodies[1].velocity = Vec3(10.0, 0, 0);   // head-on towards body 2
  bodies[2].velocity = Vec3(-10.0, 0, 0);
  BodyDomain domain(Tpetra::getDefaultComm(), bodies);
  TimeStepper stepper(settingsFor(dt, FrictionModel::Frictionless, 0.0, Vec3::Zero()),
                      {Wall::plane(Vec3::Zero(), Vec3::UnitZ())}, makeSolver("bbpgd"));
  double max_overlap = 0.0;
  for (int step = 0; step < 10; ++step) {
    const auto report = stepper.step(domain, step);
    max_overlap = std::max(max_overlap, report.max_overlap);
    // Widened while the bodies fly, back to the configured value once at rest.
    if (step == 0) {
      EXPECT_GE(stepper.lastEnvelope(), 2.0 * dt * 10.0);
    }
  }
  EXPECT_LT(max_overlap, 1e-9);
  EXPECT_DOUBLE_EQ(stepper.lastEnvelope(), 0.01);
  const auto& b = domain.bodies();
  EXPECT_NEAR(b[0].position.z(), r, 1e-9);
  EXPECT_NEAR(b[0].velocity.norm(), 0.0, 1e-9);
  // Equal masses, perfectly inelastic: both stop, touching.
  EXPECT_NEAR((b[2].position - b[1].position).norm(), 2 * r, 1e-9);
  EXPECT_NEAR(b[1].velocity.norm() + b[2].velocity.norm(), 0.0, 1e-9);
}

}  // namespace
}  // namespace grains
