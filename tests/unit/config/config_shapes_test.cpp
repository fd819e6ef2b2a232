// Config keys for overdamped dynamics, body shapes, constraint methods, force
// fields and shaped extra bodies: parsing, round trip through configToYaml,
// and errors that name the key, the value and what was expected.
#include <gtest/gtest.h>

#include <initializer_list>
#include <string>

#include "config_test_support.hpp"
#include "grains/config/config_loader.hpp"

namespace grains {
namespace {

using test::expectContains;

const char* const kBase = R"(simulation: {dt: 0.01, steps: 10}
bodies:
  radius: 0.1
  mass: 1.0
  generator:
    type: lattice
    count: 8
    region: {type: box, min: [0, 0, 0], max: [4, 4, 4]}
)";

SimulationConfig load(const std::string& yaml, const std::vector<std::string>& overrides = {}) {
  return test::loadYaml(yaml, "shapes.yaml", overrides);
}

std::string errorOf(const std::string& yaml, const std::vector<std::string>& overrides = {}) {
  return test::configErrorOf(yaml, "shapes.yaml", overrides);
}

void expectRoundTrip(const SimulationConfig& config) {
  test::expectRoundTrip(config, "shapes.yaml");
}

TEST(ConfigShapes, DefaultsOfTheNewKeys) {
  const SimulationConfig c = load(kBase);
  EXPECT_EQ(c.simulation.dynamics, DynamicsKind::Inertial);
  EXPECT_DOUBLE_EQ(c.simulation.drag, 1.0);
  EXPECT_EQ(c.bodies.shape, ShapeKind::Sphere);
  EXPECT_FALSE(c.bodies.random_orientation);
  EXPECT_FALSE(c.bodies.volume_fraction.has_value());
  EXPECT_EQ(c.contact.method, ConstraintMethod::Single);
  EXPECT_EQ(c.contact.subspheres, 7);
  EXPECT_DOUBLE_EQ(c.contact.subsphere_buffer, 0.0);
  EXPECT_DOUBLE_EQ(c.contact.overlap_tolerance, 1e-5);
  EXPECT_EQ(c.contact.max_recursions, 50);
  EXPECT_EQ(c.force_field.kind, ForceFieldKind::None);
  EXPECT_DOUBLE_EQ(c.force_field.strength, 1.0);
  EXPECT_EQ(c.force_field.center, Vec3::Zero());
  expectRoundTrip(c);
}

TEST(ConfigShapes, OverdampedDynamicsWithDrag) {
  const SimulationConfig c = load(kBase, {"simulation.dynamics=overdamped", "simulation.drag=2.5"});
  EXPECT_EQ(c.simulation.dynamics, DynamicsKind::Overdamped);
  EXPECT_DOUBLE_EQ(c.simulation.drag, 2.5);
  expectRoundTrip(c);
  expectContains(errorOf(kBase, {"simulation.drag=0"}),
                 {"simulation.drag = 0", "expected a number > 0"});
  expectContains(errorOf(kBase, {"simulation.dynamics=brownian"}),
                 {"simulation.dynamics = brownian", "inertial, overdamped"});
}

TEST(ConfigShapes, SpherocylinderBodies) {
  const SimulationConfig c = load(kBase, {"bodies.shape=spherocylinder", "bodies.half_length=0.3",
                                          "bodies.random_orientation=true"});
  EXPECT_EQ(c.bodies.shape, ShapeKind::Spherocylinder);
  EXPECT_DOUBLE_EQ(c.bodies.half_length, 0.3);
  EXPECT_DOUBLE_EQ(c.bodies.radius, 0.1);
  EXPECT_TRUE(c.bodies.random_orientation);
  expectRoundTrip(c);
  expectContains(errorOf(kBase, {"bodies.shape=spherocylinder"}),
                 {"bodies.half_length", "missing", "a number > 0"});
  expectContains(errorOf(kBase, {"bodies.shape=spherocylinder", "bodies.half_length=-1"}),
                 {"bodies.half_length = -1", "a number > 0"});
  // Spacing is checked against the bounding radius h + r = 0.4.
  expectContains(errorOf(kBase, {"bodies.shape=spherocylinder", "bodies.half_length=0.3",
                                 "bodies.generator.spacing=0.5"}),
                 {"bodies.generator.spacing = 0.5", ">= 0.8"});
}

TEST(ConfigShapes, EllipsoidBodies) {
  const SimulationConfig c = load(
      kBase, {"bodies.radius=~", "bodies.shape=ellipsoid", "bodies.semi_axes=[0.1, 0.2, 0.4]"});
  EXPECT_EQ(c.bodies.shape, ShapeKind::Ellipsoid);
  EXPECT_EQ(c.bodies.semi_axes, Vec3(0.1, 0.2, 0.4));
  EXPECT_DOUBLE_EQ(c.bodies.radius, 0.4);  // bounding radius
  expectRoundTrip(c);
  expectContains(errorOf(kBase, {"bodies.radius=~", "bodies.shape=ellipsoid"}),
                 {"bodies.semi_axes", "missing"});
  expectContains(errorOf(kBase, {"bodies.radius=~", "bodies.shape=ellipsoid",
                                 "bodies.semi_axes=[0.1, 0, 0.4]"}),
                 {"bodies.semi_axes = [0.1, 0, 0.4]", "three numbers > 0"});
  // radius with an ellipsoid is an error naming the key.
  expectContains(errorOf(kBase, {"bodies.shape=ellipsoid", "bodies.semi_axes=[0.1, 0.2, 0.4]"}),
                 {"bodies.radius", "does not apply", "semi_axes", "bodies.shape = ellipsoid"});
}

TEST(ConfigShapes, TorusBodies) {
  const SimulationConfig c = load(kBase, {"bodies.shape=torus", "bodies.major_radius=0.5"});
  EXPECT_EQ(c.bodies.shape, ShapeKind::Torus);
  EXPECT_DOUBLE_EQ(c.bodies.major_radius, 0.5);
  EXPECT_DOUBLE_EQ(c.bodies.radius, 0.1);
  expectRoundTrip(c);
  expectContains(errorOf(kBase, {"bodies.shape=torus", "bodies.major_radius=0.1"}),
                 {"bodies.major_radius = 0.1", "a number > bodies.radius = 0.1"});
  expectContains(errorOf(kBase, {"bodies.shape=torus"}), {"bodies.major_radius", "missing"});
}

TEST(ConfigShapes, UnknownShapeAndKeysOfOtherShapesAreErrors) {
  expectContains(errorOf(kBase, {"bodies.shape=cube"}),
                 {"bodies.shape = cube", "sphere, spherocylinder, ellipsoid, torus"});
  expectContains(errorOf(kBase, {"bodies.half_length=0.2"}),
                 {"bodies.half_length", "does not apply", "bodies.shape = sphere"});
  expectContains(errorOf(kBase, {"bodies.major_radius=2"}),
                 {"bodies.major_radius", "does not apply", "torus"});
  expectContains(errorOf(kBase, {"bodies.semi_axes=[1, 1, 1]"}),
                 {"bodies.semi_axes", "does not apply", "ellipsoid"});
  expectContains(
      errorOf(kBase, {"bodies.shape=torus", "bodies.major_radius=0.5", "bodies.radius_spread=0.1"}),
      {"bodies.radius_spread", "does not apply", "bodies.shape = torus"});
  expectContains(errorOf(kBase, {"bodies.random_orientation=maybe"}),
                 {"bodies.random_orientation = maybe", "true or false"});
}

TEST(ConfigShapes, VolumeFractionOnlyForRandomPacking) {
  const SimulationConfig c =
      load(kBase, {"bodies.generator.type=random", "bodies.generator.spacing=~",
                   "bodies.generator.jitter=~", "bodies.volume_fraction=0.01"});
  ASSERT_TRUE(c.bodies.volume_fraction.has_value());
  EXPECT_DOUBLE_EQ(*c.bodies.volume_fraction, 0.01);
  expectRoundTrip(c);
  expectContains(errorOf(kBase, {"bodies.generator.type=random", "bodies.volume_fraction=0.5"}),
                 {"bodies.volume_fraction = 0.5", "a number in (0, 0.5)"});
  expectContains(errorOf(kBase, {"bodies.generator.type=random", "bodies.volume_fraction=0"}),
                 {"bodies.volume_fraction = 0", "a number in (0, 0.5)"});
  expectContains(errorOf(kBase, {"bodies.volume_fraction=0.1"}),
                 {"bodies.volume_fraction", "does not apply", "random"});
}

const char* const kChainmail = R"(simulation: {dt: 0.01, steps: 10, dynamics: overdamped}
bodies:
  shape: torus
  radius: 0.1
  major_radius: 1.0
  density: 1.0
  generator: {type: chainmail, rings_x: 3, rings_y: 2}
force_field: {type: extension, strength: 2, center: [1, 2, 3]}
)";

