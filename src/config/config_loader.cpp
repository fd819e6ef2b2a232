// Loading a scenario: read the text, parse YAML, apply --set overrides,
// validate section by section.
#include "grains/config/config_loader.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "config_overrides.hpp"
#include "config_sections.hpp"

namespace grains {

namespace {

using config_detail::MapReader;
using config_detail::ParseContext;

constexpr std::size_t kMaxConfigBytes = std::size_t{64} << 20;

/// Byte length of the UTF-8 sequence starting at text[i], or 0 if it is not
/// valid UTF-8 (bad lead or continuation byte, overlong form, surrogate, or
/// beyond U+10FFFF).
std::size_t utf8Length(const std::string& text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  if (lead < 0x80) return 1;
  std::size_t length = 0;
  unsigned long code = 0;
  if ((lead & 0xE0) == 0xC0) {
    length = 2;
    code = lead & 0x1F;
  } else if ((lead & 0xF0) == 0xE0) {
    length = 3;
    code = lead & 0x0F;
  } else if ((lead & 0xF8) == 0xF0) {
    length = 4;
    code = lead & 0x07;
  } else {
    return 0;
  }
  if (i + length > text.size()) return 0;
  for (std::size_t k = 1; k < length; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
    code = (code << 6) | (byte(i + k) & 0x3F);
  }
  static const unsigned long smallest[] = {0, 0, 0x80, 0x800, 0x10000};
  if (code < smallest[length] || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return 0;
  return length;
}

/// A config is UTF-8 text without NUL bytes: binary input gets a message
/// naming the file, line and column instead of whatever YAML makes of it.
void checkConfigText(const std::string& text, const std::string& path) {
  long line = 1, column = 1;
  for (std::size_t i = 0; i < text.size();) {
    const auto where = [&] {
      return path + ":" + std::to_string(line) + ":" + std::to_string(column) + ": ";
    };
    if (text[i] == '\0')
      throw ConfigError(where() + "a NUL byte; expected a text (YAML) config file");
    const std::size_t length = utf8Length(text, i);
    if (length == 0) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "0x%02X", static_cast<unsigned char>(text[i]));
      throw ConfigError(where() + "byte " + hex +
                        " is not UTF-8 text; expected a text (YAML) config file");
    }
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
    i += length;
  }
}

YAML::Node parseYaml(const std::string& yaml, const std::string& source) {
  try {
    // A second document (after ---) would be ignored silently by Load.
    std::vector<YAML::Node> documents = YAML::LoadAll(yaml);
    if (documents.size() > 1)
      throw ConfigError(source + ": " + std::to_string(documents.size()) +
                        " YAML documents (separated by ---); expected one");
    return documents.empty() ? YAML::Node() : documents.front();
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
  bool ellipsoid = config.bodies.shape == ShapeKind::Ellipsoid;
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
  if (config.bodies.shape == ShapeKind::Spherocylinder && config.bodies.count > 0)
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
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw ConfigError(path + ": is a directory; expected a config file (YAML)");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ConfigError(path + ": cannot open the config file");
  // Read in chunks until the end or past the limit: /dev/zero is a "file"
  // too, and one buffer of the limit's size would set the peak memory of
  // every small run.
  std::string text;
  std::array<char, 1 << 16> chunk;
  while (text.size() <= kMaxConfigBytes && in) {
    in.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
    text.append(chunk.data(), static_cast<std::size_t>(in.gcount()));
  }
  if (in.bad()) throw ConfigError(path + ": error while reading the config file");
  if (text.size() > kMaxConfigBytes)
    throw ConfigError(path + ": larger than " + std::to_string(kMaxConfigBytes >> 20) +
                      " MiB; expected a config file (YAML)");
  checkConfigText(text, path);
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  return loadConfigString(text, path, parent.empty() ? "." : parent.string(), overrides);
}

SimulationConfig defaultConfig() {
  return loadConfigString(defaultConfigYaml(), "<built-in demo>", ".");
}

}  // namespace grains
