// One ConfigError lists every error of a config: unknown keys first (with
// "did you mean" when a valid key is a few edits away), then each section's
// missing key or bad value, in the format of the single messages.
#include <gtest/gtest.h>

#include <string>

#include "../../../src/config/key_suggestion.hpp"
#include "config_test_support.hpp"
#include "grains/config/config_loader.hpp"

namespace grains {
namespace {

using config_detail::closestKey;
using config_detail::editDistance;
using test::expectContains;

std::string errorOf(const std::string& yaml, const std::vector<std::string>& overrides = {}) {
  return test::configErrorOf(yaml, "test.yaml", overrides);
}

std::string replaced(const std::string& from, const std::string& to) {
  std::string s = test::kSmallLatticeYaml;
  const auto pos = s.find(from);
  EXPECT_NE(pos, std::string::npos) << from;
  return pos == std::string::npos ? s : s.replace(pos, from.size(), to);
}

long lineCount(const std::string& message) {
  return 1 + static_cast<long>(std::count(message.begin(), message.end(), '\n'));
}

TEST(KeySuggestion, EditDistance) {
  EXPECT_EQ(editDistance("", ""), 0u);
  EXPECT_EQ(editDistance("dt", ""), 2u);
  EXPECT_EQ(editDistance("spacing", "spacng"), 1u);   // deletion
  EXPECT_EQ(editDistance("radius", "radiuss"), 1u);   // insertion
  EXPECT_EQ(editDistance("gravity", "gravitx"), 1u);  // substitution
  EXPECT_EQ(editDistance("steps", "stpes"), 1u);      // swapped neighbours
  EXPECT_EQ(editDistance("kitten", "sitting"), 3u);
  EXPECT_EQ(editDistance("friction", "frcition"), 1u);
}

TEST(KeySuggestion, ClosestKeyOnlyForPlausibleTypos) {
  const std::vector<std::string> keys = {"dt", "steps", "end_time", "gravity", "seed"};
  EXPECT_EQ(closestKey("stpes", keys), "steps");
  EXPECT_EQ(closestKey("gravty", keys), "gravity");
  EXPECT_EQ(closestKey("end_tim", keys), "end_time");
  // Two-letter keys get one edit: "mu" is not a typo of "dt".
  EXPECT_EQ(closestKey("mu", keys), "");
  EXPECT_EQ(closestKey("colour", keys), "");
  EXPECT_EQ(closestKey("seed", keys), "");  // a valid key is not its own typo
}

TEST(ConfigErrorReport, MisspeltKeyIsReportedBeforeTheMissingKeyItCaused) {
  // "stpes" leaves the simulation section without steps or end_time.
  const std::string msg = errorOf(replaced("steps: 10", "stpes: 10"));
  ASSERT_EQ(lineCount(msg), 2) << msg;
  const std::string first = msg.substr(0, msg.find('\n'));
  const std::string second = msg.substr(msg.find('\n') + 1);
  expectContains(first, {"test.yaml:3", "simulation.stpes", "unknown key", "did you mean 'steps'"});
  expectContains(second, {"simulation", "neither of simulation.steps and simulation.end_time"});
}

TEST(ConfigErrorReport, EveryErrorInOnePassUnknownKeysFirst) {
  std::string yaml = replaced("dt: 0.01", "dt: -1");
  yaml = yaml.replace(yaml.find("    count: 8\n"), 13, "    count: 8\n    spacng: 0.3\n");
  yaml += "output: {vtk_every: 2.5, metrics_evry: 1}\nsolvr: {name: apgd}\n";
  const std::string msg = errorOf(yaml);
  ASSERT_EQ(lineCount(msg), 5) << msg;
  // Unknown keys, in the order the sections are read, each with a suggestion.
  const auto spacing = msg.find("bodies.generator.spacng: unknown key (did you mean 'spacing'?)");
  const auto metrics = msg.find("output.metrics_evry: unknown key (did you mean 'metrics_every'?)");
  const auto solver = msg.find("solvr: unknown key (did you mean 'solver'?)");
  // Then the bad values, one per section, in the usual format.
  const auto dt = msg.find("test.yaml:2: simulation.dt = -1: expected a number > 0");
  const auto vtk = msg.find("output.vtk_every = 2.5: expected an integer >= 0");
  for (auto pos : {spacing, metrics, solver, dt, vtk}) ASSERT_NE(pos, std::string::npos) << msg;
  EXPECT_LT(std::max({spacing, metrics, solver}), std::min(dt, vtk)) << msg;
  // A finished section's unknown key still lists the valid ones.
  expectContains(msg, {"expected one of:", "jitter", "spacing"});
}

TEST(ConfigErrorReport, KeysOfAMapWhoseTypeIsBadAreNotCalledUnknown) {
  // Without a valid type the generator's schema is unknown: "file" belongs
  // to the file generator the user may have meant.
  const std::string msg = errorOf(replaced("type: lattice", "type: fil\n    file: a.csv"));
  ASSERT_EQ(lineCount(msg), 1) << msg;
  expectContains(msg, {"bodies.generator.type = fil"});
  EXPECT_EQ(msg.find("unknown key"), std::string::npos) << msg;
}

TEST(ConfigErrorReport, ASingleErrorReadsAsBefore) {
  EXPECT_EQ(errorOf(replaced("dt: 0.01", "dt: fast")),
            "test.yaml:2: simulation.dt = fast: expected a number > 0");
}

TEST(ConfigErrorReport, NoSuggestionForKeysFarFromEveryValidOne) {
  const std::string msg = errorOf(replaced("mass: 1.0", "mass: 1.0\n  colour: red"));
  ASSERT_EQ(lineCount(msg), 1) << msg;
  expectContains(msg, {"bodies.colour", "unknown key; expected one of:"});
  EXPECT_EQ(msg.find("did you mean"), std::string::npos) << msg;
}

}  // namespace
}  // namespace grains
