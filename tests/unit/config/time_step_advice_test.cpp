// `grains validate` warns when a free fall covers more than a body's size in
// one step (here Δt = 0.1 s against 5 cm spheres), not at the demo's 5 ms.
#include <gtest/gtest.h>

#include "grains/config/time_step_advice.hpp"
#include "grains/geometry/shape_traits.hpp"

namespace grains {
namespace {

TEST(TimeStepAdvice, FreeFallFartherThanTheSmallestBodyInOneStep) {
  SimulationConfig config;
  config.simulation.gravity = Vec3(0.0, 0.0, -9.81);
  const std::vector<Body> bodies = {makeSphere(0, 0.1, 1.0, Vec3::Zero()),
                                    makeSphere(1, 0.05, 1.0, Vec3(1.0, 0.0, 0.0))};
  config.simulation.dt = 0.005;  // 2.5e-4 m per step
  EXPECT_FALSE(largeTimeStepWarning(config, bodies));
  config.simulation.dt = 0.1;  // 9.81 * 0.01 = 0.098 m > 0.05 m
  const auto warning = largeTimeStepWarning(config, bodies);
  ASSERT_TRUE(warning);
  for (const char* part : {"simulation.dt = 0.1 s", "0.0981 m", "smallest body size (0.05 m)"})
    EXPECT_NE(warning->find(part), std::string::npos) << part << ": " << *warning;
  // No gravity, overdamped motion, or no bodies: nothing to compare.
  config.simulation.gravity = Vec3::Zero();
  EXPECT_FALSE(largeTimeStepWarning(config, bodies));
  config.simulation.gravity = Vec3(0.0, 0.0, -9.81);
  config.simulation.dynamics = DynamicsKind::Overdamped;
  EXPECT_FALSE(largeTimeStepWarning(config, bodies));
  config.simulation.dynamics = DynamicsKind::Inertial;
  EXPECT_FALSE(largeTimeStepWarning(config, {}));
}

TEST(TimeStepAdvice, EllipsoidsAreMeasuredByTheirSmallestSemiAxis) {
  const Body e = makeEllipsoid(0, Vec3(0.3, 0.2, 0.05), 1.0, Vec3::Zero());
  EXPECT_EQ(smallestBodySize(e), 0.05);
  EXPECT_EQ(smallestBodySize(makeSphere(1, 0.1, 1.0, Vec3::Zero())), 0.1);
}

}  // namespace
}  // namespace grains
