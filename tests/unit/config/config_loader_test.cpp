// Loading valid configs: the built-in demo, defaults, overrides, round trips.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "grains/config/config_loader.hpp"
#include "grains/scenario/body_generator.hpp"

namespace grains {
namespace {

const char* const kMinimal = R"(
simulation: {dt: 0.01, steps: 10}
bodies:
  radius: 0.1
  mass: 1.0
  generator: {type: lattice, count: 8, region: {type: box, min: [0, 0, 0], max: [1, 1, 1]}}
)";

std::string readText(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(ConfigLoader, DefaultDemoHasTheDocumentedValues) {
  const SimulationConfig c = defaultConfig();
  EXPECT_EQ(c.simulation.dynamics, DynamicsKind::Inertial);
  EXPECT_DOUBLE_EQ(c.simulation.dt, 0.005);
  ASSERT_TRUE(c.simulation.end_time.has_value());
  EXPECT_FALSE(c.simulation.steps.has_value());
  EXPECT_DOUBLE_EQ(*c.simulation.end_time, 4.0);
  EXPECT_EQ(c.simulation.totalSteps(), 800);
  EXPECT_EQ(c.simulation.gravity, Vec3(0.0, 0.0, -9.81));
  EXPECT_EQ(c.simulation.seed, 1UL);

  EXPECT_EQ(c.bodies.shape, ShapeKind::Sphere);
  EXPECT_DOUBLE_EQ(c.bodies.radius, 0.1);
  EXPECT_DOUBLE_EQ(c.bodies.radius_spread, 0.0);
  ASSERT_TRUE(c.bodies.mass.has_value());
  EXPECT_FALSE(c.bodies.density.has_value());
  EXPECT_DOUBLE_EQ(*c.bodies.mass, 6.28);
  EXPECT_EQ(c.bodies.generator, GeneratorKind::Lattice);
  EXPECT_EQ(c.bodies.count, 1000);
  EXPECT_DOUBLE_EQ(c.bodies.spacing, 0.25);
  EXPECT_DOUBLE_EQ(c.bodies.jitter, 0.1);
  EXPECT_EQ(c.bodies.region.kind, Region::Kind::Cylinder);
  EXPECT_DOUBLE_EQ(c.bodies.region.radius, 1.85);
  EXPECT_DOUBLE_EQ(c.bodies.region.center.x(), 0.0);
  EXPECT_DOUBLE_EQ(c.bodies.region.center.y(), 0.0);
  EXPECT_DOUBLE_EQ(c.bodies.region.min_corner.z(), 0.05);

  ASSERT_EQ(c.walls.size(), 2u);
  EXPECT_EQ(c.walls[0].kind, WallKind::Plane);
  EXPECT_EQ(c.walls[0].name, "floor");
  EXPECT_EQ(c.walls[0].point, Vec3::Zero());
  EXPECT_EQ(c.walls[0].normal, Vec3::UnitZ());
  EXPECT_EQ(c.walls[1].kind, WallKind::CylinderInside);
  EXPECT_EQ(c.walls[1].name, "container");
  EXPECT_DOUBLE_EQ(c.walls[1].radius, 2.0);
  EXPECT_EQ(c.walls[1].normal, Vec3::UnitZ());

  // Rolling and spinning resistance turn the Coulomb cone into coulomb_rolling.
  EXPECT_EQ(c.contact.friction, FrictionModel::CoulombRolling);
  EXPECT_DOUBLE_EQ(c.contact.mu, 0.3);
  EXPECT_DOUBLE_EQ(c.contact.rolling_friction, 0.05);
  EXPECT_DOUBLE_EQ(c.contact.spinning_friction, 0.05);
  EXPECT_DOUBLE_EQ(c.contact.overlap_slop, 1e-5);
  EXPECT_DOUBLE_EQ(c.contact.envelope, 0.02);
  EXPECT_DOUBLE_EQ(c.contact.damping_steps, 4.0);
  EXPECT_EQ(c.solver.name, "apgd");
  EXPECT_DOUBLE_EQ(c.solver.settings.tolerance, 1e-6);
  EXPECT_EQ(c.solver.settings.max_iterations, 1000);
  EXPECT_EQ(c.output.dir, "output");
  EXPECT_EQ(c.output.vtk_every, 10);
  EXPECT_EQ(c.simulation.totalSteps() / c.output.vtk_every, 80);
  EXPECT_EQ(c.output.log_every, 50);
  EXPECT_EQ(c.output.metrics_every, 1);
}

TEST(ConfigLoader, DemoFileIsTheBuiltInDefault) {
  const std::string path = std::string(GRAINS_SOURCE_DIR) + "/config/demo_settle.yaml";
  EXPECT_EQ(readText(path), defaultConfigYaml());
  const SimulationConfig from_file = loadConfigFile(path);
  EXPECT_EQ(from_file.source, path);
  EXPECT_EQ(configToYaml(from_file), configToYaml(defaultConfig()));
}

TEST(ConfigLoader, ExtraBodiesAreAppendedWithTheNextGids) {
  const std::string base = R"(
simulation: {dt: 0.01, steps: 10}
bodies:
  radius: 0.1
  mass: 1.0
  generator: {type: lattice, count: 8, region: {type: box, min: [0, 0, 0], max: [1, 1, 1]}}
)";
  const SimulationConfig config = loadConfigString(base + R"(
extra_bodies:
  - {shape: cylinder, radius: 0.5, half_length: 0.1, mass: 50, position: [0.5, 0.5, 3.0], axis: [0, 1, 0]}
  - {shape: sphere, radius: 0.2, mass: 2, position: [0.5, 0.5, 5.0], velocity: [0, 0, -1]}
  - {shape: spherocylinder, radius: 0.1, half_length: 0.5, mass: 3, position: [0.5, 0.5, 7.0]}
)",
                                                   "extra.yaml", ".");
  ASSERT_EQ(config.extra_bodies.size(), 3u);
  const auto bodies = generateAllBodies(config);
  ASSERT_EQ(bodies.size(), 11u);
  EXPECT_EQ(bodies[10].shape, ShapeKind::Spherocylinder);
  EXPECT_DOUBLE_EQ(bodies[10].half_length, 0.5);
  EXPECT_EQ(bodies[8].gid, 8);
  EXPECT_EQ(bodies[8].shape, ShapeKind::Cylinder);
  EXPECT_DOUBLE_EQ(bodies[8].half_length, 0.1);
  EXPECT_NEAR((bodies[8].orientation * Vec3::UnitZ() - Vec3::UnitY()).norm(), 0.0, 1e-14);
  EXPECT_EQ(bodies[9].shape, ShapeKind::Sphere);
  EXPECT_DOUBLE_EQ(bodies[9].velocity.z(), -1.0);
  // Round trip through the effective config.
  EXPECT_EQ(configToYaml(loadConfigString(configToYaml(config), "again.yaml", ".")),
            configToYaml(config));
  try {
    loadConfigString(base +
                         "extra_bodies:\n  - {shape: cylinder, radius: 0.5, mass: 1, "
                         "position: [0, 0, 3]}\n",
                     "bad.yaml", ".");
    ADD_FAILURE() << "a cylinder without half_length was accepted";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("extra_bodies.0.half_length"), std::string::npos)
        << e.what();
  }
}

