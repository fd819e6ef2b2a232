#pragma once
// Internal to src/config: one parser per top-level section of the schema.
#include "grains/config/simulation_config.hpp"
#include "grains/geometry/shape_traits.hpp"
#include "yaml_reader.hpp"

namespace grains::config_detail {

/// Throws "<path>.<key>: does not apply here (<why>); remove it" when `key`
/// is present although `applies` is false.
void rejectUnless(MapReader& section, const std::string& key, bool applies, const std::string& why);

/// rejectUnless for every size key (radius, half_length, semi_axes,
/// major_radius) that `shape` is not made of, naming the shapes that use it
/// (of the generated ones if generated_only) and the keys `shape` takes;
/// `shape_key` is the shape's key path ("bodies.shape").
void rejectOtherShapeKeys(MapReader& section, const ShapeTraits& shape,
                          const std::string& shape_key, bool generated_only);

SimulationSection parseSimulation(MapReader section);
/// A generator region: {type: box, min, max} or {type: cylinder, center, radius, z_min, z_max}.
Region parseRegion(MapReader r);
/// `node` is the value of the top-level `insertion` key (a list, or undefined).
std::vector<InsertionSource> parseInsertion(const ParseContext& ctx, const YAML::Node& node);
/// `node` is the value of the top-level `outlets` key (a list, or undefined).
std::vector<OutletSpec> parseOutlets(const ParseContext& ctx, const YAML::Node& node);
BodiesSection parseBodies(MapReader section);
/// `node` is the value of the top-level `walls` key (a list, or undefined).
std::vector<Wall> parseWalls(const ParseContext& ctx, const YAML::Node& node);
std::vector<ExplicitBody> parseExtraBodies(const ParseContext& ctx, const YAML::Node& node);
ContactSection parseContact(MapReader section);
ForceFieldSection parseForceField(MapReader section);
/// Ranges only; the loader checks division_length against the rods (checkGrowth).
GrowthSection parseGrowth(MapReader section);
/// Also checks that the solver supports the friction model of the contact section.
/// `dt` turns solver.velocity_tolerance [m/s] into the tolerance [m].
SolverSection parseSolver(MapReader section, FrictionModel friction, double dt);
OutputSection parseOutput(MapReader section);
ParallelSection parseParallel(MapReader section);
DomainSection parseDomain(MapReader section);
/// `node` is the value of the top-level `measurements` key (a list, or undefined).
MeasurementsSection parseMeasurements(const ParseContext& ctx, const YAML::Node& node);

}  // namespace grains::config_detail
