// Loading a scenario: read the text, parse YAML, apply --set overrides,
// validate section by section.
#include "grains/config/config_loader.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "config_overrides.hpp"
#include "config_sections.hpp"

namespace grains {

namespace {

using config_detail::MapReader;
using config_detail::ParseContext;

YAML::Node parseYaml(const std::string& yaml, const std::string& source) {
  try {
    return YAML::Load(yaml);
  } catch (const YAML::ParserException& e) {
    throw ConfigError(source + ":" + std::to_string(e.mark.line + 1) + ":" +
                      std::to_string(e.mark.column + 1) + ": malformed YAML: " + e.msg);
  } catch (const YAML::Exception& e) {
    throw ConfigError(source + ": malformed YAML: " + e.msg);
  }
}

/// Multisphere ellipsoids are filled symmetrically about their centre, which
/// needs an odd number of sub-spheres.
void checkSubspheres(const SimulationConfig& config, MapReader contact) {
  if (config.contact.method != ConstraintMethod::Multisphere) return;
  if (config.contact.subspheres % 2 == 1) return;
  bool ellipsoid = config.bodies.shape == "ellipsoid";
  for (const auto& e : config.extra_bodies)
    ellipsoid = ellipsoid || e.shape == ShapeKind::Ellipsoid;
  if (ellipsoid) {
    contact.fail("subspheres",
                 "an odd integer >= 1 when contact.method = multisphere and some body is an "
                 "ellipsoid");
  }
}

/// A scenario needs bodies: generated ones, or a list of extra bodies.
void checkBodyCount(const SimulationConfig& config, MapReader bodies) {
  if (config.bodies.count > 0 || !config.extra_bodies.empty()) return;
  if (config.bodies.generator != GeneratorKind::Lattice &&
      config.bodies.generator != GeneratorKind::RandomPacking)
    return;
  bodies.map("generator").fail("count", "an integer >= 1 (0 only when extra_bodies lists bodies)");
}

SimulationConfig parseConfig(YAML::Node root, const ParseContext& ctx) {
  if (root.IsNull()) root = YAML::Node(YAML::NodeType::Map);
  MapReader top(ctx, root, "");
  SimulationConfig config;
  config.source = ctx.source;
  config.simulation = config_detail::parseSimulation(top.map("simulation"));
  config.bodies = config_detail::parseBodies(top.map("bodies"));
  config.extra_bodies = config_detail::parseExtraBodies(ctx, top.get("extra_bodies"));
  checkBodyCount(config, top.map("bodies"));
  config.walls = config_detail::parseWalls(ctx, top.get("walls"));
  config.contact = config_detail::parseContact(top.map("contact"));
  checkSubspheres(config, top.map("contact"));
  config.force_field = config_detail::parseForceField(top.map("force_field"));
  config.solver = config_detail::parseSolver(top.map("solver"), config.contact.friction);
  config.parallel = config_detail::parseParallel(top.map("parallel"));
  config.output = config_detail::parseOutput(top.map("output"));
  top.finish();
  return config;
}

}  // namespace

SimulationConfig loadConfigString(const std::string& yaml, const std::string& source_name,
                                  const std::string& base_dir,
                                  const std::vector<std::string>& overrides) {
  ParseContext ctx;
  ctx.source = source_name;
  YAML::Node root = parseYaml(yaml, source_name);
  config_detail::applyOverrides(root, overrides, ctx);
  SimulationConfig config = parseConfig(root, ctx);
  config.base_dir = base_dir.empty() ? "." : base_dir;
  return config;
}

SimulationConfig loadConfigFile(const std::string& path,
                                const std::vector<std::string>& overrides) {
  std::ifstream in(path);
  if (!in) throw ConfigError(path + ": cannot open the config file");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw ConfigError(path + ": error while reading the config file");
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  return loadConfigString(text.str(), path, parent.empty() ? "." : parent.string(), overrides);
}

SimulationConfig defaultConfig() {
  return loadConfigString(defaultConfigYaml(), "<built-in demo>", ".");
}

}  // namespace grains