TEST(ConfigLoader, EveryExampleConfigLoadsAndGeneratesItsBodies) {
  int count = 0;
  for (const auto& entry :
       std::filesystem::directory_iterator(std::string(GRAINS_SOURCE_DIR) + "/config")) {
    if (entry.path().extension() != ".yaml") continue;
    ++count;
    try {
      const SimulationConfig config = loadConfigFile(entry.path().string());
      if (config.bodies.generator != GeneratorKind::File) {
        EXPECT_EQ(static_cast<long>(generateAllBodies(config).size()),
                  config.bodies.count + static_cast<long>(config.extra_bodies.size()));
      }
    } catch (const std::exception& e) {
      ADD_FAILURE() << entry.path() << ": " << e.what();
    }
  }
  EXPECT_GE(count, 3);
}

TEST(ConfigLoader, OmittedKeysGetTheDocumentedDefaults) {
  const SimulationConfig c = loadConfigString(kMinimal, "min.yaml", "/data");
  EXPECT_EQ(c.source, "min.yaml");
  EXPECT_EQ(c.base_dir, "/data");
  EXPECT_EQ(c.simulation.totalSteps(), 10);
  EXPECT_EQ(c.simulation.gravity, Vec3(0.0, 0.0, -9.81));
  EXPECT_EQ(c.simulation.seed, 12345UL);
  EXPECT_DOUBLE_EQ(c.bodies.spacing, 0.0);
  EXPECT_DOUBLE_EQ(c.bodies.jitter, 0.0);
  EXPECT_EQ(c.bodies.initial_velocity, Vec3::Zero());
  EXPECT_TRUE(c.walls.empty());
  EXPECT_EQ(c.contact.friction, FrictionModel::Frictionless);
  EXPECT_DOUBLE_EQ(c.contact.envelope, 0.0);
  EXPECT_DOUBLE_EQ(c.contact.damping_steps, 4.0);
  EXPECT_DOUBLE_EQ(c.contact.compliance, 0.0);
  EXPECT_EQ(c.solver.name, "apgd");
  EXPECT_FALSE(c.solver.rest.enabled());
  EXPECT_EQ(c.output.vtk_every, 0);
  EXPECT_EQ(c.output.log_every, 100);
}

