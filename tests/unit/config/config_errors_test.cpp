// Every class of config error produces a ConfigError naming the file, the key
// path, the offending value and what was expected.
#include <gtest/gtest.h>

#include <initializer_list>
#include <string>

#include "config_test_support.hpp"
#include "grains/config/config_loader.hpp"

namespace grains {
namespace {

using test::expectContains;

const std::string kValid = test::kSmallLatticeYaml;

std::string errorOf(const std::string& yaml, const std::vector<std::string>& overrides = {}) {
  return test::configErrorOf(yaml, "test.yaml", overrides);
}

/// kValid with `from` replaced by `to` (which must occur).
std::string edited(const std::string& from, const std::string& to) {
  std::string s = kValid;
  const auto pos = s.find(from);
  EXPECT_NE(pos, std::string::npos) << from;
  return pos == std::string::npos ? s : s.replace(pos, from.size(), to);
}

TEST(ConfigErrors, ValidBaseConfigLoads) { EXPECT_NO_THROW(loadConfigString(kValid, "t", ".")); }

TEST(ConfigErrors, MalformedYamlNamesFileLineAndColumn) {
  const std::string msg = errorOf("simulation:\n  dt: 0.01\n  steps: [1, 2\nbodies: {}\n");
  expectContains(msg, {"malformed YAML"});
  EXPECT_EQ(msg.rfind("test.yaml:", 0), 0u) << msg;
  // The unterminated flow sequence opened on line 3 is reported on line 3 or later.
  const int line = std::stoi(msg.substr(std::string("test.yaml:").size()));
  EXPECT_GE(line, 3) << msg;
  EXPECT_LE(line, 5) << msg;

  const std::string tab = errorOf("simulation:\n  dt: 0.01\n bad indent: : :\n  - x\n");
  expectContains(tab, {"test.yaml:", "malformed YAML"});
}

TEST(ConfigErrors, UnknownTopLevelKey) {
  const std::string msg = errorOf(std::string(kValid) + "simulaton: {}\n");
  expectContains(msg, {"test.yaml:11", "simulaton", "unknown key", "bodies", "contact", "output",
                       "simulation", "solver", "walls"});
}

TEST(ConfigErrors, UnknownNestedKey) {
  const std::string msg = errorOf(edited("    count: 8\n", "    count: 8\n    spacng: 0.3\n"));
  expectContains(msg,
                 {"test.yaml:10", "bodies.generator.spacng", "unknown key", "spacing", "jitter"});
  // Keys of another generator type are unknown too.
  const std::string file_key = errorOf(edited("    count: 8\n", "    count: 8\n    file: a.csv\n"));
  expectContains(file_key, {"bodies.generator.file", "unknown key"});
  // And keys of another wall type.
  const std::string wall =
      errorOf(std::string(kValid) + "walls:\n  - {type: plane, normal: [0, 0, 1], radius: 2}\n");
  expectContains(wall, {"walls.0.radius", "unknown key", "normal"});
}

TEST(ConfigErrors, WrongTypes) {
  expectContains(errorOf(edited("dt: 0.01", "dt: fast")),
                 {"test.yaml:2", "simulation.dt = fast", "expected a number > 0"});
  expectContains(errorOf(std::string(kValid) + "output: {vtk_every: 2.5}\n"),
                 {"output.vtk_every = 2.5", "expected an integer >= 0"});
  expectContains(errorOf(edited("dt: 0.01", "dt: 0.01\n  gravity: [0, -9.81]")),
                 {"simulation.gravity = [0, -9.81]", "vector [x, y, z]"});
  expectContains(errorOf(edited("simulation:\n  dt: 0.01\n  steps: 10\n", "simulation: 5\n")),
                 {"simulation = 5", "expected a map"});
  expectContains(errorOf(std::string(kValid) + "walls: {type: plane}\n"),
                 {"walls = {type: plane}", "expected a list"});
}

TEST(ConfigErrors, NegativeRadius) {
  expectContains(errorOf(edited("radius: 0.1", "radius: -0.1")),
                 {"test.yaml:5: bodies.radius = -0.1: expected a number > 0"});
  expectContains(errorOf(edited("radius: 0.1", "radius: 0")), {"bodies.radius = 0"});
}

TEST(ConfigErrors, OutOfRangeValues) {
  expectContains(errorOf(edited("dt: 0.01", "dt: 0")),
                 {"test.yaml:2: simulation.dt = 0: expected a number > 0"});
  expectContains(errorOf(edited("count: 8", "count: 0")),
                 {"bodies.generator.count = 0", "expected an integer >= 1"});
  expectContains(errorOf(std::string(kValid) + "contact: {friction: coulomb, mu: -0.2}\n"),
                 {"contact.mu = -0.2", "expected a number >= 0"});
  expectContains(errorOf(std::string(kValid) + "contact: {mu: 0.3}\n"),
                 {"contact.mu = 0.3", "frictionless"});
  expectContains(errorOf(edited("mass: 1.0", "mass: 1.0\n  radius_spread: 0.5")),
                 {"bodies.radius_spread = 0.5", "[0, 0.5)"});
  expectContains(errorOf(edited("count: 8", "count: 8\n    spacing: 0.15")),
                 {"bodies.generator.spacing = 0.15", "0.2"});
  expectContains(errorOf(edited("max: [1, 1, 1]", "max: [1, 0, 1]")),
                 {"bodies.generator.region.max = [1, 0, 1]", "greater than"});
  expectContains(errorOf(std::string(kValid) + "walls:\n  - {type: plane, normal: [0, 0, 0]}\n"),
                 {"walls.0.normal = [0, 0, 0]", "non-zero"});
  expectContains(errorOf(std::string(kValid) + "walls:\n  - {type: cylinder}\n"),
                 {"walls.0.radius", "missing"});
  expectContains(errorOf(std::string(kValid) + "walls:\n  - {type: sphere}\n"),
                 {"walls.0.type = sphere", "plane, cylinder, box"});
}

TEST(ConfigErrors, ExactlyOneOfStepsAndEndTime) {
  expectContains(errorOf(edited("steps: 10", "steps: 10\n  end_time: 2.0")),
                 {"test.yaml", "simulation.steps", "simulation.end_time", "both", "steps = 10",
                  "end_time = 2.0", "exactly one"});
  expectContains(errorOf(edited("  steps: 10\n", "")),
                 {"simulation.steps", "simulation.end_time", "neither", "exactly one"});
}

TEST(ConfigErrors, ExactlyOneOfMassAndDensity) {
  expectContains(errorOf(edited("mass: 1.0", "mass: 1.0\n  density: 1000")),
                 {"bodies.mass", "bodies.density", "both", "exactly one"});
  expectContains(errorOf(edited("  mass: 1.0\n", "")), {"bodies.mass", "neither"});
}

TEST(ConfigErrors, UnknownSolverListsTheKnownOnes) {
  expectContains(errorOf(std::string(kValid) + "solver: {name: magic}\n"),
                 {"test.yaml:11", "solver.name = magic", "bbpgd", "apgd", "pgs"});
}

TEST(ConfigErrors, SolverOptionsAreValidatedPerSolver) {
  expectContains(errorOf(std::string(kValid) + "solver: {name: pgs, options: {omega: 5}}\n"),
                 {"solver.options.omega = 5", "[0.01, 1.99]"});
  expectContains(errorOf(std::string(kValid) + "solver: {name: bbpgd, options: {omega: 1}}\n"),
                 {"solver.options.omega", "unknown option", "bbpgd"});
  expectContains(
      errorOf(std::string(kValid) + "solver: {name: apgd, options: {max_backtracks: 2.5}}\n"),
      {"solver.options.max_backtracks = 2.5", "an integer"});
}

TEST(ConfigErrors, RestToleranceFactorsAreFractions) {
  expectContains(errorOf(std::string(kValid) + "solver: {name: apgd, rest_reduction: 2}\n"),
                 {"solver.rest_reduction = 2", "[0, 1]"});
  expectContains(errorOf(std::string(kValid) + "solver: {name: apgd, rest_floor: -0.1}\n"),
                 {"solver.rest_floor = -0.1", "[0, 1]"});
  expectContains(errorOf(std::string(kValid) + "solver: {name: apgd, rest_quantile: 0}\n"),
                 {"solver.rest_quantile = 0", "(0, 1]"});
  expectContains(errorOf(std::string(kValid) + "solver: {name: apgd, rest_quantile_limit: 0.5}\n"),
                 {"solver.rest_quantile_limit = 0.5", ">= 1"});
}

TEST(ConfigErrors, BulkStopNeedsASolverThatStopsThere) {
  const std::string rest = "rest_reduction: 0.3, rest_floor: 0.001, ";
  expectContains(errorOf(std::string(kValid) + "solver: {name: jacobi, " + rest +
                         "rest_quantile: 0.99, rest_bulk_stop: true}\n"),
                 {"solver.rest_bulk_stop = true", "jacobi", "worst contact"});
  // apgd under box friction solves through the Tresca fixed point.
  expectContains(
      errorOf(std::string(kValid) + "contact: {friction: box, mu: 0.3}\n" +
              "solver: {name: apgd, " + rest + "rest_quantile: 0.99, rest_bulk_stop: true}\n"),
      {"solver.rest_bulk_stop = true", "apgd", "box"});
  // Without a quantile below 1, or with the rest tolerance off, the bulk
  // stop is the stop at the worst contact: any solver takes it.
  EXPECT_NO_THROW(loadConfigString(std::string(kValid) + "solver: {name: jacobi, " + rest +
                                       "rest_quantile: 1, rest_bulk_stop: true}\n",
                                   "a.yaml", "."));
  EXPECT_NO_THROW(loadConfigString(
      std::string(kValid) + "solver: {name: jacobi, rest_quantile: 0.99, rest_bulk_stop: true}\n",
      "a.yaml", "."));
}

TEST(ConfigErrors, ToleranceInOneUnitOnly) {
  expectContains(errorOf(std::string(kValid) +
                         "solver: {name: apgd, tolerance: 1e-6, velocity_tolerance: 1}\n"),
                 {"solver.velocity_tolerance = 1", "not both"});
  expectContains(errorOf(std::string(kValid) + "solver: {name: apgd, velocity_tolerance: 0}\n"),
                 {"solver.velocity_tolerance = 0", "> 0"});
}

TEST(ConfigErrors, DuplicateKey) {
  expectContains(errorOf(edited("dt: 0.01", "dt: 0.01\n  dt: 0.02")),
                 {"test.yaml:3", "simulation.dt", "duplicate key"});
}

TEST(ConfigErrors, BadOverrideKeyIsNamed) {
  expectContains(errorOf(kValid, {"simulation.foo=1"}),
                 {"--set simulation.foo=1", "simulation.foo", "unknown key", "dt"});
  expectContains(errorOf(kValid, {"nonsense.deep.key=1"}),
                 {"--set nonsense.deep.key=1", "nonsense", "unknown key"});
  expectContains(errorOf(kValid, {"simulation.dt"}), {"--set simulation.dt", "key.path=value"});
  expectContains(errorOf(kValid, {"simulation.dt.x=1"}), {"simulation.dt is a value"});
  expectContains(errorOf(std::string(kValid) + "walls: [{type: plane, normal: [0, 0, 1]}]\n",
                         {"walls.3.normal=[1,0,0]"}),
                 {"--set walls.3.normal=[1,0,0]", "walls is a list with 1 entries"});
  expectContains(errorOf(std::string(kValid) + "walls: [{type: plane, normal: [0, 0, 1]}]\n",
                         {"walls[3].normal=[1,0,0]"}),
                 {"--set walls[3].normal=[1,0,0]", "walls is a list with 1 entries"});
  for (const char* key : {"walls[x].normal", "walls[0.normal", "walls]0.normal", "[0].normal",
                          "walls.[0].normal", "walls[0]normal", "walls[].normal"}) {
    expectContains(errorOf(std::string(kValid) + "walls: [{type: plane, normal: [0, 0, 1]}]\n",
                           {std::string(key) + "=[1,0,0]"}),
                   {key, "a list index in brackets"});
  }
}

TEST(ConfigErrors, BadOverrideValueNamesTheOverride) {
  expectContains(errorOf(kValid, {"bodies.radius=-1"}),
                 {"--set bodies.radius=-1", "bodies.radius = -1", "expected a number > 0"});
  expectContains(errorOf(kValid, {"simulation.gravity=[0,0"}),
                 {"--set simulation.gravity=[0,0", "not valid YAML"});
}

TEST(ConfigErrors, MissingFile) {
  try {
    loadConfigFile("/nonexistent/dir/scenario.yaml");
    FAIL() << "no error";
  } catch (const ConfigError& e) {
    expectContains(e.what(), {"/nonexistent/dir/scenario.yaml", "cannot open"});
  }
}

}  // namespace
}  // namespace grains
