// The measurements list in the config: parsed, written back by the
// effective-config writer unchanged; unknown and misplaced keys are rejected
// with messages naming them.
#include <gtest/gtest.h>

#include <string>

#include "config_test_support.hpp"
#include "grains/config/config_loader.hpp"

namespace grains {
namespace {

using test::expectContains;

std::string withMeasurements(const std::string& list) {
  return std::string(test::kSmallLatticeYaml) + "measurements:\n" + list;
}

std::string errorOf(const std::string& list) {
  return test::configErrorOf(withMeasurements(list), "test.yaml", {});
}

TEST(MeasurementsConfig, NoneByDefault) {
  EXPECT_TRUE(test::loadYaml(test::kSmallLatticeYaml, "t").measurements.list.empty());
}

TEST(MeasurementsConfig, ParseAndRoundTrip) {
  const SimulationConfig c = test::loadYaml(
      withMeasurements("  - {type: coordination, every: 10, walls: true, contacts: touching}\n"
                       "  - {name: bed, type: stress, kinetic: full,\n"
                       "     region: {lower: [0, 0, 0], upper: [1, 1, 0.5]}}\n"
                       "  - {name: fields, type: grid, cells: [2, 3, 4], every: 5,\n"
                       "     region: {lower: [0, 0, 0], upper: [1, 1, 1]}}\n"
                       "  - {type: mass_flow, every: 100}\n"),
      "t");
  const auto& list = c.measurements.list;
  ASSERT_EQ(list.size(), 4u);
  EXPECT_EQ(list[0].name, "coordination");
  EXPECT_EQ(list[0].every, 10);
  EXPECT_TRUE(list[0].walls);
  EXPECT_EQ(list[0].contacts, ContactCount::Touching);
  EXPECT_FALSE(list[0].region.bounded);
  EXPECT_EQ(list[1].kind, MeasurementKind::Stress);
  EXPECT_EQ(list[1].kinetic, KineticStress::Full);
  EXPECT_DOUBLE_EQ(list[1].region.upper.z(), 0.5);
  EXPECT_EQ(list[2].cells[1], 3);
  EXPECT_EQ(list[3].kind, MeasurementKind::MassFlow);
  test::expectRoundTrip(c, "t");
}

TEST(MeasurementsConfig, BadKeysAreNamed) {
  expectContains(errorOf("  - {type: coordination, evry: 3}\n"),
                 {"measurements.0.evry", "unknown key", "did you mean 'every'"});
  expectContains(errorOf("  - {type: fabric, region: {lower: [0, 0, 0], uper: [1, 1, 1]}}\n"),
                 {"measurements.0.region"});
  expectContains(errorOf("  - {type: stress}\n"), {"measurements.0.region", "volume"});
  expectContains(errorOf("  - {type: mass_flow, region: {lower: [0, 0, 0], upper: [1, 1, 1]}}\n"),
                 {"measurements.0.region", "does not apply"});
  expectContains(errorOf("  - {type: coordination, cells: [1, 1, 1]}\n"),
                 {"measurements.0.cells", "does not apply"});
  expectContains(errorOf("  - {type: grid, cells: [1, 0, 1], region: {lower: [0, 0, 0], upper: "
                         "[1, 1, 1]}}\n"),
                 {"measurements.0.cells", "three integers"});
  expectContains(errorOf("  - {type: coordination}\n  - {type: coordination}\n"),
                 {"measurements.1.name", "no other measurement"});
  expectContains(errorOf("  - {type: density}\n"), {"measurements.0.type", "packing_fraction"});
  expectContains(errorOf("  - {type: packing_fraction, region: {lower: [0, 0, 0], upper: [1, 0, "
                         "1]}}\n"),
                 {"measurements.0.region.upper"});
}

}  // namespace
}  // namespace grains
