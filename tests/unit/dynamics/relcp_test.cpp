// Overdamped local-drag dynamics (Palmer et al. (2025) eqs. 9 and 27) and the ReLCP
// recursion (Palmer et al. (2025) eqs. 20-26) on spherocylinders against a floor: the
// single deepest-point constraint lets a falling rod's free end sink through
// the floor at a large step, ReLCP does not, and ReLCP reduces to one LCP at
// small steps.
#include "grains/dynamics/time_stepper.hpp"

#include <gtest/gtest.h>
#include <Tpetra_Core.hpp>

#include <cmath>
#include <stdexcept>

namespace grains {
namespace {

std::unique_ptr<Solver> makeSolver() {
  SolverSettings s;
  s.tolerance = 1e-12;
  s.max_iterations = 20000;
  return SolverRegistry::instance().create("apgd", s);
}

StepperSettings overdamped(double dt, ConstraintMethod method) {
  StepperSettings s;
  s.assembly.dt = dt;
  s.assembly.motion.overdamped = true;
  s.assembly.motion.drag = 1.0;
  s.method = method;
  s.envelope = 0.05;
  s.overlap_tolerance = 1e-6;
  s.max_recursions = 30;
  return s;
}

// Inertial ReLCP under gravity at a long step (Palmer et al. (2025) eq. 26).
StepperSettings inertialRelcp(double envelope, double overlap_tolerance) {
  StepperSettings s;
  s.assembly.dt = 0.02;
  s.assembly.motion.gravity = Vec3(0, 0, -9.81);
  s.method = ConstraintMethod::Relcp;
  s.envelope = envelope;
  s.overlap_tolerance = overlap_tolerance;
  return s;
}

const Wall kFloor = Wall::plane(Vec3::Zero(), Vec3::UnitZ());

// Steps [first, last) and the worst true overlap and most LCP solves of a step.
struct RunSummary {
  double worst_overlap = 0.0;
  int most_recursions = 0;
};
RunSummary runSteps(TimeStepper& stepper, BodyDomain& domain, int first, int last) {
  RunSummary summary;
  for (int step = first; step < last; ++step) {
    const auto report = stepper.step(domain, step);
    summary.worst_overlap = std::max(summary.worst_overlap, report.max_true_overlap);
    summary.most_recursions = std::max(summary.most_recursions, report.recursions);
  }
  return summary;
}

// A rod of half-length 1 and radius 0.1 tilted by `tilt` from the floor,
// its lower cap touching it, pushed down at its centre by a unit force.
Body tiltedRod(double tilt) {
  const double h = 1.0, r = 0.1;
  const Vec3 axis(std::cos(tilt), 0.0, std::sin(tilt));
  Body rod = makeSpherocylinder(0, r, h, 1.0, Vec3(0, 0, r + h * std::sin(tilt)), axis);
  rod.external_force = Vec3(0, 0, -1);
  return rod;
}

TEST(Overdamped, FreeBodyDriftsWithLocalDragMobility) {
  Body rod = makeSpherocylinder(0, 0.1, 0.9, 3.0, Vec3(1, 2, 3), Vec3(1, 1, 0));
  rod.external_force = Vec3(0.5, -1.0, 2.0);
  BodyDomain domain(Tpetra::getDefaultComm(), {rod});
  StepperSettings s = overdamped(0.1, ConstraintMethod::Single);
  s.assembly.motion.drag = 2.0;
  TimeStepper stepper(s, {}, makeSolver());
  stepper.step(domain, 0);
  const double length = 2.0 * (0.9 + 0.1);  // tip to tip, Palmer et al. (2025) eq. 27's l
  const Vec3 expected = Vec3(1, 2, 3) + 0.1 * rod.external_force / (2.0 * length);
  EXPECT_NEAR((domain.bodies()[0].position - expected).norm(), 0.0, 1e-14);
  EXPECT_NEAR(domain.bodies()[0].velocity.x(), 0.5 / (2.0 * length), 1e-14);
  EXPECT_NEAR(domain.bodies()[0].orientation.angularDistance(rod.orientation), 0.0, 1e-14);
}

TEST(Overdamped, RodLyingOnTheFloorCarriesTheForce) {
  Body rod = makeSpherocylinder(0, 0.1, 1.0, 1.0, Vec3(0, 0, 0.1), Vec3::UnitX());
  rod.external_force = Vec3(0, 0, -3.0);
  BodyDomain domain(Tpetra::getDefaultComm(), {rod});
  TimeStepper stepper(overdamped(0.5, ConstraintMethod::Relcp), {kFloor}, makeSolver());
  for (int step = 0; step < 5; ++step) {
    const auto report = stepper.step(domain, step);
    ASSERT_TRUE(report.solve.converged);
    EXPECT_LT(report.max_true_overlap, 1e-6);
  }
  const Body& b = domain.bodies()[0];
  EXPECT_NEAR(b.position.z(), 0.1, 1e-9);
  EXPECT_NEAR(b.contact_force.z(), 3.0, 1e-8);
  EXPECT_NEAR(b.velocity.norm(), 0.0, 1e-9);
}

// The Palmer et al. (2025) figure 2 mechanism: the constraint at the lower cap leaves the
// rotation unconstrained, and at a large step the free end swings through the
// floor. ReLCP adds a constraint where the reached configuration overlaps.
TEST(Relcp, LargeStepSingleConstraintSinksReLcpDoesNot) {
  const double dt = 2.0;
  BodyDomain single_domain(Tpetra::getDefaultComm(), {tiltedRod(kPi / 6)});
  TimeStepper single(overdamped(dt, ConstraintMethod::Single), {kFloor}, makeSolver());
  const auto single_report = single.step(single_domain, 0);
  EXPECT_GT(single_report.max_true_overlap, 0.05) << "the free end should sink";

  BodyDomain relcp_domain(Tpetra::getDefaultComm(), {tiltedRod(kPi / 6)});
  TimeStepper relcp(overdamped(dt, ConstraintMethod::Relcp), {kFloor}, makeSolver());
  const auto report = relcp.step(relcp_domain, 0);
  EXPECT_TRUE(report.relcp_resolved);
  EXPECT_GE(report.recursions, 2);
  EXPECT_GE(report.relcp_added, 1);
  EXPECT_LT(report.max_true_overlap, 1e-6);
  // The re-solve with the added constraint iterates on top of the first solve.
  EXPECT_GE(report.first_solve_iterations, 1);
  EXPECT_LT(report.first_solve_iterations, report.solve.iterations);
  // Every constraint of the pair is kept: one from the start, then one per
  // recursion that found an overlap, told apart by the key's sub index.
  const auto& contacts = relcp.lastContacts();
  ASSERT_EQ(static_cast<long>(contacts.size()), 1 + report.relcp_added);
  for (std::size_t k = 0; k < contacts.size(); ++k) {
    EXPECT_EQ(contacts[k].generation, static_cast<int>(k));
    EXPECT_EQ(contacts[k].key.sub, static_cast<std::int64_t>(k));
  }
  // At smaller steps the rod comes to lie flat on the floor, pressed by the
  // force. (At this large step it stalls tilted: the constraint linearised
  // at the strongly rotated intermediate configuration holds the free end up,
  // an artefact of the linearisation that vanishes as dt -> 0.)
  TimeStepper fine(overdamped(0.05, ConstraintMethod::Relcp), {kFloor}, makeSolver());
  for (int step = 1; step < 150; ++step) {
    const auto r = fine.step(relcp_domain, step);
    EXPECT_LT(r.max_true_overlap, 1e-6) << "step " << step;
  }
  const Body& b = relcp_domain.bodies()[0];
  const Vec3 axis = b.orientation * Vec3::UnitZ();
  EXPECT_NEAR(axis.z(), 0.0, 1e-5);
  EXPECT_NEAR(b.position.z(), 0.1, 1e-5);
  EXPECT_NEAR(b.contact_force.z(), 1.0, 1e-6);
}

// ReLCP with Coulomb friction: the appended constraints are full friction
// contacts (normal and two tangents), the final impulses lie in the cone, the
// friction is active, and the free end still stays out of the floor.
TEST(Relcp, AppendedConstraintsCarryCoulombFriction) {
  Body rod = tiltedRod(kPi / 6);
  rod.external_force = Vec3(0.4, 0.1, -1.0);
  BodyDomain domain(Tpetra::getDefaultComm(), {rod});
  StepperSettings s = overdamped(2.0, ConstraintMethod::Relcp);
  s.assembly.friction = FrictionModel::Coulomb;
  s.mu = 0.5;
  TimeStepper stepper(s, {kFloor}, makeSolver());
  const auto report = stepper.step(domain, 0);
  ASSERT_TRUE(report.solve.converged);
  EXPECT_TRUE(report.relcp_resolved);
  EXPECT_GE(report.relcp_added, 1);
  EXPECT_LT(report.max_true_overlap, 1e-6);
  const auto& contacts = stepper.lastContacts();
  const auto& impulses = stepper.lastImpulses();
  ASSERT_EQ(impulses.size(), 3 * contacts.size());
  double friction = 0.0;
  for (std::size_t c = 0; c < contacts.size(); ++c) {
    const double n = impulses[3 * c];
    const double t = std::hypot(impulses[3 * c + 1], impulses[3 * c + 2]);
    EXPECT_GE(n, -1e-12) << "contact " << c;
    EXPECT_LE(t, 0.5 * n * (1.0 + 1e-6) + 1e-12) << "contact " << c << " outside the cone";
    friction += t;
  }
  EXPECT_GT(friction, 1e-3) << "the push along the floor should engage friction";
  // The floor's total force balances the applied one only partly (the rod
  // moves), but its normal part never pulls and friction opposes the push.
  EXPECT_LT(domain.bodies()[0].contact_force.x(), 0.0);
  EXPECT_GT(domain.bodies()[0].contact_force.z(), 0.0);
}

TEST(Relcp, SmallStepNeedsNoRecursion) {
  BodyDomain domain(Tpetra::getDefaultComm(), {tiltedRod(kPi / 6)});
  StepperSettings s = overdamped(1e-3, ConstraintMethod::Relcp);
  s.overlap_tolerance = 1e-5;
  TimeStepper stepper(s, {kFloor}, makeSolver());
  for (int step = 0; step < 50; ++step) {
    const auto report = stepper.step(domain, step);
    EXPECT_EQ(report.recursions, 1) << "step " << step;
    EXPECT_LT(report.max_true_overlap, 1e-5);
  }
}

TEST(Relcp, StopsAtMaxRecursionsAndSaysSo) {
  BodyDomain domain(Tpetra::getDefaultComm(), {tiltedRod(kPi / 6)});
  StepperSettings s = overdamped(2.0, ConstraintMethod::Relcp);
  s.max_recursions = 1;
  TimeStepper stepper(s, {kFloor}, makeSolver());
  const auto report = stepper.step(domain, 0);
  EXPECT_EQ(report.recursions, 1);
  EXPECT_FALSE(report.relcp_resolved);
  EXPECT_GT(report.max_true_overlap, 0.05);
}

// Inertial ReLCP (Palmer et al. (2025) eq. 26): a tilted rod dropped on the floor with a
// long step bounces no free end through it.
TEST(Relcp, InertialRodDroppedOnTheFloorStaysAbove) {
  Body rod = tiltedRod(kPi / 5);
  rod.external_force = Vec3::Zero();
  rod.position.z() += 0.05;
  BodyDomain domain(Tpetra::getDefaultComm(), {rod});
  TimeStepper stepper(inertialRelcp(0.05, 1e-6), {kFloor}, makeSolver());
  const RunSummary run = runSteps(stepper, domain, 0, 60);
  EXPECT_LT(run.worst_overlap, 1e-6);
  EXPECT_GE(run.most_recursions, 2) << "the free end's swing should need a recursion";
  const Vec3 axis = domain.bodies()[0].orientation * Vec3::UnitZ();
  EXPECT_LT(std::abs(axis.z()), 0.05) << "the rod should end up lying down";
}

// Without the adaptive envelope (contact.adaptive_envelope: false) a lattice
// falling at a common 10 m/s constrains nothing speculatively (no pair comes
// closer within the step), while the adaptive envelope takes every neighbour;
// the recursion still adds each contact the impact creates: nine columns of
// three spheres (0.05 m apart sideways) end stacked exactly on the floor.
// 3 x 3 x 3 spheres of radius r, 0.25 apart in x and y and `layers` apart
// in z from z = 0.5 up, all falling at 10 m/s.
std::vector<Body> fallingLattice(double r, double layers) {
  std::vector<Body> bodies;
  for (int k = 0; k < 3; ++k)
    for (int j = 0; j < 3; ++j)
      for (int i = 0; i < 3; ++i) {
        Body b = makeSphere(static_cast<GlobalId>(bodies.size()), r, 1.0,
                            Vec3(0.25 * i, 0.25 * j, 0.5 + layers * k));
        b.velocity = Vec3(0, 0, -10);
        bodies.push_back(b);
      }
  return bodies;
}

TEST(Relcp, FixedEnvelopeLeavesTheContactsOfTheStepToTheRecursion) {
  const double r = 0.1;
  auto lattice = [r] { return fallingLattice(r, 0.25); };
  StepperSettings s = inertialRelcp(0.01, 1e-5);
  {
    BodyDomain domain(Tpetra::getDefaultComm(), lattice());
    TimeStepper adaptive(s, {kFloor}, makeSolver());
    EXPECT_GE(adaptive.step(domain, 0).contacts, 9 * 2 + 9) << "columns and floor speculatively";
  }
  s.adaptive_envelope = false;
  s.predict_contacts = false;  // every contact the step creates is the recursion's
  StepperSettings single = s;
  single.method = ConstraintMethod::Single;
  EXPECT_THROW(TimeStepper(single, {kFloor}, makeSolver()), std::invalid_argument);
  BodyDomain domain(Tpetra::getDefaultComm(), lattice());
  TimeStepper fixed(s, {kFloor}, makeSolver());
  EXPECT_EQ(fixed.step(domain, 0).contacts, 0);
  const RunSummary run = runSteps(fixed, domain, 1, 60);
  EXPECT_LT(run.worst_overlap, 1e-5);
  EXPECT_GE(run.most_recursions, 2) << "the impacts should have needed recursions";
  EXPECT_EQ(fixed.assemblyMapBuilds(), 1)
      << "one rank, same bodies: every step and recursion should reuse the first maps";
  EXPECT_EQ(fixed.haloMapBuilds(), 1);
  for (const Body& b : domain.bodies()) {
    const double level = std::round((b.position.z() - r) / (2 * r));
    EXPECT_NEAR(b.position.z(), r + 2 * r * level, 1e-4) << "body " << b.gid;
    EXPECT_LT(b.velocity.norm(), 1e-3) << "body " << b.gid;
  }
}

// The same lattice falling at 10 m/s with predicted contacts: the pairs the
// free motion closes within a step are constrained before the first solve,
// so the impacts need fewer LCP solves; the pile ends in the same state.
TEST(Relcp, PredictedContactsSpareTheImpactsTheirReSolves) {
  const double r = 0.1;
  const std::vector<Body> lattice = fallingLattice(r, 0.3);
  // Layers 0.3 apart, all falling at the same speed: only the floor (and then
  // the layers landing on it) come closer, and a layer meets the one below
  // only after that one has stopped.
  int solves[2] = {0, 0};
  for (const bool predict : {false, true}) {
    StepperSettings s = inertialRelcp(0.01, 1e-5);
    s.adaptive_envelope = false;
    s.predict_contacts = predict;
    BodyDomain domain(Tpetra::getDefaultComm(), lattice);
    TimeStepper stepper(s, {kFloor}, makeSolver());
    for (int step = 0; step < 60; ++step) {
      const auto report = stepper.step(domain, step);
      solves[predict] += report.recursions;
      EXPECT_LT(report.max_true_overlap, 1e-5) << "step " << step;
      if (predict && step == 0) {
        EXPECT_EQ(report.contacts, 0) << "nothing closes in step 0";
      }
    }
    for (const Body& b : domain.bodies()) {
      const double level = std::round((b.position.z() - r) / (2 * r));
      EXPECT_NEAR(b.position.z(), r + 2 * r * level, 1e-4) << "body " << b.gid;
      EXPECT_LT(b.velocity.norm(), 1e-3) << "body " << b.gid;
    }
  }
  EXPECT_LT(solves[1], solves[0]) << "predicted " << solves[1] << ", recursion only " << solves[0];
}

// LCP-MS (Palmer et al. (2025) section 4.2): a capsule of 5 sub-spheres lying on the
// floor gets one constraint per sub-sphere and carries the force exactly.
TEST(Multisphere, CapsuleOnTheFloorGetsOneConstraintPerSubSphere) {
  Body rod = makeSpherocylinder(0, 0.1, 1.0, 1.0, Vec3(0, 0, 0.1), Vec3::UnitX());
  rod.external_force = Vec3(0, 0, -2.0);
  BodyDomain domain(Tpetra::getDefaultComm(), {rod});
  StepperSettings s = overdamped(0.1, ConstraintMethod::Multisphere);
  s.subspheres = 5;
  TimeStepper stepper(s, {kFloor}, makeSolver());
  for (int step = 0; step < 3; ++step) {
    const auto report = stepper.step(domain, step);
    EXPECT_EQ(report.contacts, 5);
    EXPECT_LT(report.max_constraint_overlap, 1e-9);
    EXPECT_LT(report.max_true_overlap, 1e-9);
  }
  EXPECT_NEAR(domain.bodies()[0].contact_force.z(), 2.0, 1e-8);
  EXPECT_NEAR(domain.bodies()[0].position.z(), 0.1, 1e-9);
}

// The sub-sphere buffer (SimToolBox's colBuf) adds exactly the sub-sphere
// pairs closer than buffer x (r_i + r_j), and they carry no force while the
// step does not close them. Two parallel capsules of 3 sub-spheres
// (radius 0.1, 0.5 apart along the axis) lie 0.05 apart: every sub-sphere
// pair has r_i + r_j = 0.2, the aligned pairs a gap of 0.05, the neighbours
// sqrt(0.5^2 + 0.25^2) - 0.2 = 0.359, the far ones sqrt(1 + 0.25^2) - 0.2 = 0.831.
TEST(Multisphere, BufferAddsThePairsWithinItsMultipleOfTheRadii) {
  const auto count = [](double buffer) {
    Body a = makeSpherocylinder(0, 0.1, 0.5, 1.0, Vec3(0, 0, 0), Vec3::UnitX());
    Body b = makeSpherocylinder(1, 0.1, 0.5, 1.0, Vec3(0, 0.25, 0), Vec3::UnitX());
    BodyDomain domain(Tpetra::getDefaultComm(), {a, b});
    StepperSettings s = overdamped(0.01, ConstraintMethod::Multisphere);
    s.subspheres = 3;
    s.envelope = 0.06;
    s.subsphere_buffer = buffer;
    TimeStepper stepper(s, {}, makeSolver());
    const auto report = stepper.step(domain, 0);
    EXPECT_NEAR(domain.bodies()[0].position.y(), 0.0, 1e-12);  // nothing pushes them
    return report.contacts;
  };
  EXPECT_EQ(count(0.0), 3);  // the envelope: the aligned pairs only
  EXPECT_EQ(count(1.7), 3);  // 0.34 < 0.359
  EXPECT_EQ(count(1.9), 7);  // 0.38 > 0.359: + 4 neighbour pairs
  EXPECT_EQ(count(4.1), 7);  // 0.82 < 0.831
  EXPECT_EQ(count(4.2), 9);  // 0.84 > 0.831: all nine
}

// Two parallel ellipsoids pressed side by side with their centres offset
// along the long axis: 3 sub-spheres keep apart (their constraints hold),
// the true surfaces sink into the dip between the sub-spheres.
TEST(Multisphere, SubSpheresHoldWhileTrueSurfacesOverlap) {
  Body a = makeEllipsoid(0, Vec3(1, 1, 2), 1.0, Vec3(0, 0, 0));
  Body b = makeEllipsoid(1, Vec3(1, 1, 2), 1.0, Vec3(2.2, 0, 1.0));
  a.external_force = Vec3(1, 0, 0);
  b.external_force = Vec3(-1, 0, 0);
  BodyDomain domain(Tpetra::getDefaultComm(), {a, b});
  StepperSettings s = overdamped(0.05, ConstraintMethod::Multisphere);
  s.subspheres = 3;
  TimeStepper stepper(s, {}, makeSolver());
  StepReport last;
  for (int step = 0; step < 40; ++step) last = stepper.step(domain, step);
  EXPECT_GE(last.contacts, 1);
  EXPECT_LT(last.max_constraint_overlap, 1e-8);
  EXPECT_GT(last.max_true_overlap, 1e-2);
}

}  // namespace
}  // namespace grains
namespace grains {
namespace {

// A step's impulses are those of its last solve, on the final constraint set;
// the solves before a re-solve only decide which constraints to add. So a
// step converged when its last solve did: with the solver capped, some first
// solves stop above the tolerance and their re-solves (warm-started from
// them) get below it, and the step must not then report a residual below the
// tolerance as unconverged.
TEST(Relcp, AStepConvergedWhenItsLastSolveDid) {
  const double r = 0.1;
  StepperSettings s = inertialRelcp(0.01, 1e-5);
  s.adaptive_envelope = false;
  s.predict_contacts = false;
  s.solver_tolerance = 1e-7;
  SolverSettings capped;
  capped.tolerance = s.solver_tolerance;
  capped.max_iterations = 20;
  BodyDomain domain(Tpetra::getDefaultComm(), fallingLattice(r, 0.25));
  TimeStepper stepper(s, {kFloor}, SolverRegistry::instance().create("apgd", capped));
  int converged_re_solves = 0;
  for (int step = 0; step < 60; ++step) {
    const auto report = stepper.step(domain, step);
    EXPECT_EQ(report.solve.converged, report.solve.residual <= capped.tolerance)
        << "step " << step << ": residual " << report.solve.residual;
    if (report.recursions >= 2 && report.solve.converged) ++converged_re_solves;
  }
  EXPECT_GE(converged_re_solves, 1) << "the impacts should have needed converging re-solves";
}

}  // namespace
}  // namespace grains