TEST(ConfigLoader, BoxWallExpandsToSixInwardPlanes) {
  const SimulationConfig c = loadConfigString(
      std::string(kMinimal) + "walls:\n  - {type: box, min: [-1, -2, -3], max: [1, 2, 3]}\n",
      "box.yaml", ".");
  ASSERT_EQ(c.walls.size(), 6u);
  for (const Wall& w : c.walls) {
    EXPECT_EQ(w.kind, WallKind::Plane);
    // The box centre (origin) is on the free side of every plane.
    EXPECT_GT(w.normal.dot(Vec3::Zero() - w.point), 0.0) << w.name;
  }
  EXPECT_EQ(c.walls[0].name, "walls.0.xmin");
  EXPECT_EQ(c.walls[0].normal, Vec3::UnitX());
  EXPECT_EQ(c.walls[5].name, "walls.0.zmax");
  EXPECT_EQ(c.walls[5].normal, -Vec3::UnitZ());
  EXPECT_DOUBLE_EQ(c.walls[5].point.z(), 3.0);
}

TEST(ConfigLoader, OverridesReplaceValuesBeforeValidation) {
  const SimulationConfig c = loadConfigString(
      defaultConfigYaml(), "demo.yaml", ".",
      {"simulation.gravity=[0,0,-1]", "simulation.steps=7", "walls.1.radius=3.5",
       "bodies.density=2000", "output.dir=runs/a", "contact.friction=coulomb", "contact.mu=0.4",
       "contact.rolling_friction=0", "contact.spinning_friction=0", "walls[0].point=[0,0,0.25]"});
  EXPECT_EQ(c.simulation.gravity, Vec3(0.0, 0.0, -1.0));
  // Setting steps drops the file's end_time; setting density drops its mass.
  ASSERT_TRUE(c.simulation.steps.has_value());
  EXPECT_EQ(*c.simulation.steps, 7);
  EXPECT_FALSE(c.simulation.end_time.has_value());
  EXPECT_DOUBLE_EQ(c.walls[1].radius, 3.5);
  EXPECT_DOUBLE_EQ(c.walls[0].radius, 0.0);
  EXPECT_EQ(c.walls[0].point, Vec3(0.0, 0.0, 0.25));  // bracketed index, same as walls.0.point
  ASSERT_TRUE(c.bodies.density.has_value());
  EXPECT_DOUBLE_EQ(*c.bodies.density, 2000.0);
  EXPECT_FALSE(c.bodies.mass.has_value());
  EXPECT_EQ(c.output.dir, "runs/a");
  // With both resistances set to 0 the demo's cone is Coulomb's again.
  EXPECT_EQ(c.contact.friction, FrictionModel::Coulomb);
  EXPECT_DOUBLE_EQ(c.contact.mu, 0.4);
}

TEST(ConfigLoader, OverridesCreateMissingSectionsAndDeleteWithNull) {
  const SimulationConfig c =
      loadConfigString(kMinimal, "min.yaml", ".",
                       {"output.vtk_every=5", "simulation.seed=~", "solver.name=apgd",
                        "solver.options.max_backtracks=20"});
  EXPECT_EQ(c.output.vtk_every, 5);
  EXPECT_EQ(c.simulation.seed, 12345UL);
  EXPECT_EQ(c.solver.name, "apgd");
  ASSERT_EQ(c.solver.settings.options.count("max_backtracks"), 1u);
  EXPECT_DOUBLE_EQ(c.solver.settings.options.at("max_backtracks"), 20.0);
  // Options not given are filled in with the solver's defaults.
  ASSERT_EQ(c.solver.settings.options.count("lipschitz_shrink"), 1u);
  EXPECT_DOUBLE_EQ(c.solver.settings.options.at("lipschitz_shrink"), 0.9);
}