TEST(ConfigShapes, ChainmailGenerator) {
  const SimulationConfig c = load(kChainmail);
  EXPECT_EQ(c.bodies.generator, GeneratorKind::Chainmail);
  EXPECT_EQ(c.bodies.rings_x, 3);
  EXPECT_EQ(c.bodies.rings_y, 2);
  EXPECT_EQ(c.bodies.count, 3 * 2 + 2 * 2 + 3 * 1);  // flat + x-links + y-links
  // Without a region the lattice is centred on the origin.
  EXPECT_TRUE((c.bodies.region.min_corner + c.bodies.region.max_corner).isZero(1e-12));
  EXPECT_EQ(c.force_field.kind, ForceFieldKind::RadialExtension);
  EXPECT_DOUBLE_EQ(c.force_field.strength, 2.0);
  EXPECT_EQ(c.force_field.center, Vec3(1.0, 2.0, 3.0));
  expectRoundTrip(c);

  expectContains(errorOf(kChainmail, {"bodies.generator.rings_x=0"}),
                 {"bodies.generator.rings_x = 0", "an integer in [1, 10000]"});
  expectContains(errorOf(kChainmail, {"bodies.generator.count=5"}),
                 {"bodies.generator.count", "unknown key"});
  expectContains(errorOf(kChainmail, {"bodies.random_orientation=true"}),
                 {"bodies.random_orientation = true", "chainmail"});
  expectContains(errorOf(kBase, {"bodies.generator.type=chainmail"}),
                 {"bodies.generator.type = chainmail", "bodies.shape: torus"});
}

