// The restart's wall check sees a force-controlled wall where the
// checkpoint's state has moved it, not at its configured pose.
#include "grains/app/restart_checks.hpp"
#include "grains/geometry/shape_traits.hpp"

#include <gtest/gtest.h>
#include <Tpetra_Core.hpp>

namespace grains {
namespace {

TEST(RestartWallCheck, AForceControlledWallIsCheckedWhereItHasMoved) {
  const auto comm = Tpetra::getDefaultComm();
  if (comm->getSize() != 1) GTEST_SKIP() << "one-rank test";
  SimulationConfig config;
  Wall piston = Wall::plane(Vec3::Zero(), Vec3::UnitZ(), "piston");
  piston.force_control.mass = 1.0;
  config.walls = {piston};
  // A sphere of radius 0.1 resting 0.25 m above the configured floor.
  const std::vector<Body> owned = {makeSphere(0, 0.1, 1.0, Vec3(0, 0, 0.25))};
  EXPECT_EQ(restartWallPenetration(owned, config, *comm, 0.0), "");
  // The piston has risen 0.2 m: the sphere sinks 0.05 m into it.
  const std::vector<ForceControlState> risen = {{0.2, 0.0}};
  const std::string message = restartWallPenetration(owned, config, *comm, 0.0, risen);
  EXPECT_NE(message.find("piston"), std::string::npos) << message;
  // Risen by 0.15 m: the sphere just touches it.
  const std::vector<ForceControlState> touching = {{0.15, 0.0}};
  EXPECT_EQ(restartWallPenetration(owned, config, *comm, 0.0, touching), "");
}

}  // namespace
}  // namespace grains
