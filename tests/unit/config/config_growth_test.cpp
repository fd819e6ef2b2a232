// Colony keys (Palmer et al. (2025) section 4.3): simulation.planar and the growth
// section: defaults, parsing, overrides, round trip, errors naming key, value
// and expectation, and the growth rate handed to the generated rods.
#include <gtest/gtest.h>

#include <initializer_list>
#include <string>

#include "config_test_support.hpp"
#include "grains/config/config_loader.hpp"
#include "grains/scenario/body_generator.hpp"

namespace grains {
namespace {

using test::expectContains;

/// One rod of radius 0.25 and tip-to-tip length 2, nothing generated.
const char* const kRod = R"(simulation: {dt: 0.01, steps: 10, dynamics: overdamped}
bodies:
  radius: 0.25
  mass: 1.0
  generator: {type: lattice, count: 0, region: {type: box, min: [-1, -1, -1], max: [1, 1, 1]}}
extra_bodies:
  - {shape: spherocylinder, radius: 0.25, half_length: 0.75, mass: 1, position: [0, 0, 0],
     axis: [1, 0, 0]}
)";

/// Generated spheres only.
const char* const kSpheres = R"(simulation: {dt: 0.01, steps: 10}
bodies:
  radius: 0.1
  mass: 1.0
  generator: {type: lattice, count: 8, region: {type: box, min: [0, 0, 0], max: [4, 4, 4]}}
)";

SimulationConfig load(const std::string& yaml, const std::vector<std::string>& overrides = {}) {
  return test::loadYaml(yaml, "growth.yaml", overrides);
}

std::string errorOf(const std::string& yaml, const std::vector<std::string>& overrides = {}) {
  return test::configErrorOf(yaml, "growth.yaml", overrides);
}

TEST(ConfigGrowth, DefaultsAreOff) {
  const SimulationConfig c = load(kSpheres);
  EXPECT_FALSE(c.simulation.planar);
  EXPECT_DOUBLE_EQ(c.growth.rate, 0.0);
  EXPECT_DOUBLE_EQ(c.growth.division_length, 4.0);
  EXPECT_DOUBLE_EQ(c.growth.reorientation_deg, 0.01);
  EXPECT_EQ(c.growth.max_generations, 0);
  for (const Body& b : generateAllBodies(c)) EXPECT_EQ(b.growth_rate, 0.0);
}

TEST(ConfigGrowth, KeysParseAndRoundTrip) {
  const SimulationConfig c =
      load(std::string(kRod) +
           "growth: {rate: 1.5, division_length: 3.5, reorientation_deg: 2, max_generations: 7}\n");
  EXPECT_DOUBLE_EQ(c.growth.rate, 1.5);
  EXPECT_DOUBLE_EQ(c.growth.division_length, 3.5);
  EXPECT_DOUBLE_EQ(c.growth.reorientation_deg, 2.0);
  EXPECT_EQ(c.growth.max_generations, 7);
  const std::string text = configToYaml(c);
  for (const char* key : {"planar: false", "growth:", "rate: 1.5", "division_length: 3.5",
                          "reorientation_deg: 2", "max_generations: 7"}) {
    EXPECT_NE(text.find(key), std::string::npos) << key << " in:\n" << text;
  }
  const SimulationConfig again = load(text);
  EXPECT_EQ(configToYaml(again), text);
  EXPECT_DOUBLE_EQ(again.growth.rate, 1.5);
}

TEST(ConfigGrowth, OverridesSetTheNewKeys) {
  const SimulationConfig c =
      load(kRod, {"simulation.planar=true", "growth.rate=2", "growth.division_length=5",
                  "growth.reorientation_deg=0", "growth.max_generations=3"});
  EXPECT_TRUE(c.simulation.planar);
  EXPECT_DOUBLE_EQ(c.growth.rate, 2.0);
  EXPECT_DOUBLE_EQ(c.growth.division_length, 5.0);
  EXPECT_DOUBLE_EQ(c.growth.reorientation_deg, 0.0);
  EXPECT_EQ(c.growth.max_generations, 3);
  EXPECT_TRUE(load(configToYaml(c)).simulation.planar);
  expectContains(errorOf(kRod, {"growth.rate=-1"}),
                 {"--set growth.rate=-1", "growth.rate = -1", "a number >= 0"});
}

TEST(ConfigGrowth, OutOfRangeValuesNameKeyAndValue) {
  expectContains(errorOf(kRod, {"growth.rate=-0.5"}), {"growth.rate = -0.5", "a number >= 0"});
  expectContains(errorOf(kRod, {"growth.division_length=0"}),
                 {"growth.division_length = 0", "a number > 0"});
  expectContains(errorOf(kRod, {"growth.reorientation_deg=90"}),
                 {"growth.reorientation_deg = 90", "[0, 90)"});
  expectContains(errorOf(kRod, {"growth.reorientation_deg=-1"}),
                 {"growth.reorientation_deg = -1", "[0, 90)"});
  expectContains(errorOf(kRod, {"growth.max_generations=-1"}),
                 {"growth.max_generations = -1", "an integer in [0,"});
  expectContains(errorOf(kRod, {"growth.max_generations=2.5"}),
                 {"growth.max_generations = 2.5", "an integer"});
  expectContains(errorOf(kRod, {"simulation.planar=maybe"}), {"simulation.planar = maybe"});
  expectContains(errorOf(kRod, {"growth.doubling_time=1"}),
                 {"growth.doubling_time", "unknown key", "division_length", "max_generations"});
}

