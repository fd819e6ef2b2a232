// Sliding contacts with and without the lift of the cone complementarity
// relaxation, against rigid-body closed forms for a sphere (J = 2/5 m r^2)
// launched at v0 without spin along a level floor with friction mu:
//   Coulomb's law: it slides with du/dt = -mu g and r dw/dt = 5/2 mu g, its
//   centre at z = r, until its contact point stops at u = 5/7 v0 (angular
//   momentum about the contact point is conserved), then rolls.
//   the relaxation: the first step's solution has the contact separate at mu
//   times its slip s, so the sphere leaves the floor at v_z = mu s with
//   s = (v0 - 7/2 mu g h) / (1 + 7/2 mu^2) (its normal impulse m (g h + v_z)
//   and the friction mu times that slow the slip).
#include "sphere_on_plane.hpp"

#include "grains/solver/sliding_lift.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

namespace grains {
namespace {

constexpr double kG = test::kSphereG;
constexpr double kRadius = test::kSphereRadius;
constexpr double kDt = test::kSphereDt;
constexpr double kMu = 0.3;
constexpr double kSpeed = 1.0;  // v0 [m/s]: slides for 2 v0 / (7 mu g) = 97 ms

class SlidingSphere : public test::SphereOnPlane {
 public:
  SlidingSphere(FrictionModel model, int lift_passes)
      : test::SphereOnPlane(settings(model, lift_passes),
                            Wall::plane(Vec3::Zero(), Vec3::UnitZ(), "floor"), Vec3(kSpeed, 0, 0),
                            Vec3::Zero()) {}

 private:
  static StepperSettings settings(FrictionModel model, int lift_passes) {
    StepperSettings s;
    s.assembly.friction = model;
    s.assembly.motion.gravity = Vec3(0, 0, -kG);
    s.mu = kMu;
    s.solver_tolerance = 1e-13;  // the solver's own (sphere_on_plane.hpp)
    s.lift_passes = lift_passes;
    return s;
  }
};

TEST(SlidingLift, TheRelaxationLiftsASlidingSphereAtMuTimesItsSlip) {
  SlidingSphere s(FrictionModel::Coulomb, 0);
  s.run(1);
  const double slip = (kSpeed - 3.5 * kMu * kG * kDt) / (1.0 + 3.5 * kMu * kMu);
  EXPECT_NEAR(s.body().velocity.z(), kMu * slip, 1e-9);
  EXPECT_GT(s.body().position.z(), kRadius + 0.5 * kMu * slip * kDt);
}

// Every model whose friction bound scales with the normal impulse lifts, and
// the correction keeps each of them on the floor with Coulomb's deceleration
// (the pyramid's bound along the x axis is the cone's).
class CorrectedSliding : public ::testing::TestWithParam<FrictionModel> {};

TEST_P(CorrectedSliding, ASlidingSphereKeepsTouchingAndSlowsAtMuG) {
  ASSERT_TRUE(liftsWhenSliding(GetParam()));
  // The fixed point contracts by about 7/2 mu^2 per pass here (the slip
  // depends on the shift through the normal impulse): the first step, which
  // has no warm start, needs about 20 passes to reach the solver tolerance.
  SlidingSphere s(GetParam(), 40);
  const int sliding = 60;  // < 97 steps
  double highest = 0.0, fastest_up = 0.0;
  for (int k = 0; k < sliding; ++k) {
    s.run(1);
    highest = std::max(highest, std::abs(s.body().position.z() - kRadius));
    fastest_up = std::max(fastest_up, std::abs(s.body().velocity.z()));
  }
  EXPECT_LT(highest, 1e-10);
  EXPECT_LT(fastest_up, 1e-8);
  EXPECT_NEAR(s.body().velocity.x(), kSpeed - kMu * kG * sliding * kDt, 1e-9);
  EXPECT_NEAR(s.body().angular_velocity.y() * kRadius, 2.5 * kMu * kG * sliding * kDt, 1e-9);
  // Rolling from 97 ms on, at 5/7 v0.
  s.run(140);
  EXPECT_NEAR(s.body().velocity.x(), 5.0 / 7.0 * kSpeed, 1e-9);
  EXPECT_NEAR(s.body().velocity.x() - s.body().angular_velocity.y() * kRadius, 0.0, 1e-9);
  EXPECT_NEAR(s.body().position.z(), kRadius, 1e-10);
}

INSTANTIATE_TEST_SUITE_P(Models, CorrectedSliding,
                         ::testing::Values(FrictionModel::Coulomb, FrictionModel::Pyramid),
                         [](const auto& model) { return frictionModelName(model.param); });

// Shifts the fixed point has not yet matched let contacts close by the
// mismatch, which ReLCP's recursion would re-solve again and again.
TEST(SlidingLift, IsRefusedWithAMethodThatReSolvesOverlaps) {
  StepperSettings s;
  s.assembly.friction = FrictionModel::Coulomb;
  s.mu = kMu;
  s.lift_passes = 3;
  s.method = ConstraintMethod::Relcp;
  SolverSettings solver;
  try {
    TimeStepper stepper(s, {},
                        SolverRegistry::instance().create("apgd", solver, s.assembly.friction));
    FAIL() << "relcp with the lift correction was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("not relcp"), std::string::npos) << e.what();
  }
  s.method = ConstraintMethod::Single;
  EXPECT_NO_THROW(
      TimeStepper(s, {}, SolverRegistry::instance().create("apgd", solver, s.assembly.friction)));
}

TEST(SlidingLift, OnlyModelsWhoseBoundScalesWithTheNormalUnknownLift) {
  EXPECT_TRUE(liftsWhenSliding(FrictionModel::CoulombRolling));
  EXPECT_FALSE(liftsWhenSliding(FrictionModel::Frictionless));
  EXPECT_FALSE(liftsWhenSliding(FrictionModel::Box));
  EXPECT_FALSE(liftsWhenSliding(FrictionModel::Cylinder));
  // h_K of the cone, the pyramid and the rolling cone at one contact.
  ConeSet cone;
  cone.model = FrictionModel::Coulomb;
  cone.mu = {0.5};
  const double w[6] = {7.0, 3.0, -4.0, 1.0, 0.0, -2.0};
  EXPECT_DOUBLE_EQ(slidingLift(cone, 0, w), 2.5);
  cone.model = FrictionModel::Pyramid;
  EXPECT_DOUBLE_EQ(slidingLift(cone, 0, w), 3.5);
  cone.model = FrictionModel::CoulombRolling;
  cone.rolling = {0.1};
  cone.spinning = {0.2};
  EXPECT_DOUBLE_EQ(slidingLift(cone, 0, w), 2.5 + 0.1 + 0.4);
}

}  // namespace
}  // namespace grains
