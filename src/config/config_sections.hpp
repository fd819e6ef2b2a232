#pragma once
// Internal to src/config: one parser per top-level section of the schema.
#include "grains/config/simulation_config.hpp"
#include "yaml_reader.hpp"

namespace grains::config_detail {

SimulationSection parseSimulation(MapReader section);
BodiesSection parseBodies(MapReader section);
/// `node` is the value of the top-level `walls` key (a list, or undefined).
std::vector<Wall> parseWalls(const ParseContext& ctx, const YAML::Node& node);
std::vector<ExplicitBody> parseExtraBodies(const ParseContext& ctx, const YAML::Node& node);
ContactSection parseContact(MapReader section);
/// Also checks that the solver supports the friction model of the contact section.
SolverSection parseSolver(MapReader section, FrictionModel friction);
OutputSection parseOutput(MapReader section);
ParallelSection parseParallel(MapReader section);

}  // namespace grains::config_detail
