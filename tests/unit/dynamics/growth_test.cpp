// Growing and dividing rods (Palmer et al. (2025) section 4.3, grains/dynamics/growth.hpp):
// exponential length, unique ids, division conserving the extent, growth
// entering the contact solve as a prescribed velocity (a cell growing against
// a wall), and a deterministic two-cell colony.
#include "grains/dynamics/growth.hpp"
#include "grains/dynamics/time_stepper.hpp"

#include <gtest/gtest.h>
#include <Tpetra_Core.hpp>

#include <cmath>
#include <set>

namespace grains {
namespace {

// Palmer et al. (2025) section 4.3: diameter 0.5, tip-to-tip l0 = 2.
Body cell(GlobalId gid, const Vec3& position, const Vec3& axis, double rate = 1.0) {
  Body b = makeSpherocylinder(gid, 0.25, 0.75, 1.0, position, axis);
  b.growth_rate = rate;
  return b;
}

Vec3 axisOf(const Body& b) { return b.orientation * Vec3::UnitZ(); }

StepperSettings colonySettings(double dt, bool planar) {
  StepperSettings s;
  s.assembly.dt = dt;
  s.assembly.motion.overdamped = true;
  s.assembly.motion.planar = planar;
  s.method = ConstraintMethod::Relcp;
  s.envelope = 0.05;
  s.overlap_tolerance = 1e-6;
  s.max_recursions = 30;
  GrowthSettings g;
  g.division_length = 4.0;
  g.reorientation = 0.01 * kPi / 180.0;
  g.planar = planar;
  g.roots = 2;
  s.growth = g;
  return s;
}

std::unique_ptr<Solver> makeSolver() {
  SolverSettings s;
  s.tolerance = 1e-12;
  s.max_iterations = 20000;
  return SolverRegistry::instance().create("kucera", s);
}

TEST(Growth, LengthGrowsExponentially) {
  std::vector<Body> bodies = {cell(0, Vec3::Zero(), Vec3::UnitX(), 0.7),
                              cell(1, Vec3(5, 0, 0), Vec3::UnitY(), 0.0)};
  const double mass0 = bodies[0].mass;
  for (int k = 0; k < 100; ++k) growBodies(bodies, bodies.size(), 0.01);
  EXPECT_NEAR(tipToTipLength(bodies[0]), 2.0 * std::exp(0.7), 1e-12);
  EXPECT_DOUBLE_EQ(tipToTipLength(bodies[1]), 2.0) << "a body with rate 0 does not grow";
  EXPECT_DOUBLE_EQ(bodies[0].radius, 0.25);
  // Constant density: mass follows the capsule volume pi r^2 (l - 2r) + 4/3 pi r^3.
  auto volume = [](double l) { return kPi * 0.0625 * (l - 0.5) + 4.0 / 3.0 * kPi * 0.015625; };
  EXPECT_NEAR(bodies[0].mass / mass0, volume(2.0 * std::exp(0.7)) / volume(2.0), 1e-12);
}

TEST(Growth, DaughterIdsAreUniqueOverGenerations) {
  const GlobalId roots = 3;
  std::set<GlobalId> seen = {0, 1, 2};
  std::vector<GlobalId> current = {0, 1, 2};
  for (int generation = 0; generation < 12; ++generation) {
    std::vector<GlobalId> next;
    for (GlobalId id : current)
      for (int which : {0, 1}) {
        const GlobalId child = daughterId(id, which, roots);
        EXPECT_TRUE(seen.insert(child).second) << "id " << child << " given twice";
        EXPECT_EQ(child % roots, id % roots) << "a cell keeps its root";
        next.push_back(child);
      }
    current = std::move(next);
  }
  EXPECT_EQ(seen.size(), 3u * ((1u << 13) - 1u));
  EXPECT_THROW(daughterId(std::numeric_limits<GlobalId>::max() / 2, 0, roots), std::overflow_error);
}

TEST(Growth, DivisionConservesTheExtent) {
  const Vec3 axis = Vec3(1.0, -2.0, 0.5).normalized();
  Body parent = resizedSpherocylinder(cell(4, Vec3(0.3, -1.0, 2.0), axis), 4.2);
  parent.generation = 3;
  const Vec3 tip_minus = parent.position - 0.5 * 4.2 * axis;
  const Vec3 tip_plus = parent.position + 0.5 * 4.2 * axis;
  GrowthSettings exact;
  exact.roots = 5;
  std::vector<Body> bodies = {parent};
  EXPECT_EQ(divideCells(bodies, exact), 1);
  ASSERT_EQ(bodies.size(), 2u);
  for (const Body& d : bodies) {
    EXPECT_NEAR(tipToTipLength(d), 2.1, 1e-14);
    EXPECT_EQ(d.generation, 4);
    EXPECT_NEAR((axisOf(d) - axis).norm(), 0.0, 1e-14);
    EXPECT_DOUBLE_EQ(d.growth_rate, 1.0);
  }
  EXPECT_EQ(bodies[0].gid, 4 + 5 * 1);
  EXPECT_EQ(bodies[1].gid, 4 + 5 * 2);
  // Outer tips are the parent's tips; inner tips meet at the parent's centre.
  EXPECT_NEAR((bodies[0].position - 1.05 * axis - tip_minus).norm(), 0.0, 1e-14);
  EXPECT_NEAR((bodies[1].position + 1.05 * axis - tip_plus).norm(), 0.0, 1e-14);
  EXPECT_NEAR((bodies[0].position + 1.05 * axis - parent.position).norm(), 0.0, 1e-14);
  EXPECT_NEAR(bodyBody(bodies[0], bodies[1]).gap, 0.0, 1e-12);

  // With the random turn: each daughter turns about its centre by at most
  // the configured angle, differently, and reproducibly.
  GrowthSettings turned = exact;
  turned.reorientation = 0.5 * kPi / 180.0;
  const Body a = daughterCell(parent, 0, turned), b = daughterCell(parent, 1, turned);
  for (const Body& d : {a, b}) {
    const double angle = std::acos(std::min(1.0, axisOf(d).dot(axis)));
    EXPECT_LE(angle, turned.reorientation + 1e-12);
    EXPECT_GT(angle, 0.0);
  }
  EXPECT_GT((axisOf(a) - axisOf(b)).norm(), 0.0);
  EXPECT_EQ(daughterCell(parent, 0, turned).orientation.coeffs(), a.orientation.coeffs());
  EXPECT_NEAR((a.position - bodies[0].position).norm(), 0.0, 1e-14);
  // Cells shorter than the division length stay as they are.
  std::vector<Body> short_cells = {cell(0, Vec3::Zero(), Vec3::UnitX())};
  EXPECT_EQ(divideCells(short_cells, exact), 0);
  EXPECT_EQ(short_cells.size(), 1u);
}

// A cell with its +x tip on a wall: the wall holds the tip, so the centre
// moves back by half the length gained in each step, and the contact force is
// the drag of that motion, xi l (dl / 2) / dt (overdamped, eq. 27 mobility
// at the grown length).
TEST(Growth, CellGrowingAgainstAWallPushesItselfBack) {
  const Wall wall = Wall::plane(Vec3(1.0, 0.0, 0.0), -Vec3::UnitX());
  BodyDomain domain(Tpetra::getDefaultComm(), {cell(0, Vec3::Zero(), Vec3::UnitX())});
  const double dt = 0.01;
  StepperSettings s = colonySettings(dt, false);
  s.growth->roots = 1;
  TimeStepper stepper(s, {wall}, makeSolver());
  double length = 2.0;
  for (int step = 0; step < 50; ++step) {
    const StepReport report = stepper.step(domain, step);
    ASSERT_TRUE(report.solve.converged);
    const double grown = length * std::exp(dt);
    const Body& b = domain.bodies()[0];
    EXPECT_NEAR(tipToTipLength(b), grown, 1e-12);
    EXPECT_NEAR(b.position.x() + 0.5 * grown, 1.0, 1e-9) << "the tip stays on the wall";
    EXPECT_NEAR(b.position.y(), 0.0, 1e-12);
    EXPECT_NEAR(b.contact_force.x(), -grown * 0.5 * (grown - length) / dt, 1e-6);
    length = grown;
  }
}

// A free cell grows about its fixed centre and divides after ln 2 / g.
TEST(Growth, FreeCellDividesAtTheDivisionLength) {
  BodyDomain domain(Tpetra::getDefaultComm(), {cell(0, Vec3::Zero(), Vec3::UnitX())});
  const double dt = 0.01;
  StepperSettings s = colonySettings(dt, true);
  s.growth->roots = 1;
  TimeStepper stepper(s, {}, makeSolver());
  const int division_step = static_cast<int>(std::ceil(std::log(2.0) / dt));  // l >= 4 first
  for (int step = 0; step < division_step; ++step) {
    const StepReport report = stepper.step(domain, step);
    const bool divides = step + 1 == division_step;
    EXPECT_EQ(report.divisions, divides ? 1 : 0) << "step " << step;
    EXPECT_EQ(report.bodies, divides ? 2 : 1) << "step " << step;
    if (!divides) {
      EXPECT_NEAR(domain.bodies()[0].position.norm(), 0.0, 1e-12);
    }
  }
  ASSERT_EQ(domain.numOwned(), 2u);
  const double parent = 2.0 * std::exp(division_step * dt);
  EXPECT_NEAR(domain.bodies()[0].position.x(), -0.25 * parent, 1e-12);
  EXPECT_NEAR(domain.bodies()[1].position.x(), 0.25 * parent, 1e-12);
  // The daughters grow into each other and push apart.
  for (int step = division_step; step < division_step + 10; ++step) {
    const StepReport report = stepper.step(domain, step);
    EXPECT_LT(report.max_true_overlap, 1e-6);
  }
  EXPECT_LT(domain.bodies()[0].position.x(), -0.25 * parent - 0.05);
  EXPECT_GT(domain.bodies()[1].position.x(), 0.25 * parent + 0.05);
}

struct ColonyState {
  std::vector<long> counts;  ///< bodies after each step
  std::vector<Body> bodies;
  double worst_overlap = 0.0;
};

ColonyState growTwoCells(int steps) {
  // Two parallel cells side by side, touching along their length.
  BodyDomain domain(Tpetra::getDefaultComm(), {cell(0, Vec3(0, -0.25, 0), Vec3::UnitX()),
                                               cell(1, Vec3(0.1, 0.25, 0), Vec3::UnitX())});
  TimeStepper stepper(colonySettings(0.02, true), {}, makeSolver());
  ColonyState out;
  for (int step = 0; step < steps; ++step) {
    const StepReport report = stepper.step(domain, step);
    out.counts.push_back(report.bodies);
    out.worst_overlap = std::max(out.worst_overlap, report.max_true_overlap);
  }
  out.bodies.assign(domain.bodies().begin(),
                    domain.bodies().begin() + static_cast<long>(domain.numOwned()));
  return out;
}

TEST(Growth, TwoCellColonyGrowsAndDividesDeterministically) {
  const int steps = 80;  // two doublings at g = 1 take 2 ln 2 = 1.39 s = 70 steps
  const ColonyState first = growTwoCells(steps), second = growTwoCells(steps);
  const int doubling = static_cast<int>(std::ceil(std::log(2.0) / 0.02));
  for (int step = 0; step < steps; ++step) {
    const long expected = step + 1 < doubling ? 2 : (step + 1 < 2 * doubling ? 4 : 8);
    EXPECT_EQ(first.counts[static_cast<std::size_t>(step)], expected) << "step " << step;
  }
  EXPECT_LT(first.worst_overlap, 1e-6);
  ASSERT_EQ(first.bodies.size(), 8u);
  ASSERT_EQ(second.bodies.size(), 8u);
  std::set<GlobalId> ids;
  for (std::size_t i = 0; i < 8; ++i) {
    const Body& a = first.bodies[i];
    const Body& b = second.bodies[i];
    ids.insert(a.gid);
    EXPECT_EQ(a.gid, b.gid);
    EXPECT_EQ(a.generation, 2);
    // Bitwise: same inputs, same arithmetic.
    EXPECT_EQ(a.position, b.position);
    EXPECT_EQ(a.orientation.coeffs(), b.orientation.coeffs());
    // The monolayer stays a monolayer.
    EXPECT_EQ(a.position.z(), 0.0);
    EXPECT_NEAR(axisOf(a).z(), 0.0, 1e-15);
  }
  EXPECT_EQ(ids.size(), 8u);
}

TEST(Growth, PlanarMotionIgnoresOutOfPlaneForces) {
  Body rod = cell(0, Vec3::Zero(), Vec3::UnitX(), 0.0);
  rod.external_force = Vec3(1.0, 0.0, 5.0);
  BodyDomain domain(Tpetra::getDefaultComm(), {rod});
  TimeStepper stepper(colonySettings(0.1, true), {}, makeSolver());
  stepper.step(domain, 0);
  EXPECT_NEAR(domain.bodies()[0].position.x(), 0.1 * 1.0 / 2.0, 1e-14);  // xi l = 2
  EXPECT_EQ(domain.bodies()[0].position.z(), 0.0);
}

}  // namespace
}  // namespace grains
