// A plane with a rectangular hole (a silo floor with a slot,
// docs/boundaries.md#a-rectangular-orifice): over the sheet a sphere sees the
// plane; with its centre over the hole it touches the nearest side of the
// hole, with the normal from that side's nearest point to the centre. A
// sphere narrower than the slot falls through it, one over the rim rests.
#include "grains/dynamics/time_stepper.hpp"
#include "grains/geometry/contact_geometry.hpp"
#include "grains/geometry/shape_traits.hpp"

#include <gtest/gtest.h>
#include <Tpetra_Core.hpp>

#include <cmath>
#include <limits>

namespace grains {
namespace {

/// The plane z = 0 with a 0.1 x 0.04 hole about the origin, long side along
/// (1, 1, 0) / sqrt(2).
Wall slottedFloor() {
  Wall w = Wall::disc(Vec3::Zero(), Vec3::UnitZ(), std::numeric_limits<double>::infinity(), 0.0,
                      "floor");
  w.hole_axis = Vec3(1, 1, 0).normalized();
  w.hole_half_length = 0.05;
  w.hole_half_width = 0.02;
  w.load_name = "floor";
  return w;
}

const Vec3 kU = Vec3(1, 1, 0).normalized();   // along the slot
const Vec3 kV = Vec3(-1, 1, 0).normalized();  // across it

TEST(RectangularHole, OverTheSheetThePlane) {
  const ContactGeometry g = wallSphere(slottedFloor(), 0.06 * kU + Vec3(0, 0, 0.03), 0.01);
  EXPECT_NEAR(g.gap, 0.02, 1e-15);
  EXPECT_TRUE(g.normal.isApprox(Vec3::UnitZ()));
  EXPECT_TRUE(g.point_a.isApprox(0.06 * kU));
  // Beside the slot, below the sheet: the plane from below.
  const ContactGeometry below = wallSphere(slottedFloor(), 0.03 * kV - Vec3(0, 0, 0.005), 0.01);
  EXPECT_NEAR(below.gap, -0.005, 1e-15);
  EXPECT_TRUE(below.normal.isApprox(-Vec3::UnitZ()));
}

TEST(RectangularHole, OverTheHoleTheNearestSide) {
  // 0.005 inside the short side (x = 0.05), 0.005 above: touches that side.
  const Vec3 c = 0.045 * kU + Vec3(0, 0, 0.005);
  const ContactGeometry g = wallSphere(slottedFloor(), c, 0.01);
  EXPECT_TRUE(g.point_a.isApprox(0.05 * kU));
  EXPECT_NEAR(g.gap, std::hypot(0.005, 0.005) - 0.01, 1e-15);
  EXPECT_TRUE(g.normal.isApprox((-0.005 * kU + Vec3(0, 0, 0.005)).normalized()));
  // Near a corner, 0.004 from the short side and 0.003 from the long one:
  // the long side is nearer.
  const Vec3 corner = 0.046 * kU + 0.017 * kV + Vec3(0, 0, 0.004);
  const ContactGeometry k = wallSphere(slottedFloor(), corner, 0.01);
  EXPECT_TRUE(k.point_a.isApprox(0.046 * kU + 0.02 * kV));
  EXPECT_NEAR(k.gap, 0.005 - 0.01, 1e-15);
  EXPECT_TRUE(k.normal.isApprox((-0.003 * kV + Vec3(0, 0, 0.004)).normalized()));
  // In the middle of the slot a sphere narrower than it is 0.02 from the sides.
  EXPECT_NEAR(wallSphere(slottedFloor(), Vec3::Zero(), 0.015).gap, 0.005, 1e-15);
}

/// Drops a sphere of radius r from `start` on the slotted floor for `steps`
/// steps of 1 ms; returns it, and the floor's last load in `load`.
Body drop(const Vec3& start, double r, int steps, Vec3& load) {
  StepperSettings s;
  s.assembly.dt = 1e-3;
  s.assembly.friction = FrictionModel::Frictionless;
  s.assembly.motion.gravity = Vec3(0, 0, -9.81);
  s.envelope = 0.002;
  SolverSettings solver;
  solver.tolerance = 1e-12;
  solver.max_iterations = 5000;
  BodyDomain domain(Tpetra::getDefaultComm(), {makeSphere(0, r, 1.0, start)});
  TimeStepper stepper(
      s, {slottedFloor()},
      SolverRegistry::instance().create("apgd", solver, FrictionModel::Frictionless));
  StepReport last;
  for (int k = 0; k < steps; ++k) last = stepper.step(domain, k);
  load = last.wall_loads.at(0).force;
  return domain.bodies().at(0);
}

TEST(RectangularHole, ANarrowSphereFallsThroughAndOneOnTheRimRests) {
  Vec3 load;
  // Radius 0.015 < half the slot's width: through it in 0.2 s (falls 0.2 m).
  const Body through = drop(Vec3(0, 0, 0.02), 0.015, 200, load);
  EXPECT_LT(through.position.z(), -0.15);
  EXPECT_EQ(load, Vec3::Zero());
  // Beside the slot: it lands on the sheet and rests with its weight on it.
  const Body rests = drop(0.035 * kV + Vec3(0, 0, 0.02), 0.01, 300, load);
  EXPECT_NEAR(rests.position.z(), 0.01, 1e-6);
  EXPECT_NEAR(rests.velocity.norm(), 0.0, 1e-6);
  EXPECT_NEAR(load.z(), -9.81, 1e-6);
}

}  // namespace
}  // namespace grains