TEST(ConfigLoader, EffectiveConfigRoundTrips) {
  const SimulationConfig a = loadConfigString(
      std::string(kMinimal) +
          "walls:\n  - {type: box, min: [0, 0, 0], max: [1, 1, 2]}\n"
          "  - {type: cylinder, side: outside, radius: 0.05, point: [0.5, 0.5, 0]}\n"
          "contact: {friction: coulomb, mu: 0.3}\n"
          "solver: {name: pgs, rest_reduction: 0.3, rest_floor: 0.01, rest_quantile: 0.999,\n"
          "         rest_quantile_limit: 10, options: {omega: 1.3}}\n",
      "a.yaml", ".");
  const std::string text = configToYaml(a);
  const SimulationConfig b = loadConfigString(text, "b.yaml", ".");
  EXPECT_EQ(configToYaml(b), text);
  ASSERT_EQ(b.walls.size(), 7u);
  EXPECT_EQ(b.walls[6].kind, WallKind::CylinderOutside);
  EXPECT_DOUBLE_EQ(b.contact.mu, 0.3);
  EXPECT_DOUBLE_EQ(b.solver.settings.options.at("omega"), 1.3);
  EXPECT_EQ(b.solver.name, "pgs");
  EXPECT_DOUBLE_EQ(b.solver.rest.reduction, 0.3);
  EXPECT_DOUBLE_EQ(b.solver.rest.floor, 0.01);
  EXPECT_DOUBLE_EQ(b.solver.rest.quantile, 0.999);
  EXPECT_DOUBLE_EQ(b.solver.rest.quantile_limit, 10.0);
  EXPECT_DOUBLE_EQ(b.bodies.region.max_corner.x(), 1.0);
}

TEST(ConfigLoader, BulkStopRoundTrips) {
  const SimulationConfig a = loadConfigString(
      std::string(kMinimal) +
          "solver: {name: apgd, rest_reduction: 0.3, rest_floor: 0.001, rest_quantile: 0.99,\n"
          "         rest_bulk_stop: true}\n",
      "a.yaml", ".");
  EXPECT_TRUE(a.solver.rest.bulk_stop);
  const SimulationConfig b = loadConfigString(configToYaml(a), "b.yaml", ".");
  EXPECT_TRUE(b.solver.rest.bulk_stop);
  EXPECT_DOUBLE_EQ(b.solver.rest.quantile, 0.99);
}

TEST(ConfigLoader, VelocityToleranceIsTheToleranceOverDt) {
  // dt = 0.01 s: a contact-velocity error of 2 mm/s is a gap error of 20 um.
  const SimulationConfig c = loadConfigString(
      std::string(kMinimal) + "solver: {name: apgd, velocity_tolerance: 0.002}\n", "v.yaml", ".");
  EXPECT_DOUBLE_EQ(c.solver.settings.tolerance, 2e-5);
  // The effective config states the tolerance it ran with, in metres.
  const SimulationConfig b = loadConfigString(configToYaml(c), "b.yaml", ".");
  EXPECT_DOUBLE_EQ(b.solver.settings.tolerance, 2e-5);
}

TEST(ConfigLoader, TotalStepsRoundsEndTimeUpButToleratesRoundOff) {
  SimulationSection s;
  s.dt = 0.1;
  s.end_time = 0.3;  // 0.3 / 0.1 = 2.9999999999999996
  EXPECT_EQ(s.totalSteps(), 3);
  s.end_time = 0.25;
  EXPECT_EQ(s.totalSteps(), 3);
  s.end_time.reset();
  s.steps = 42;
  EXPECT_EQ(s.totalSteps(), 42);
}

TEST(ConfigLoader, DescribeSchemaMentionsEverySection) {
  const std::string text = describeSchema();
  for (const char* section :
       {"simulation:", "bodies:", "walls:", "contact:", "solver:", "output:"}) {
    EXPECT_NE(text.find(section), std::string::npos) << section;
  }
}

}  // namespace
}  // namespace grains