TEST(ConfigShapes, ForceFieldErrors) {
  const SimulationConfig c = load(kBase, {"force_field.type=compaction"});
  EXPECT_EQ(c.force_field.kind, ForceFieldKind::RadialCompaction);
  expectRoundTrip(c);
  expectContains(errorOf(kBase, {"force_field.type=vortex"}),
                 {"force_field.type = vortex", "none, compaction, extension"});
  expectContains(errorOf(kBase, {"force_field.strength=-1"}),
                 {"force_field.strength = -1", "a number >= 0"});
  expectContains(errorOf(kBase, {"force_field.center=[1, 2]"}),
                 {"force_field.center = [1, 2]", "[x, y, z]"});
  expectContains(errorOf(kBase, {"force_field.gain=1"}), {"force_field.gain", "unknown key"});
}

TEST(ConfigShapes, ContactMethods) {
  const SimulationConfig m = load(kBase, {"contact.method=multisphere", "contact.subspheres=13",
                                          "contact.subsphere_buffer=0.3"});
  EXPECT_EQ(m.contact.method, ConstraintMethod::Multisphere);
  EXPECT_EQ(m.contact.subspheres, 13);
  EXPECT_DOUBLE_EQ(m.contact.subsphere_buffer, 0.3);
  expectRoundTrip(m);
  expectContains(errorOf(kBase, {"contact.subsphere_buffer=-0.1"}),
                 {"contact.subsphere_buffer = -0.1", "a number >= 0"});
  const SimulationConfig r = load(kBase, {"contact.method=relcp", "contact.overlap_tolerance=1e-4",
                                          "contact.max_recursions=20"});
  EXPECT_EQ(r.contact.method, ConstraintMethod::Relcp);
  EXPECT_DOUBLE_EQ(r.contact.overlap_tolerance, 1e-4);
  EXPECT_EQ(r.contact.max_recursions, 20);
  EXPECT_TRUE(r.contact.adaptive_envelope);
  expectRoundTrip(r);
  const SimulationConfig fixed =
      load(kBase, {"contact.method=relcp", "contact.adaptive_envelope=false"});
  EXPECT_FALSE(fixed.contact.adaptive_envelope);
  expectRoundTrip(fixed);
  expectContains(errorOf(kBase, {"contact.adaptive_envelope=false"}),
                 {"contact.adaptive_envelope", "method: relcp"});
  const SimulationConfig slop =
      load(kBase,
           {"contact.method=relcp", "contact.overlap_tolerance=1e-4", "contact.overlap_slop=5e-5"});
  EXPECT_DOUBLE_EQ(slop.contact.overlap_slop, 5e-5);
  expectRoundTrip(slop);
  EXPECT_DOUBLE_EQ(load(kBase, {}).contact.overlap_slop, 0.0);
  expectContains(errorOf(kBase, {"contact.overlap_slop=-1e-5"}),
                 {"contact.overlap_slop = -1e-5", "a number >= 0"});
  // The lift correction needs a friction model whose bound scales with the normal unknown.
  const SimulationConfig lift =
      load(kBase, {"contact.friction=coulomb", "contact.mu=0.3", "contact.lift_correction=3"});
  EXPECT_EQ(lift.contact.lift_correction, 3);
  expectRoundTrip(lift);
  EXPECT_EQ(load(kBase, {}).contact.lift_correction, 0);
  expectContains(errorOf(kBase, {"contact.lift_correction=2"}),
                 {"contact.lift_correction = 2", "0 with contact.friction = frictionless"});
  expectContains(
      errorOf(kBase, {"contact.friction=coulomb", "contact.mu=0.3", "contact.lift_correction=-1"}),
      {"contact.lift_correction = -1", "an integer in [0"});
  expectContains(errorOf(kBase, {"contact.friction=coulomb", "contact.mu=0.3",
                                 "contact.lift_correction=3", "contact.method=relcp"}),
                 {"contact.lift_correction = 3", "0 with contact.method = relcp"});
  // ReLCP re-solves while an overlap exceeds its tolerance: the slop must stay below it.
  expectContains(errorOf(kBase, {"contact.method=relcp", "contact.overlap_tolerance=1e-4",
                                 "contact.overlap_slop=1e-4"}),
                 {"contact.overlap_slop = 1e-4", "< contact.overlap_tolerance = 0.0001",
                  "contact.method = relcp"});

  expectContains(errorOf(kBase, {"contact.method=mesh"}),
                 {"contact.method = mesh", "single, multisphere, relcp"});
  expectContains(errorOf(kBase, {"contact.subspheres=0"}),
                 {"contact.subspheres = 0", "an integer in [1"});
  expectContains(errorOf(kBase, {"contact.overlap_tolerance=0"}),
                 {"contact.overlap_tolerance = 0", "a number > 0"});
  expectContains(errorOf(kBase, {"contact.max_recursions=0"}),
                 {"contact.max_recursions = 0", "an integer in [1"});
  // Even sub-sphere counts are fine for spheres, not for ellipsoids under multisphere.
  EXPECT_NO_THROW(load(kBase, {"contact.method=multisphere", "contact.subspheres=8"}));
  const std::vector<std::string> ellipsoids = {"bodies.radius=~", "bodies.shape=ellipsoid",
                                               "bodies.semi_axes=[0.1, 0.1, 0.2]",
                                               "contact.subspheres=8"};
  EXPECT_NO_THROW(load(kBase, ellipsoids));  // method single: subspheres unused
  std::vector<std::string> multisphere = ellipsoids;
  multisphere.push_back("contact.method=multisphere");
  expectContains(errorOf(kBase, multisphere),
                 {"contact.subspheres = 8", "an odd integer", "ellipsoid"});
}

