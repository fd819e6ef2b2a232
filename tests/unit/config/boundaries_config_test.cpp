// Insertion sources, outlets and force-controlled walls in the config
// (docs/config.md#insertion, #outlets): parsed, written back by the
// effective-config writer and read again unchanged; bad input names the key
// and what was expected.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "config_test_support.hpp"
#include "grains/config/config_loader.hpp"

namespace grains {
namespace {

using test::expectContains;

using test::latticeErrorOf;
using test::latticeWith;

const char* const kPour = R"(insertion:
  - name: hopper
    radius: 0.05
    radius_spread: 0.1
    density: 2500
    region: {type: cylinder, center: [0.5, 0.5], radius: 0.3, z_min: 2, z_max: 3}
    rate: 100
    end: 2
    every: 0.1
    velocity: [0, 0, -1]
    velocity_spread: 0.2
  - {name: lumps, shape: ellipsoid, semi_axes: [0.1, 0.05, 0.05], mass: 0.01,
     random_orientation: true, region: {type: box, min: [0, 0, 2], max: [1, 1, 3]},
     mass_rate: 0.5, start: 1, count: 20}
outlets:
  - {name: bottom, type: plane, point: [0, 0, -1], normal: [0, 0, 1]}
  - {name: bin, type: box, min: [2, 2, -1], max: [3, 3, 0]}
contact: {compliance: 1.0e-6}
walls:
  - {type: plane, name: piston, point: [0, 0, 2], normal: [0, 0, -1],
     motion: {force_control: {mass: 2, force: [0, 0, -50]}}}
)";

TEST(BoundariesConfig, SourcesOutletsAndPistonsParseAndRoundTrip) {
  const SimulationConfig c = test::loadYaml(latticeWith(kPour), "t");
  ASSERT_EQ(c.insertion.size(), 2u);
  const InsertionSource& hopper = c.insertion[0];
  EXPECT_EQ(hopper.name, "hopper");
  EXPECT_EQ(hopper.region.kind, Region::Kind::Cylinder);
  EXPECT_DOUBLE_EQ(hopper.rate, 100.0);
  EXPECT_DOUBLE_EQ(*hopper.end, 2.0);
  EXPECT_DOUBLE_EQ(hopper.bodies.radius_spread, 0.1);
  EXPECT_EQ(hopper.velocity, Vec3(0, 0, -1));
  const InsertionSource& lumps = c.insertion[1];
  EXPECT_EQ(lumps.bodies.shape, ShapeKind::Ellipsoid);
  // 0.5 kg/s of 10 g bodies: 50 bodies per second.
  EXPECT_DOUBLE_EQ(lumps.rate, 50.0);
  EXPECT_EQ(*lumps.count, 20);
  ASSERT_EQ(c.outlets.size(), 2u);
  EXPECT_EQ(c.outlets[0].kind, OutletSpec::Kind::Plane);
  EXPECT_EQ(c.outlets[1].max, Vec3(3, 3, 0));
  ASSERT_EQ(c.walls.size(), 1u);
  EXPECT_DOUBLE_EQ(c.walls[0].force_control.mass, 2.0);
  EXPECT_EQ(c.walls[0].force_control.force, Vec3(0, 0, -50));
  EXPECT_TRUE(c.walls[0].force_control.gravity);
  EXPECT_FALSE(c.walls[0].motion.moves());
  test::expectRoundTrip(c, "again");
  // Spheres with a spread: the mass rate counts their mean mass, (1 + s^2) m(r).
  const SimulationConfig m = test::loadYaml(
      latticeWith("insertion:\n  - {radius: 0.1, radius_spread: 0.3, density: 1000, mass_rate: 1,"
                  " end: 1, region: {type: box, min: [0, 0, 0], max: [1, 1, 1]}}\n"),
      "m");
  EXPECT_NEAR(m.insertion[0].rate, 1.0 / (1000 * 4.0 / 3.0 * kPi * 1e-3 * 1.09), 1e-12);
  EXPECT_EQ(m.insertion[0].name, "insertion.0");
}

TEST(BoundariesConfig, RectangularHolesParseAndRoundTrip) {
  const SimulationConfig c = test::loadYaml(
      latticeWith("walls:\n"
                  "  - {type: plane, name: floor, normal: [0, 0, 1],\n"
                  "     hole: {type: rectangle, size: [0.1, 0.04], axis: [1, 1, 0.5]}}\n"
                  "  - {type: disc, name: plate, normal: [0, 0, 1], radius: 0.2,\n"
                  "     hole: {type: rectangle, size: [0.1, 0.04]}}\n"),
      "t");
  ASSERT_EQ(c.walls.size(), 2u);
  EXPECT_EQ(c.walls[0].kind, WallKind::Disc);
  EXPECT_TRUE(std::isinf(c.walls[0].radius));
  EXPECT_DOUBLE_EQ(c.walls[0].hole_half_length, 0.05);
  EXPECT_DOUBLE_EQ(c.walls[0].hole_half_width, 0.02);
  // The axis is projected into the sheet.
  EXPECT_TRUE(c.walls[0].hole_axis.isApprox(Vec3(1, 1, 0).normalized()));
  EXPECT_TRUE(c.walls[1].hasRectangularHole());
  EXPECT_DOUBLE_EQ(c.walls[1].radius, 0.2);
  test::expectRoundTrip(c, "again");
}

TEST(BoundariesConfig, APourNeedsNoInitialBodies) {
  std::string yaml = latticeWith(
      "insertion:\n  - {radius: 0.1, mass: 1, rate: 10, end: 1,\n"
      "     region: {type: box, min: [0, 0, 0], max: [1, 1, 1]}}\n");
  yaml.replace(yaml.find("count: 8"), 8, "count: 0");
  EXPECT_NO_THROW(test::loadYaml(yaml, "t"));
}

TEST(BoundariesConfig, BadInputNamesTheKey) {
  const std::string region = "region: {type: box, min: [0, 0, 0], max: [1, 1, 1]}";
  expectContains(latticeErrorOf("insertion:\n  - {radius: 0.1, mass: 1, end: 1, " + region + "}\n"),
                 {"insertion.0", "neither of insertion.0.rate and insertion.0.mass_rate"});
  expectContains(
      latticeErrorOf("insertion:\n  - {radius: 0.1, mass: 1, rate: 1, end: 1, count: 3, " + region +
                     "}\n"),
      {"insertion.0.count", "no count when insertion.0.end is given"});
  expectContains(
      latticeErrorOf("insertion:\n  - {radius: 0.1, mass: 1, rate: 1, start: 2, end: 1, " + region +
                     "}\n"),
      {"insertion.0.end = 1", "a time > insertion.0.start"});
  expectContains(
      latticeErrorOf("insertion:\n  - {radius: 0.6, mass: 1, rate: 1, end: 1, " + region + "}\n"),
      {"insertion.0.region", "wider than a body"});
  expectContains(latticeErrorOf("insertion:\n  - {radius: 0.1, mass: 1, rate: 1, end: 1, " +
                                region + ", velocty: [0, 0, 1]}\n"),
                 {"insertion.0.velocty", "did you mean 'velocity'"});
  expectContains(
      latticeErrorOf("outlets:\n  - {name: a, type: box, min: [0, 0, 0], max: [1, 0, 1]}\n"),
      {"outlets.0.max", "every component greater than outlets.0.min"});
  expectContains(latticeErrorOf("outlets:\n  - {name: a, type: plane, normal: [0, 0, 1]}\n"
                                "  - {name: a, type: plane, normal: [0, 0, 1]}\n"),
                 {"outlets.1.name", "a name no other entry of outlets has"});
  expectContains(
      latticeErrorOf("walls:\n  - {type: plane, name: p, normal: [0, 0, -1],\n"
                     "     motion: {force_control: {mass: 1}}}\n"),
      {"p is force-controlled and contact.compliance = 0", "expected contact.compliance > 0"});
  expectContains(
      latticeErrorOf("contact: {compliance: 1.0e-6}\nwalls:\n"
                     "  - {type: cylinder, radius: 1, motion: {force_control: {mass: 1}}}\n"),
      {"walls.0.motion.force_control", "expected a plane or a disc"});
  expectContains(latticeErrorOf("contact: {compliance: 1.0e-6}\nwalls:\n"
                                "  - {type: plane, normal: [0, 0, 1],\n"
                                "     motion: {velocity: [0, 0, 1], force_control: {mass: 1}}}\n"),
                 {"walls.0.motion.velocity", "a force-controlled wall moves as its force drives"});
  expectContains(latticeErrorOf("walls:\n  - {type: plane, normal: [0, 0, 1],\n"
                                "     hole: {type: rectangle, size: [0.1, 0]}}\n"),
                 {"walls.0.hole.size", "two numbers > 0"});
  expectContains(latticeErrorOf("walls:\n  - {type: disc, normal: [0, 0, 1], radius: 0.05,\n"
                                "     hole: {type: rectangle, size: [0.1, 0.04]}}\n"),
                 {"walls.0.hole.size", "a hole inside the disc"});
  expectContains(
      latticeErrorOf("walls:\n  - {type: plane, normal: [0, 0, 1],\n"
                     "     hole: {type: rectangle, size: [0.1, 0.04], axis: [0, 0, 2]}}\n"),
      {"walls.0.hole.axis", "not along the wall's normal"});
  expectContains(latticeErrorOf("walls:\n  - {type: plane, normal: [0, 0, 1], hole_radius: 0.1,\n"
                                "     hole: {type: rectangle, size: [0.1, 0.04]}}\n"),
                 {"walls.0.hole", "walls.0.hole_radius is given"});
  expectContains(
      latticeErrorOf("growth: {rate: 1}\ninsertion:\n  - {radius: 0.1, mass: 1, rate: 1, "
                     "end: 1, " +
                     region + "}\n"),
      {"insertion: not available with growth.rate > 0"});
}

}  // namespace
}  // namespace grains
