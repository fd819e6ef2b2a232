// Periodic boxes on one rank: a body near a face meets the images of bodies
// near the opposite face (its own rank's ghosts), with the nearest image's
// normal, gap and lever arms; resting forces through the boundary match the
// statics; momentum is conserved by collisions across the faces.
#include "grains/constraint/contact_detection.hpp"
#include "grains/dynamics/time_stepper.hpp"
#include "grains/geometry/shape_traits.hpp"

#include <gtest/gtest.h>
#include <Tpetra_Core.hpp>

#include <cmath>
#include <random>

namespace grains {
namespace {

constexpr double kG = 9.81;

ParallelSection periodicIn(std::array<bool, 3> axes, const Vec3& lower, const Vec3& upper) {
  ParallelSection p;
  p.periodic.periodic = axes;
  p.periodic.lower = lower;
  p.periodic.upper = upper;
  return p;
}

std::unique_ptr<Solver> bbpgd(double tol = 1e-12) {
  SolverSettings s;
  s.tolerance = tol;
  s.max_iterations = 20000;
  return SolverRegistry::instance().create("bbpgd", s);
}

StepperSettings settings(double dt, const Vec3& gravity, double mu = 0.0) {
  StepperSettings s;
  s.assembly.dt = dt;
  s.assembly.friction = mu > 0.0 ? FrictionModel::Coulomb : FrictionModel::Frictionless;
  s.assembly.motion.gravity = gravity;
  s.mu = mu;
  s.envelope = 0.01;
  return s;
}

TEST(PeriodicContact, SpheresStraddlingTheXFacesTouchThroughIt) {
  const double r = 0.05;
  // Box [0, 1) in x: A near x = 0, B near x = 1, 0.01 apart through the face.
  BodyDomain domain(
      Tpetra::getDefaultComm(),
      {makeSphere(0, r, 1.0, Vec3(0.05, 0.5, 0.5)), makeSphere(1, r, 1.0, Vec3(0.94, 0.5, 0.5))},
      periodicIn({true, false, false}, Vec3::Zero(), Vec3::Ones()));
  domain.refreshGhosts(2.0 * r + 0.02);
  ASSERT_EQ(domain.numGhosts(), 2u) << "each sphere's image across the x faces";
  DetectionSettings detection;
  detection.envelope = 0.02;
  const std::vector<Contact> contacts = detectContacts(domain, {}, detection);
  ASSERT_EQ(contacts.size(), 1u);
  const Contact& c = contacts[0];
  EXPECT_EQ(c.key.a, 0);
  EXPECT_EQ(c.key.b, 1);
  EXPECT_EQ(c.body_a, 0) << "side a is the owned lower GID";
  EXPECT_GE(c.body_b, 2) << "side b is B's image";
  EXPECT_NEAR(c.geometry.gap, 0.01, 1e-12);
  EXPECT_NEAR(c.geometry.normal.x(), -1.0, 1e-12) << "from A towards B's image at x = -0.06";
  // Lever arms from the image's centre: the contact point lies r beyond it in +x.
  const Vec3 image = domain.bodies()[static_cast<std::size_t>(c.body_b)].position;
  EXPECT_NEAR(image.x(), -0.06, 1e-12);
  EXPECT_NEAR((c.geometry.point_b - image).x(), r, 1e-12);
  EXPECT_NEAR((c.geometry.point_a - domain.bodies()[0].position).x(), -r, 1e-12);
  // Without the periodic box the same two spheres are far apart.
  BodyDomain open(Tpetra::getDefaultComm(), {makeSphere(0, r, 1.0, Vec3(0.05, 0.5, 0.5)),
                                             makeSphere(1, r, 1.0, Vec3(0.94, 0.5, 0.5))});
  open.refreshGhosts(2.0 * r + 0.02);
  EXPECT_TRUE(detectContacts(open, {}, detection).empty());
}

TEST(PeriodicContact, NonSphericalPairsThroughTheFaceMatchTheShiftedPair) {
  // Any shape: the pair through the y faces is the pair with B's centre
  // shifted by -L, same gap, normal and contact points up to the shift.
  const Quat tilt(Eigen::AngleAxisd(0.4, Vec3(1, 2, 3).normalized()));
  const Quat turn(Eigen::AngleAxisd(-0.7, Vec3(0, 1, 1).normalized()));
  const Vec3 a(0.5, 0.12, 0.5), b(0.5, 2.0 - 0.12, 0.55);
  const std::vector<std::pair<Body, Body>> pairs{
      {makeEllipsoid(0, Vec3(0.05, 0.08, 0.14), 1.0, a, tilt),
       makeEllipsoid(1, Vec3(0.1, 0.06, 0.12), 1.0, b, turn)},
      {makeSpherocylinder(0, 0.05, 0.1, 1.0, a, tilt * Vec3::UnitZ()),
       makeSpherocylinder(1, 0.06, 0.12, 1.0, b, turn * Vec3::UnitZ())}};
  for (const auto& [first, second] : pairs) {
    BodyDomain domain(Tpetra::getDefaultComm(), {first, second},
                      periodicIn({false, true, false}, Vec3::Zero(), Vec3(1.0, 2.0, 1.0)));
    domain.refreshGhosts(0.6);
    DetectionSettings detection;
    detection.envelope = 0.3;
    const std::vector<Contact> contacts = detectContacts(domain, {}, detection);
    ASSERT_EQ(contacts.size(), 1u);
    Body shifted = second;
    shifted.position.y() -= 2.0;
    const ContactGeometry expected = bodyBody(first, shifted);
    const ContactGeometry& g = contacts[0].geometry;
    EXPECT_LT(expected.gap, 0.3);
    EXPECT_NEAR(g.gap, expected.gap, 1e-12);
    EXPECT_NEAR((g.normal - expected.normal).norm(), 0.0, 1e-12);
    EXPECT_NEAR((g.point_b - expected.point_b).norm(), 0.0, 1e-12);
    EXPECT_NEAR((g.point_a - expected.point_a).norm(), 0.0, 1e-12);
  }
}

TEST(PeriodicContact, CollidingThroughTheFaceStopsBothAndWrapsPositions) {
  // Equal spheres approach each other through the x faces, head on: the
  // hard contact is perfectly inelastic, so both stop (momentum 0 stays 0).
  const double r = 0.05, dt = 1e-3;
  std::vector<Body> bodies{makeSphere(0, r, 1.0, Vec3(0.06, 0.5, 0.5)),
                           makeSphere(1, r, 1.0, Vec3(0.94, 0.5, 0.5))};
  bodies[0].velocity = Vec3(-1.0, 0, 0);
  bodies[1].velocity = Vec3(1.0, 0, 0);
  BodyDomain domain(Tpetra::getDefaultComm(), bodies,
                    periodicIn({true, false, false}, Vec3::Zero(), Vec3::Ones()));
  TimeStepper stepper(settings(dt, Vec3::Zero()), {}, bbpgd());
  for (int step = 0; step < 40; ++step) stepper.step(domain, step);
  const Body& a = domain.bodies()[0];
  const Body& b = domain.bodies()[1];
  EXPECT_NEAR(a.velocity.x(), 0.0, 1e-9);
  EXPECT_NEAR(b.velocity.x(), 0.0, 1e-9);
  // They met at x = 0 (= 1): 0.01 m each, so A stays at 0.05, B at 0.95.
  EXPECT_NEAR(a.position.x(), 0.05, 1e-6);
  EXPECT_NEAR(b.position.x(), 0.95, 1e-6);
  // A third sphere crossing the face alone is wrapped into [0, 1).
  std::vector<Body> lone{makeSphere(0, r, 1.0, Vec3(0.99, 0.5, 0.5))};
  lone[0].velocity = Vec3(1.0, 0, 0);
  BodyDomain single(Tpetra::getDefaultComm(), lone,
                    periodicIn({true, false, false}, Vec3::Zero(), Vec3::Ones()));
  TimeStepper free_stepper(settings(dt, Vec3::Zero()), {}, bbpgd());
  for (int step = 0; step < 20; ++step) free_stepper.step(single, step);
  EXPECT_NEAR(single.bodies()[0].position.x(), 0.01, 1e-12);
  EXPECT_TRUE(free_stepper.lastContacts().empty()) << "no contact with its own image";
}

TEST(PeriodicContact, SphereAcrossTheFaceRestsOnTheFloor) {
  const double m = 2.0, r = 0.1, dt = 1e-3;
  // Centre 0.03 below the upper x face: the sphere sticks out through it.
  BodyDomain domain(Tpetra::getDefaultComm(), {makeSphere(0, r, m, Vec3(0.97, 0.5, r))},
                    periodicIn({true, true, false}, Vec3::Zero(), Vec3(1.0, 1.0, 2.0)));
  TimeStepper stepper(settings(dt, Vec3(0, 0, -kG)), {Wall::plane(Vec3::Zero(), Vec3::UnitZ())},
                      bbpgd());
  for (int step = 0; step < 20; ++step) {
    const StepReport report = stepper.step(domain, step);
    ASSERT_TRUE(report.solve.converged);
    ASSERT_EQ(stepper.lastContacts().size(), 1u) << "the floor only, not the sphere's image";
    EXPECT_NEAR(stepper.lastImpulses()[0], m * kG * dt, 1e-9 * m * kG * dt);
  }
  EXPECT_NEAR(domain.bodies()[0].position.z(), r, 1e-12);
  EXPECT_NEAR(domain.bodies()[0].velocity.norm(), 0.0, 1e-10);
}

TEST(PeriodicContact, SpheresRestingInHollowsThroughTheFaceCarryTheStaticForces) {
  // A periodic row in x of two floor spheres A, B, 2.2 r apart either way
  // (L = 4.4 r), and two spheres in the hollows: C between A and B, D
  // between B and the image of A, straddling the x faces. Frictionless:
  // each upper sphere pushes on its two supports with N = m g r / h, h =
  // sqrt(4 - 1.1^2) r its height above them; each floor contact carries 2 m g.
  const double m = 1.0, r = 0.1, dt = 1e-3;
  const double L = 4.4 * r, h = std::sqrt(4.0 - 1.1 * 1.1) * r;
  std::vector<Body> bodies{makeSphere(0, r, m, Vec3(r, 0.5, r)),
                           makeSphere(1, r, m, Vec3(r + 2.2 * r, 0.5, r)),
                           makeSphere(2, r, m, Vec3(r + 1.1 * r, 0.5, r + h)),
                           makeSphere(3, r, m, Vec3(L - 0.1 * r, 0.5, r + h))};
  BodyDomain domain(Tpetra::getDefaultComm(), bodies,
                    periodicIn({true, false, false}, Vec3::Zero(), Vec3(L, 1.0, 1.0)));
  TimeStepper stepper(settings(dt, Vec3(0, 0, -kG)), {Wall::plane(Vec3::Zero(), Vec3::UnitZ())},
                      bbpgd(1e-13));
  for (int step = 0; step < 10; ++step) ASSERT_TRUE(stepper.step(domain, step).solve.converged);
  const double N = m * kG * r / h * dt;
  int upper_contacts = 0, floor_contacts = 0;
  const auto& contacts = stepper.lastContacts();
  for (std::size_t c = 0; c < contacts.size(); ++c) {
    const Contact& k = contacts[c];
    const double impulse = stepper.lastImpulses()[c];
    if (k.isWall()) {
      ++floor_contacts;
      EXPECT_NEAR(impulse, 2.0 * m * kG * dt, 1e-6 * m * kG * dt) << "floor under " << k.key.b;
    } else if (k.key.b >= 2) {
      ++upper_contacts;
      EXPECT_NEAR(impulse, N, 1e-6 * N) << "contact " << k.key.a << "-" << k.key.b;
    } else {
      EXPECT_NEAR(impulse, 0.0, 1e-6 * N) << "the floor spheres do not touch";
    }
  }
  EXPECT_EQ(floor_contacts, 2);
  EXPECT_EQ(upper_contacts, 4) << "C on A and B, D on B and on A's image";
  for (std::size_t i = 0; i < domain.numOwned(); ++i)
    EXPECT_NEAR(domain.bodies()[i].velocity.norm(), 0.0, 1e-8) << "body " << i;
  EXPECT_NEAR(domain.bodies()[3].position.x(), L - 0.1 * r, 1e-9);
}

Vec3 totalMomentum(const BodyDomain& domain) {
  Vec3 p = Vec3::Zero();
  for (std::size_t i = 0; i < domain.numOwned(); ++i)
    p += domain.bodies()[i].mass * domain.bodies()[i].velocity;
  return p;
}

TEST(PeriodicContact, MomentumIsConservedByCollisionsAcrossTheFaces) {
  // A triply periodic box without walls or gravity: 27 spheres with random
  // velocities collide, across the faces too; the contact impulses are
  // equal and opposite, so the total momentum stays what it was.
  const double r = 0.08, dt = 5e-3;
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> speed(-1.0, 1.0);
  std::vector<Body> bodies;
  GlobalId gid = 0;
  for (int k = 0; k < 3; ++k)
    for (int j = 0; j < 3; ++j)
      for (int i = 0; i < 3; ++i) {
        Body b = makeSphere(gid, r, 1.0 + 0.1 * static_cast<double>(gid % 4),
                            Vec3(0.1 + i / 3.0, 0.1 + j / 3.0, 0.1 + k / 3.0));
        b.velocity = Vec3(speed(rng), speed(rng), speed(rng));
        bodies.push_back(b);
        ++gid;
      }
  BodyDomain domain(Tpetra::getDefaultComm(), bodies,
                    periodicIn({true, true, true}, Vec3::Zero(), Vec3::Ones()));
  TimeStepper stepper(settings(dt, Vec3::Zero(), 0.3), {}, bbpgd(1e-12));
  const Vec3 start = totalMomentum(domain);
  const double start_energy = globalKineticEnergy(domain);
  long across = 0, touching = 0;
  for (int step = 0; step < 400; ++step) {
    ASSERT_TRUE(stepper.step(domain, step).solve.converged) << "step " << step;
    const auto& contacts = stepper.lastContacts();
    for (std::size_t c = 0; c < contacts.size(); ++c) {
      if (stepper.lastImpulses()[c] <= 0.0) continue;
      ++touching;
      // Side b a ghost: on one rank, an image through a face.
      if (static_cast<std::size_t>(contacts[c].body_b) >= domain.numOwned()) ++across;
    }
    for (std::size_t i = 0; i < domain.numOwned(); ++i) {
      const Vec3& x = domain.bodies()[i].position;
      ASSERT_TRUE((x.array() >= 0.0).all() && (x.array() < 1.0).all()) << "body " << i;
    }
  }
  EXPECT_GT(touching, 20) << "the test needs collisions";
  EXPECT_GT(across, 5) << "and collisions through the faces";
  const Vec3 end = totalMomentum(domain);
  EXPECT_NEAR((end - start).norm(), 0.0, 1e-10);
  EXPECT_LT(globalKineticEnergy(domain), start_energy) << "hard contacts dissipate";
}

}  // namespace
}  // namespace grains