const char* const kExtras = R"(extra_bodies:
  - {shape: ellipsoid, semi_axes: [0.1, 0.2, 0.3], mass: 2, position: [1, 1, 3],
     orientation: [2, 0, 0, 2], force: [0, 0, -1]}
  - {shape: torus, radius: 0.05, major_radius: 0.4, mass: 1, position: [3, 3, 3], axis: [1, 0, 0]}
  - {shape: sphere, radius: 0.1, mass: 1, position: [3, 1, 3], force: [1, 2, 3]}
)";

TEST(ConfigShapes, ExtraBodiesWithShapesOrientationAndForce) {
  const SimulationConfig c = load(std::string(kBase) + kExtras);
  ASSERT_EQ(c.extra_bodies.size(), 3u);
  const ExplicitBody& e = c.extra_bodies[0];
  EXPECT_EQ(e.shape, ShapeKind::Ellipsoid);
  EXPECT_EQ(e.semi_axes, Vec3(0.1, 0.2, 0.3));
  ASSERT_TRUE(e.orientation.has_value());
  // [2, 0, 0, 2] normalised: a quarter turn about z.
  EXPECT_NEAR(e.orientation->w(), std::sqrt(0.5), 1e-15);
  EXPECT_NEAR(e.orientation->z(), std::sqrt(0.5), 1e-15);
  EXPECT_EQ(e.force, Vec3(0.0, 0.0, -1.0));
  const ExplicitBody& t = c.extra_bodies[1];
  EXPECT_EQ(t.shape, ShapeKind::Torus);
  EXPECT_DOUBLE_EQ(t.radius, 0.05);
  EXPECT_DOUBLE_EQ(t.major_radius, 0.4);
  EXPECT_EQ(t.axis, Vec3::UnitX());
  EXPECT_FALSE(t.orientation.has_value());
  EXPECT_EQ(c.extra_bodies[2].force, Vec3(1.0, 2.0, 3.0));
  expectRoundTrip(c);
}

