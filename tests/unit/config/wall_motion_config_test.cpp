// The walls' motion, load names and discs in the config: parsed, written back
// by the effective-config writer and read again unchanged; bad input names
// the key and what was expected.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "config_test_support.hpp"
#include "grains/config/config_loader.hpp"

namespace grains {
namespace {

using test::expectContains;

std::string withWalls(const std::string& walls) {
  return std::string(test::kSmallLatticeYaml) + "walls:\n" + walls;
}

std::string errorOf(const std::string& walls) {
  return test::configErrorOf(withWalls(walls), "test.yaml", {});
}

TEST(WallMotionConfig, MotionLoadAndDiscsParseAndRoundTrip) {
  const std::string yaml = withWalls(
      "  - {type: cylinder, name: drum, axis: [1, 0, 0], radius: 3,\n"
      "     motion: {angular_velocity: [2, 0, 0]}}\n"
      "  - {type: box, name: lid, min: [-3, -3, -3], max: [3, 3, 5], load: piston,\n"
      "     motion: {table: [{time: 1, velocity: [0, 0, -0.1]}, {time: 2}]}}\n"
      "  - {type: disc, point: [0, 0, -2], normal: [0, 0, 1], radius: 2, inner_radius: 0.5}\n"
      "  - {type: plane, name: floor, normal: [0, 0, 1], point: [0, 0, -3], hole_radius: 0.4,\n"
      "     load: none}\n"
      "  - {type: cone, name: hopper, point: [0, 0, -3], radius: 0.4, top_radius: 3, height: 1}\n");
  const SimulationConfig c = loadConfigString(yaml, "t", ".");
  ASSERT_EQ(c.walls.size(), 10u);
  EXPECT_EQ(c.walls[9].kind, WallKind::Cone);
  EXPECT_DOUBLE_EQ(c.walls[9].top_radius, 3.0);
  EXPECT_DOUBLE_EQ(c.walls[9].height, 1.0);
  const Wall& drum = c.walls[0];
  EXPECT_EQ(drum.load_name, "drum");
  ASSERT_EQ(drum.motion.table.size(), 1u);
  EXPECT_EQ(drum.motion.table[0].angular_velocity, Vec3(2, 0, 0));
  EXPECT_EQ(drum.motion.pivot, Vec3::Zero());
  // A box: six planes, one load, one motion about its centre.
  for (std::size_t i = 1; i <= 6; ++i) {
    EXPECT_EQ(c.walls[i].load_name, "piston");
    EXPECT_EQ(c.walls[i].motion.pivot, Vec3(0, 0, 1));
    ASSERT_EQ(c.walls[i].motion.table.size(), 2u);
    EXPECT_EQ(c.walls[i].motion.table[1].velocity, Vec3::Zero());
  }
  const Wall& disc = c.walls[7];
  EXPECT_EQ(disc.kind, WallKind::Disc);
  EXPECT_EQ(disc.load_name, "") << "unnamed walls report no load";
  EXPECT_DOUBLE_EQ(disc.inner_radius, 0.5);
  const Wall& floor = c.walls[8];
  EXPECT_EQ(floor.kind, WallKind::Disc);
  EXPECT_TRUE(std::isinf(floor.radius));
  EXPECT_EQ(floor.load_name, "");

  const SimulationConfig again = loadConfigString(configToYaml(c), "again", ".");
  ASSERT_EQ(again.walls.size(), c.walls.size());
  for (std::size_t i = 0; i < c.walls.size(); ++i) {
    SCOPED_TRACE("wall " + std::to_string(i));
    EXPECT_EQ(again.walls[i].kind, c.walls[i].kind);
    EXPECT_EQ(again.walls[i].load_name, c.walls[i].load_name);
    EXPECT_EQ(again.walls[i].motion.pivot, c.walls[i].motion.pivot);
    EXPECT_EQ(again.walls[i].motion.table.size(), c.walls[i].motion.table.size());
    EXPECT_EQ(again.walls[i].radius, c.walls[i].radius);
    EXPECT_EQ(again.walls[i].inner_radius, c.walls[i].inner_radius);
    EXPECT_EQ(again.walls[i].top_radius, c.walls[i].top_radius);
    EXPECT_EQ(again.walls[i].height, c.walls[i].height);
  }
  EXPECT_EQ(configToYaml(again), configToYaml(c));
}

TEST(WallMotionConfig, BadInputNamesTheKey) {
  expectContains(errorOf("  - {type: disc, normal: [0, 0, 1], radius: 1, inner_radius: 1.5}\n"),
                 {"walls.0.inner_radius = 1.5", "expected a number < walls.0.radius = 1",
                  "the hole must lie inside the disc"});
  expectContains(errorOf("  - {type: plane, normal: [0, 0, 1], motion: {velocty: [1, 0, 0]}}\n"),
                 {"walls.0.motion.velocty", "unknown key", "did you mean 'velocity'"});
  expectContains(errorOf("  - {type: plane, normal: [0, 0, 1],\n"
                         "     motion: {table: [{time: 1}, {time: 0.5}]}}\n"),
                 {"walls.0.motion.table.1.time = 0.5", "greater than the previous row's (1 s)"});
  expectContains(errorOf("  - {type: plane, normal: [0, 0, 1],\n"
                         "     motion: {velocity: [1, 0, 0], table: [{time: 0}]}}\n"),
                 {"walls.0.motion.velocity", "given per row of walls.0.motion.table"});
  expectContains(errorOf("  - {type: cone, radius: 0, top_radius: 0, height: 1}\n"),
                 {"walls.0.top_radius = 0", "a number > 0 when walls.0.radius is 0"});
  expectContains(errorOf("  - {type: plane, normal: [0, 0, 1], hole_radius: -1}\n"),
                 {"walls.0.hole_radius = -1", "> 0"});
}

}  // namespace
}  // namespace grains
