#pragma once
// Helpers shared by the config tests: load YAML text under a file name,
// capture a ConfigError's message, check a message's parts, and check that
// configToYaml reads back to itself.
#include "grains/config/config_loader.hpp"

#include <gtest/gtest.h>

#include <initializer_list>
#include <string>
#include <vector>

namespace grains::test {

/// A complete config with the fewest keys: 8 spheres on a lattice in a unit box.
inline const char* const kSmallLatticeYaml = R"(simulation:
  dt: 0.01
  steps: 10
bodies:
  radius: 0.1
  mass: 1.0
  generator:
    type: lattice
    count: 8
    region: {type: box, min: [0, 0, 0], max: [1, 1, 1]}
)";

inline SimulationConfig loadYaml(const std::string& yaml, const std::string& name,
                                 const std::vector<std::string>& overrides = {}) {
  return loadConfigString(yaml, name, ".", overrides);
}

/// The message of the ConfigError loading `yaml` throws (a test failure if none).
inline std::string configErrorOf(const std::string& yaml, const std::string& name,
                                 const std::vector<std::string>& overrides = {}) {
  try {
    loadYaml(yaml, name, overrides);
  } catch (const ConfigError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no ConfigError for:\n" << yaml;
  return "";
}

/// The small lattice scenario with `sections` (YAML text) appended.
inline std::string latticeWith(const std::string& sections) {
  return std::string(kSmallLatticeYaml) + sections;
}

/// The ConfigError message of the small lattice with `sections` appended.
inline std::string latticeErrorOf(const std::string& sections) {
  return configErrorOf(latticeWith(sections), "test.yaml");
}

inline void expectContains(const std::string& message, std::initializer_list<const char*> parts) {
  for (const char* part : parts) {
    EXPECT_NE(message.find(part), std::string::npos) << "expected '" << part << "' in: " << message;
  }
}

/// configToYaml reads back to the same text (and hence the same config).
inline void expectRoundTrip(const SimulationConfig& config, const std::string& name) {
  const std::string text = configToYaml(config);
  SimulationConfig again;
  ASSERT_NO_THROW(again = loadYaml(text, name)) << text;
  EXPECT_EQ(configToYaml(again), text);
}

}  // namespace grains::test
