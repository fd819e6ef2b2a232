// The constraint-method registry, and what each registered method does with
// a sphere pressed into the floor: for spheres the three methods coincide
// (a sphere is its own only sub-sphere, and nothing overlaps deeper than
// ReLCP's tolerance), so one step gives the same contact force, the analytic
// one, and the same state.
#include "grains/dynamics/constraint_method.hpp"
#include "grains/dynamics/time_stepper.hpp"

#include <gtest/gtest.h>
#include <Tpetra_Core.hpp>

#include <stdexcept>
#include <string>

namespace grains {
namespace {

TEST(ConstraintMethodRegistry, NamesAndWhoFindsNewContacts) {
  EXPECT_EQ(constraintMethodNames(), (std::vector<std::string>{"single", "multisphere", "relcp"}));
  EXPECT_FALSE(constraintMethodInfo(ConstraintMethod::Single).finds_new_contacts);
  EXPECT_FALSE(constraintMethodInfo(ConstraintMethod::Multisphere).finds_new_contacts);
  EXPECT_TRUE(constraintMethodInfo(ConstraintMethod::Relcp).finds_new_contacts);
  EXPECT_EQ(ConstraintMethod("relcp"), ConstraintMethod::Relcp);
  EXPECT_NE(ConstraintMethod("single"), ConstraintMethod::Relcp);
}

TEST(ConstraintMethodRegistry, UnknownNameListsTheRegisteredOnes) {
  try {
    ConstraintMethod("mesh");
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("'mesh'"), std::string::npos) << what;
    EXPECT_NE(what.find("single, multisphere, relcp"), std::string::npos) << what;
  }
}

std::unique_ptr<Solver> tightApgd() {
  SolverSettings s;
  s.tolerance = 1e-12;
  s.max_iterations = 20000;
  return SolverRegistry::instance().create("apgd", s);
}

StepperSettings inertial(const ConstraintMethod& method) {
  StepperSettings s;
  s.assembly.dt = 0.01;
  s.assembly.motion.gravity = Vec3(0, 0, -9.81);
  s.assembly.damping_steps = 4.0;
  s.method = method;
  s.envelope = 0.05;
  s.subspheres = 3;
  s.overlap_tolerance = 1e-3;
  return s;
}

TEST(ConstraintMethodRegistry, FixedEnvelopeNeedsAMethodThatFindsNewContacts) {
  for (const ConstraintMethod& method : {ConstraintMethod::Single, ConstraintMethod::Multisphere}) {
    StepperSettings s = inertial(method);
    s.adaptive_envelope = false;
    EXPECT_THROW(TimeStepper(s, {}, tightApgd()), std::invalid_argument) << method.name();
  }
  StepperSettings relcp = inertial(ConstraintMethod::Relcp);
  relcp.adaptive_envelope = false;
  EXPECT_NO_THROW(TimeStepper(relcp, {}, tightApgd()));
}

// A unit sphere of mass 2 resting 1e-4 deep in the floor: the SPOOK
// constraint (damping d = 4 steps) asks the step to remove 4/(1 + 4 d) = 4/17
// of the overlap, so the impulse is m (g dt + (4/17) 1e-4 / dt).
TEST(ConstraintMethodStrategies, SpheresGiveTheSameStepWithEveryMethod) {
  const double overlap = 1e-4, dt = 0.01, mass = 2.0;
  const Wall floor = Wall::plane(Vec3::Zero(), Vec3::UnitZ());
  const double expected_force = mass * (9.81 + (4.0 / 17.0) * overlap / (dt * dt));
  std::vector<Body> results;
  for (const ConstraintMethod& method :
       {ConstraintMethod::Single, ConstraintMethod::Multisphere, ConstraintMethod::Relcp}) {
    BodyDomain domain(Tpetra::getDefaultComm(),
                      {makeSphere(0, 1.0, mass, Vec3(0, 0, 1.0 - overlap))});
    TimeStepper stepper(inertial(method), {floor}, tightApgd());
    const StepReport report = stepper.step(domain, 1);
    ASSERT_TRUE(report.solve.converged) << method.name();
    EXPECT_EQ(report.recursions, 1) << method.name();
    EXPECT_EQ(report.contacts, 1) << method.name();
    const Body& b = domain.bodies()[0];
    EXPECT_NEAR(b.contact_force.z(), expected_force, 1e-8 * expected_force) << method.name();
    // The step removes 4/17 of the overlap; the rest is what every method reports.
    EXPECT_NEAR(report.max_true_overlap, (13.0 / 17.0) * overlap, 1e-12) << method.name();
    results.push_back(b);
  }
  for (std::size_t k = 1; k < results.size(); ++k) {
    EXPECT_EQ(results[k].position, results[0].position);
    EXPECT_EQ(results[k].velocity, results[0].velocity);
  }
}

}  // namespace
}  // namespace grains