TEST(ConfigShapes, ExtraBodyErrorsNameTheKey) {
  auto extra = [](const std::string& entry) {
    return std::string(kBase) + "extra_bodies:\n  - " + entry + "\n";
  };
  expectContains(errorOf(extra("{shape: ellipsoid, semi_axes: [0.1, 0.2, 0.3], mass: 1, "
                               "position: [1, 1, 1], orientation: [0, 0, 0, 0]}")),
                 {"extra_bodies.0.orientation = [0, 0, 0, 0]", "non-zero norm"});
  expectContains(errorOf(extra("{shape: ellipsoid, semi_axes: [0.1, 0.2, 0.3], mass: 1, "
                               "position: [1, 1, 1], orientation: [1, 0, 0]}")),
                 {"extra_bodies.0.orientation = [1, 0, 0]", "[w, x, y, z]"});
  expectContains(errorOf(extra("{shape: ellipsoid, semi_axes: [0.1, 0.2, 0.3], mass: 1, "
                               "position: [1, 1, 1], orientation: [1, 0, 0, 0], axis: [1, 0, 0]}")),
                 {"extra_bodies.0.orientation", "only one of them"});
  expectContains(
      errorOf(extra("{shape: ellipsoid, radius: 0.1, semi_axes: [0.1, 0.2, 0.3], mass: 1, "
                    "position: [1, 1, 1]}")),
      {"extra_bodies.0.radius", "does not apply"});
  expectContains(errorOf(extra("{shape: torus, radius: 0.5, major_radius: 0.4, mass: 1, "
                               "position: [1, 1, 1]}")),
                 {"extra_bodies.0.major_radius = 0.4", "> extra_bodies.0.radius = 0.5"});
  expectContains(errorOf(extra("{shape: torus, radius: 0.1, mass: 1, position: [1, 1, 1]}")),
                 {"extra_bodies.0.major_radius", "missing"});
  expectContains(
      errorOf(extra("{shape: sphere, radius: 0.1, mass: 1, position: [1, 1, 1], axis: [1, 0, 0]}")),
      {"extra_bodies.0.axis", "does not apply"});
  expectContains(errorOf(extra("{shape: cone, radius: 0.1, mass: 1, position: [1, 1, 1]}")),
                 {"extra_bodies.0.shape = cone", "ellipsoid, torus"});
  expectContains(errorOf(extra("{shape: sphere, radius: 0.1, mass: 1, position: [1, 1, 1], "
                               "force: [1, 2]}")),
                 {"extra_bodies.0.force = [1, 2]", "[x, y, z]"});
}

TEST(ConfigShapes, SchemaSummaryListsTheNewKeys) {
  const std::string text = describeSchema();
  for (const char* key :
       {"overdamped", "drag", "ellipsoid", "torus", "semi_axes", "major_radius",
        "random_orientation", "volume_fraction", "chainmail", "rings_x", "multisphere", "relcp",
        "subspheres", "subsphere_buffer", "overlap_tolerance", "max_recursions",
        "force_field:", "compaction", "orientation"}) {
    EXPECT_NE(text.find(key), std::string::npos) << key;
  }
}

}  // namespace
}  // namespace grains

namespace grains {
namespace {

// A scenario made only of extra bodies (the two ellipsoids of Palmer et al. (2025)) sets
// bodies.generator.count to 0; without extra bodies that is an error.
TEST(ConfigShapes, ZeroGeneratedBodiesOnlyWithExtraBodies) {
  std::string yaml = kBase;
  yaml.replace(yaml.find("count: 8"), 8, "count: 0");
  expectContains(errorOf(yaml), {"bodies.generator.count", "0", "extra_bodies"});
  const SimulationConfig config =
      load(yaml +
           "extra_bodies:\n  - {shape: ellipsoid, semi_axes: [1, 1, 2], mass: 1, "
           "position: [0, 0, 0]}\n");
  EXPECT_EQ(config.bodies.count, 0);
  ASSERT_EQ(config.extra_bodies.size(), 1u);
  EXPECT_EQ(config.extra_bodies[0].shape, ShapeKind::Ellipsoid);
}

}  // namespace
}  // namespace grains
