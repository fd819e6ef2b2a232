// walls.N.friction and a force-controlled plane's own sliding velocity in the
// config (docs/boundaries.md): parsed, turning coulomb into coulomb_rolling
// where a wall resists rolling, written back and read again unchanged; bad
// input names the key, the value and what was expected.
#include <gtest/gtest.h>

#include <string>

#include "config_test_support.hpp"
#include "grains/config/config_loader.hpp"

namespace grains {
namespace {

using test::expectContains;

using test::latticeErrorOf;
using test::latticeWith;

TEST(WallFrictionConfig, AWallsOwnCoefficientsParseAndRoundTrip) {
  const SimulationConfig c = test::loadYaml(
      latticeWith("contact: {friction: coulomb, mu: 0.4, compliance: 1.0e-6}\n"
                  "walls:\n"
                  "  - {type: box, min: [-1, -1, -1], max: [2, 2, 2], friction: {mu: 0.9}}\n"
                  "  - {type: plane, name: lid, point: [0, 0, 1.5], normal: [0, 0, -1],\n"
                  "     friction: {mu: 1.5, rolling_friction: 0.3},\n"
                  "     motion: {force_control: {mass: 2, force: [0, 0, -50], "
                  "velocity: [0.5, 0.25, 0]}}}\n"),
      "t");
  ASSERT_EQ(c.walls.size(), 7u);
  for (std::size_t i = 0; i < 6; ++i) {  // the box's six planes
    EXPECT_DOUBLE_EQ(c.walls[i].friction.mu.value_or(-1), 0.9);
    EXPECT_FALSE(c.walls[i].friction.rolling);
  }
  EXPECT_DOUBLE_EQ(c.walls[6].friction.rolling.value_or(-1), 0.3);
  EXPECT_FALSE(c.walls[6].friction.spinning);
  EXPECT_EQ(c.walls[6].force_control.velocity, Vec3(0.5, 0.25, 0));
  // The lid's rolling resistance needs the rolling rows for every contact.
  EXPECT_EQ(c.contact.friction, FrictionModel::CoulombRolling);
  EXPECT_DOUBLE_EQ(c.contact.rolling_friction, 0.0);
  test::expectRoundTrip(c, "again");
}

TEST(WallFrictionConfig, SlidingFrictionAloneKeepsCoulomb) {
  const SimulationConfig c =
      test::loadYaml(latticeWith("contact: {friction: coulomb}\n"
                                 "walls: [{type: plane, normal: [0, 0, 1], friction: {mu: 1}}]\n"),
                     "t");
  EXPECT_EQ(c.contact.friction, FrictionModel::Coulomb);
  EXPECT_DOUBLE_EQ(c.contact.mu, 0.0);
}

TEST(WallFrictionConfig, ErrorsNameKeyValueAndExpectation) {
  expectContains(latticeErrorOf("walls: [{type: plane, normal: [0, 0, 1], friction: {mu: 1}}]\n"),
                 {"contact.friction", "frictionless", "a frictional model (coulomb)", "'walls.0'"});
  expectContains(latticeErrorOf("contact: {friction: pyramid, mu: 0.3}\n"
                                "walls: [{type: plane, name: f, normal: [0, 0, 1],\n"
                                "         friction: {spinning_friction: 0.1}}]\n"),
                 {"contact.friction", "pyramid", "coulomb when wall 'f'"});
  expectContains(latticeErrorOf("contact: {friction: coulomb}\n"
                                "walls: [{type: plane, normal: [0, 0, 1], friction: {mu: -1}}]\n"),
                 {"walls.0.friction.mu = -1", ">= 0"});
  expectContains(latticeErrorOf("contact: {friction: coulomb}\n"
                                "walls: [{type: plane, normal: [0, 0, 1], friction: {}}]\n"),
                 {"walls.0.friction", "mu, rolling_friction and/or spinning_friction"});
  expectContains(
      latticeErrorOf("contact: {friction: coulomb}\n"
                     "walls: [{type: plane, normal: [0, 0, 1], friction: {rolling: 1}}]\n"),
      {"walls.0.friction.rolling", "rolling_friction"});
  const std::string piston = "contact: {compliance: 1.0e-6}\nwalls:\n  - {type: ";
  expectContains(latticeErrorOf(piston + "plane, normal: [0, 0, -1], motion: {force_control: "
                                         "{mass: 1, velocity: [0.1, 0, 0.1]}}}\n"),
                 {"walls.0.motion.force_control.velocity", "perpendicular to the wall's normal"});
  expectContains(
      latticeErrorOf(piston + "disc, normal: [0, 0, -1], radius: 1, motion: {force_control: "
                              "{mass: 1, velocity: [0.1, 0, 0]}}}\n"),
      {"walls.0.motion.force_control.velocity", "only an unbounded plane"});
  expectContains(latticeErrorOf(piston + "plane, normal: [0, 0, -1], hole_radius: 0.1, motion: "
                                         "{force_control: {mass: 1, velocity: [0.1, 0, 0]}}}\n"),
                 {"walls.0.motion.force_control.velocity", "the hole would have to move"});
}

}  // namespace
}  // namespace grains
