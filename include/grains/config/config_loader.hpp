#pragma once
// Reading and validating scenario files. The schema (every key, type, default
// and range) is documented in docs/config.md. Every problem is reported as a
// grains::ConfigError naming the file, the full key path, the offending value
// and what was expected.
#include "grains/config/config_error.hpp"
#include "grains/config/simulation_config.hpp"

#include <string>
#include <vector>

namespace grains {

/// Loads a YAML scenario file. `overrides` are "key.path=value" strings (the
/// CLI's --set flag); the value is parsed as YAML (scalar, [sequence] or {map}),
/// sequence entries are addressed by index (walls.0.radius=2), a value of ~ or
/// null deletes the key, and setting one of a mutually exclusive pair
/// (simulation.steps / simulation.end_time, bodies.mass / bodies.density)
/// deletes the other. Overrides are applied to the YAML tree before validation;
/// a key path that is not part of the schema is an error naming it.
SimulationConfig loadConfigFile(const std::string& path,
                                const std::vector<std::string>& overrides = {});

/// Same, from text. `source_name` appears in messages; `base_dir` is where
/// relative paths in the config (bodies.generator.file) resolve.
SimulationConfig loadConfigString(const std::string& yaml, const std::string& source_name,
                                  const std::string& base_dir,
                                  const std::vector<std::string>& overrides = {});

/// The built-in demo scenario (identical to config/demo_settle.yaml): 1000
/// frictionless spheres settling inside a cylinder of radius 2 m on a floor
/// (Heyn et al., Test Problem 2 geometry).
std::string defaultConfigYaml();

/// defaultConfigYaml(), parsed.
SimulationConfig defaultConfig();

/// The effective (validated, defaults filled in) config as YAML that loads
/// back to the same config; boxes appear as their six planes.
std::string configToYaml(const SimulationConfig& config);

/// Short plain-text summary of the schema (sections, keys, types, defaults).
std::string describeSchema();

}  // namespace grains
