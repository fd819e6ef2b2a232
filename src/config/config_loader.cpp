// Loading a scenario: read the text, parse YAML, apply --set overrides,
// validate section by section.
#include "grains/config/config_loader.hpp"

#include <algorithm>
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

/// Growth needs rods, and rods must be able to divide: division_length must
/// exceed every rod's initial tip-to-tip length 2 (half_length + radius) and
/// 4 radius (daughters of length l / 2 keep a segment).
void checkGrowth(const SimulationConfig& config, MapReader growth) {
  if (config.growth.rate == 0.0) return;
  struct Rod {
    std::string name;
    double radius, half_length;
  };
  std::vector<Rod> rods;
  if (config.bodies.shape == "spherocylinder" && config.bodies.count > 0)
    rods.push_back({"bodies", config.bodies.radius, config.bodies.half_length});
  for (std::size_t i = 0; i < config.extra_bodies.size(); ++i) {
    const ExplicitBody& e = config.extra_bodies[i];
    if (e.shape == ShapeKind::Spherocylinder)
      rods.push_back({"extra_bodies." + std::to_string(i), e.radius, e.half_length});
  }
  if (rods.empty()) {
    growth.fail("rate",
                "0 unless some body is a spherocylinder (bodies.shape: spherocylinder "
                "or an extra_bodies entry with shape: spherocylinder); only rods grow");
  }
  for (const Rod& rod : rods) {
    const double tip_to_tip = 2.0 * (rod.half_length + rod.radius);
    const double needed = std::max(tip_to_tip, 4.0 * rod.radius);
    if (config.growth.division_length > needed) continue;
    const bool by_length = tip_to_tip >= 4.0 * rod.radius;
    std::ostringstream expected;
    expected << "a number > " << needed << " with growth.rate > 0: "
             << (by_length ? "the initial tip-to-tip length 2 (half_length + radius)"
                           : "4 x radius")
             << " of " << rod.name << " (radius " << rod.radius << ", half_length "
             << rod.half_length << ")" << (by_length ? "" : ", so that daughters keep a segment");
    if (growth.has("division_length")) growth.fail("division_length", expected.str());
    std::ostringstream value;
    value << config.growth.division_length;
    config_detail::throwPathError(
        growth.context(), growth.yaml(), growth.keyPath("division_length"),
        "the default " + value.str() + " does not fit; expected " + expected.str());
  }
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
  config.growth = config_detail::parseGrowth(top.map("growth"));
  checkGrowth(config, top.map("growth"));
  config.solver = config_detail::parseSolver(top.map("solver"), config.contact.friction);
  config.parallel = config_detail::parseParallel(top.map("parallel"));
  config.output = config_detail::parseOutput(top.map("output"));
  config.domain = config_detail::parseDomain(top.map("domain"));
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
