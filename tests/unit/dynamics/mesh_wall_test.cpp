// Mesh walls in the stepper, against rigid-body closed forms:
//   a sphere resting on a floor of two triangles: the floor carries m g;
//   a mesh floor rising at V lifts a sphere at V; a mesh belt sliding along
//   itself at V brings a sphere put at rest on it to roll at 2/7 V;
//   a sphere (J = 2/5 m r^2) rolling without slipping down a plane tilted by
//   theta accelerates at a = 5/7 g sin(theta); here the plane is a square
//   of two triangles whose shared diagonal crosses the sphere's path, and
//   the sphere rolls over it without a bump: one contact every step, no
//   velocity along the plane's normal.
#include "grains/dynamics/time_stepper.hpp"
#include "grains/geometry/triangle_mesh.hpp"

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

StepperSettings stepperSettings(double mu) {
  StepperSettings s;
  s.assembly.dt = kDt;
  s.assembly.friction = FrictionModel::Coulomb;
  s.assembly.motion.gravity = Vec3(0, 0, -kG);
  s.mu = mu;
  s.envelope = 0.01;
  return s;
}

/// The square u, v in [-1, 1] spanned by `along` and `across` about the
/// origin, as two triangles sharing the diagonal u = v.
std::vector<std::array<Vec3, 3>> square(const Vec3& along, const Vec3& across) {
  auto at = [&](double u, double v) { return Vec3(u * along + v * across); };
  return {{at(-1, -1), at(1, -1), at(1, 1)}, {at(-1, -1), at(1, 1), at(-1, 1)}};
}

TEST(MeshWall, ASphereRestingOnAMeshFloorLoadsItWithItsWeight) {
  Wall floor = meshWall(square(Vec3::UnitX(), Vec3::UnitY()), "floor");
  floor.load_name = "floor";
  // On the shared diagonal, where both triangles reach the sphere.
  BodyDomain domain(Tpetra::getDefaultComm(),
                    {makeSphere(0, kRadius, kMass, Vec3(0.2, 0.2, kRadius))});
  TimeStepper stepper(stepperSettings(0.5), {floor}, accurateSolver(FrictionModel::Coulomb));
  StepReport report;
  for (int k = 0; k < 50; ++k) {
    report = stepper.step(domain, k);
    EXPECT_EQ(report.contacts, 1) << "step " << k;
  }
  ASSERT_EQ(report.wall_loads.size(), 1u);
  // (to the solver's tolerance)
  EXPECT_NEAR(report.wall_loads[0].force.z(), -kMass * kG, 1e-6);
  EXPECT_NEAR(report.wall_loads[0].force.head<2>().norm(), 0.0, 1e-6);
  // About the pivot (the origin): r x F with r = (0.2, 0.2, 0).
  EXPECT_LT((report.wall_loads[0].torque - Vec3(-0.2, 0.2, 0) * kMass * kG).norm(), 1e-6);
  EXPECT_NEAR(domain.bodies()[0].position.z(), kRadius, 1e-9);
}

TEST(MeshWall, ASphereRollsAcrossTheSharedEdgeWithoutABump) {
  const double theta = 20.0 * kPi / 180.0;
  const Vec3 downhill(std::cos(theta), 0, -std::sin(theta));
  const Vec3 across = Vec3::UnitY();
  const Vec3 normal = downhill.cross(across);  // (sin, 0, cos): up the slope's side
  Wall slope = meshWall(square(downhill, across), "slope");
  slope.load_name = "slope";
  // From (u, v) = (-0.8, -0.4) straight downhill: the sphere is over the
  // second triangle (v > u) and crosses the diagonal at u = -0.4, after
  // 0.4 m (0.58 s at 5/7 g sin(theta)).
  const Vec3 start = -0.8 * downhill - 0.4 * across + kRadius * normal;
  BodyDomain domain(Tpetra::getDefaultComm(), {makeSphere(0, kRadius, kMass, start)});
  TimeStepper stepper(stepperSettings(0.5), {slope}, accurateSolver(FrictionModel::Coulomb));
  const double a = 5.0 / 7.0 * kG * std::sin(theta);
  const int steps = 800;
  const Body& b = domain.bodies()[0];
  double max_normal_speed = 0.0, max_height_error = 0.0;
  for (int k = 0; k < steps; ++k) {
    const StepReport report = stepper.step(domain, k);
    ASSERT_EQ(report.contacts, 1) << "step " << k;
    max_normal_speed = std::max(max_normal_speed, std::abs(b.velocity.dot(normal)));
    max_height_error = std::max(max_height_error, std::abs((b.position).dot(normal) - kRadius));
  }
  const double t = steps * kDt;
  const double travelled = (b.position - start).dot(downhill);
  EXPECT_GT(travelled, 0.5) << "the sphere must cross the diagonal";
  EXPECT_NEAR(b.velocity.dot(downhill), a * t, 0.01 * a * t);
  EXPECT_NEAR(travelled, 0.5 * a * t * t, 0.01 * 0.5 * a * t * t);
  EXPECT_NEAR((b.position - start).dot(across), 0.0, 1e-9);
  EXPECT_LT(max_normal_speed, 1e-9);
  EXPECT_LT(max_height_error, 1e-9);
}

TEST(MeshWall, AMovingMeshLiftsAndDragsASphere) {
  const double speed = 0.3, belt = 0.5;
  Wall piston = meshWall(square(Vec3::UnitX(), Vec3::UnitY()), "piston");
  piston.motion.table.push_back({0.0, Vec3(belt, 0, speed), Vec3::Zero()});
  BodyDomain domain(Tpetra::getDefaultComm(),
                    {makeSphere(0, kRadius, kMass, Vec3(0.1, 0.3, kRadius))});
  StepperSettings settings = stepperSettings(0.5);
  TimeStepper stepper(settings, {piston}, accurateSolver(FrictionModel::Coulomb));
  const int steps = 200;
  for (int k = 0; k < steps; ++k) stepper.step(domain, k);
  const Body& b = domain.bodies()[0];
  // Lifted with the floor; dragged until its contact point moves with the
  // floor (after 2 V / (7 mu g) = 29 ms), then rolling at 2/7 of its speed.
  EXPECT_NEAR(b.velocity.z(), speed, 1e-6);
  EXPECT_NEAR(b.position.z(), kRadius + speed * steps * kDt, 1e-4);
  EXPECT_NEAR(b.velocity.x(), 2.0 / 7.0 * belt, 1e-6);
  const Vec3 contact_point = b.velocity + b.angular_velocity.cross(Vec3(0, 0, -kRadius));
  EXPECT_NEAR(contact_point.x(), belt, 1e-6);
}

}  // namespace
}  // namespace grains