TEST(ConfigGrowth, DivisionLengthMustExceedTheRods) {
  // Tip to tip 2 (0.75 + 0.25) = 2: a rod of length 2 cannot divide at 2.
  expectContains(errorOf(kRod, {"growth.rate=1", "growth.division_length=2"}),
                 {"growth.division_length = 2", "a number > 2", "tip-to-tip", "extra_bodies.0"});
  // A short rod: 4 radius = 1.6 exceeds its length 2 (0.1 + 0.4) = 1.
  const std::vector<std::string> stubby = {"extra_bodies.0.radius=0.4",
                                           "extra_bodies.0.half_length=0.1", "growth.rate=1"};
  auto with = [&](const std::string& extra) {
    std::vector<std::string> all = stubby;
    all.push_back(extra);
    return all;
  };
  expectContains(errorOf(kRod, with("growth.division_length=1.5")),
                 {"growth.division_length = 1.5", "a number > 1.6", "4 x radius", "segment"});
  EXPECT_NO_THROW(load(kRod, with("growth.division_length=1.7")));
  // The default 4 is too short for a rod of length 5; the message says it is the default.
  expectContains(errorOf(kRod, {"growth.rate=1", "extra_bodies.0.half_length=2.25"}),
                 {"growth.division_length", "default 4", "a number > 5"});
  // Without growth the rods are not checked.
  EXPECT_NO_THROW(load(kRod, {"growth.division_length=1"}));
}

TEST(ConfigGrowth, GrowthNeedsSpherocylinders) {
  expectContains(errorOf(kSpheres, {"growth.rate=1"}),
                 {"growth.rate = 1", "spherocylinder", "bodies.shape", "extra_bodies"});
  EXPECT_NO_THROW(load(kSpheres, {"growth.rate=0"}));
  // Generated rods are enough.
  EXPECT_NO_THROW(load(kSpheres, {"growth.rate=1", "bodies.shape=spherocylinder",
                                  "bodies.half_length=0.2", "growth.division_length=1"}));
}

TEST(ConfigGrowth, RodsGetTheGrowthRateAndOtherShapesDoNot) {
  const SimulationConfig c =
      load(std::string(kSpheres) +
               "extra_bodies:\n"
               "  - {shape: spherocylinder, radius: 0.1, half_length: 0.3, mass: 1, "
               "position: [6, 0, 0]}\n"
               "  - {shape: sphere, radius: 0.1, mass: 1, position: [-6, 0, 0]}\n",
           {"growth.rate=0.5", "bodies.shape=spherocylinder", "bodies.half_length=0.2",
            "growth.division_length=1"});
  const std::vector<Body> bodies = generateAllBodies(c);
  ASSERT_EQ(bodies.size(), 10u);
  for (const Body& b : bodies) {
    EXPECT_EQ(b.growth_rate, b.shape == ShapeKind::Spherocylinder ? 0.5 : 0.0) << b.gid;
    EXPECT_EQ(b.generation, 0);
  }
  EXPECT_EQ(bodies[9].shape, ShapeKind::Sphere);
}

TEST(ConfigGrowth, SchemaSummaryListsTheKeys) {
  const std::string text = describeSchema();
  for (const char* key :
       {"planar", "growth:", "division_length", "reorientation_deg", "max_generations"}) {
    EXPECT_NE(text.find(key), std::string::npos) << key;
  }
}

TEST(ConfigGrowth, ColonyScenarioStartsFromOneGrowingCell) {
  const SimulationConfig c = loadConfigFile(std::string(GRAINS_SOURCE_DIR) + "/config/colony.yaml");
  EXPECT_TRUE(c.simulation.planar);
  EXPECT_EQ(c.simulation.dynamics, DynamicsKind::Overdamped);
  EXPECT_DOUBLE_EQ(c.growth.rate, 1.0);
  EXPECT_DOUBLE_EQ(c.growth.division_length, 4.0);
  EXPECT_EQ(c.growth.max_generations, 10);
  EXPECT_EQ(c.contact.method, ConstraintMethod::Relcp);
  const std::vector<Body> bodies = generateAllBodies(c);
  ASSERT_EQ(bodies.size(), 1u);
  const Body& cell = bodies[0];
  EXPECT_EQ(cell.shape, ShapeKind::Spherocylinder);
  EXPECT_DOUBLE_EQ(2.0 * (cell.half_length + cell.radius), 2.0);  // l0 = 2, diameter 0.5
  EXPECT_DOUBLE_EQ(cell.radius, 0.25);
  EXPECT_DOUBLE_EQ(cell.growth_rate, 1.0);
  EXPECT_TRUE((cell.orientation * Vec3::UnitZ()).isApprox(Vec3::UnitX(), 1e-15));
  // The multisphere variant of the header comment loads too.
  EXPECT_NO_THROW(loadConfigFile(std::string(GRAINS_SOURCE_DIR) + "/config/colony.yaml",
                                 {"contact.method=multisphere", "contact.subspheres=5"}));
}

}  // namespace
}  // namespace grains
