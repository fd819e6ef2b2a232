// Loading a scenario: read the text, parse YAML, apply --set overrides,
// validate section by section.
#include "grains/config/config_loader.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
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

/// Mesh walls give several contacts per body, each with its triangle: the
/// single-constraint method only (multisphere and relcp key their contacts
/// by sub-sphere and recursion instead).
void checkMeshWalls(const SimulationConfig& config, MapReader contact) {
  if (config.contact.method == ConstraintMethod::Single) return;
  for (const Wall& w : config.walls)
    if (w.kind == WallKind::Mesh)
      contact.fail("method", "single when a wall is a mesh (wall '" + w.name + "')");
}

/// A wall's own friction (walls.N.friction) needs rows the run's model has:
/// sliding friction a frictional model; rolling and spinning resistance
/// coulomb, which they extend to coulomb_rolling as contact's own keys do.
void applyWallFriction(SimulationConfig& config, MapReader contact) {
  ContactSection& c = config.contact;
  for (const Wall& w : config.walls) {
    if (!w.friction.any()) continue;
    if (c.friction == FrictionModel::Frictionless && w.friction.mu.value_or(0.0) > 0.0)
      contact.fail("friction", "a frictional model (coulomb) when wall '" + w.name +
                                   "' has friction.mu > 0 (the default model is frictionless)");
    if (!w.friction.resistsRolling()) continue;
    if (c.friction == FrictionModel::Coulomb) c.friction = FrictionModel::CoulombRolling;
    if (c.friction != FrictionModel::CoulombRolling)
      contact.fail("friction", "coulomb when wall '" + w.name +
                                   "' has rolling or spinning resistance (friction.rolling_friction"
                                   " or friction.spinning_friction > 0)");
  }
}

/// A scenario needs bodies: generated ones, a list of extra bodies, or
/// sources that pour them (`insertion`).
void checkBodyCount(const SimulationConfig& config, MapReader bodies, bool pours) {
  if (config.bodies.count > 0 || !config.extra_bodies.empty() || pours) return;
  if (config.bodies.generator != GeneratorKind::Lattice &&
      config.bodies.generator != GeneratorKind::RandomPacking)
    return;
  bodies.map("generator")
      .fail("count",
            "an integer >= 1 (0 only when extra_bodies lists bodies or insertion pours them)");
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

/// The node at a dotted key path of maps and list indices (of type
/// Undefined if absent; never one of yaml-cpp's unusable "zombie" nodes).
YAML::Node nodeAt(const YAML::Node& root, const std::string& path) {
  if (path.empty()) return root;
  const std::size_t dot = path.rfind('.');
  const YAML::Node parent = dot == std::string::npos ? root : nodeAt(root, path.substr(0, dot));
  const std::string last = dot == std::string::npos ? path : path.substr(dot + 1);
  if (parent.IsDefined() && parent.IsMap()) {
    const YAML::Node child = parent[last];  // const: never inserts
    if (child.IsDefined()) return child;
  } else if (parent.IsDefined() && parent.IsSequence() && !last.empty() && last.size() < 10 &&
             last.find_first_not_of("0123456789") == std::string::npos &&
             std::stoul(last) < parent.size()) {
    return parent[std::stoul(last)];
  }
  return YAML::Node(YAML::NodeType::Undefined);
}

/// Removes the value of a map key at a dotted path; false if there is none.
bool removeValue(const YAML::Node& root, const std::string& path) {
  const std::size_t dot = path.rfind('.');
  YAML::Node parent = dot == std::string::npos ? root : nodeAt(root, path.substr(0, dot));
  return parent.IsDefined() && parent.IsMap() &&
         parent.remove(dot == std::string::npos ? path : path.substr(dot + 1));
}

using SectionParser = std::function<void(MapReader& top, SimulationConfig& out)>;

/// After `parse` stopped at a bad value, reads a copy of the config again
/// with that value (and each further bad one) removed, only so that the
/// keys the section would have asked for after it are known: the unknown
/// keys of a failed section can then be told from valid ones.
void rehearse(const YAML::Node& root, const ParseContext& ctx, const SectionParser& parse) {
  YAML::Node copy = YAML::Clone(root);
  std::string bad = ctx.errors->last_bad_value;
  // A map that lost a value may have lost the key that selects its schema
  // (a type, a shape): its keys help suggestions but are not the schema.
  std::vector<std::string> uncertain;
  for (int round = 0; round < 64 && !bad.empty() && removeValue(copy, bad); ++round) {
    const std::size_t dot = bad.rfind('.');
    uncertain.push_back(dot == std::string::npos ? std::string() : bad.substr(0, dot));
    ParseContext scratch;
    scratch.source = ctx.source;
    scratch.errors = std::make_shared<config_detail::ParseErrors>();
    bool finished = true;
    try {
      MapReader top(scratch, copy, "");
      SimulationConfig ignored;
      parse(top, ignored);
    } catch (const ConfigError&) {
      finished = false;
    }
    for (const auto& read : scratch.errors->maps) {
      if (read->path.empty()) continue;  // the root is never finished here
      read->rehearsal = true;
      for (const std::string& map : uncertain)
        if (read->path == map) read->finished = false;
      // The original's node: the copy lacks the line numbers for messages.
      read->node.emplace(nodeAt(root, read->path));
      ctx.errors->maps.push_back(read);
    }
    if (finished) return;
    bad = scratch.errors->last_bad_value;
  }
}

/// Every section is parsed even when another one fails, and a check that
/// combines sections runs when they all parsed: one ConfigError then lists
/// every unknown key and, per section, the first missing key or bad value
/// (later keys of a section may depend on it).
SimulationConfig parseConfig(YAML::Node root, const ParseContext& ctx) {
  if (root.IsNull()) root = YAML::Node(YAML::NodeType::Map);
  config_detail::ParseErrors& errors = *ctx.errors;
  MapReader top(ctx, root, "");
  SimulationConfig config;
  config.source = ctx.source;
  const auto attempt = [&](const SectionParser& parse) {
    errors.last_bad_value.clear();
    try {
      parse(top, config);
      return true;
    } catch (const ConfigError& e) {
      errors.others.push_back(e.what());
      rehearse(root, ctx, parse);
      return false;
    }
  };
  attempt([](MapReader& t, SimulationConfig& c) {
    c.simulation = config_detail::parseSimulation(t.map("simulation"));
  });
  bool bodies = attempt([](MapReader& t, SimulationConfig& c) {
    c.bodies = config_detail::parseBodies(t.map("bodies"));
  });
  bodies = attempt([](MapReader& t, SimulationConfig& c) {
             c.extra_bodies = config_detail::parseExtraBodies(t.context(), t.get("extra_bodies"));
           }) &&
           bodies;
  if (bodies)
    attempt([](MapReader& t, SimulationConfig& c) {
      const YAML::Node pours = t.get("insertion");
      checkBodyCount(c, t.map("bodies"),
                     pours.IsDefined() && pours.IsSequence() && pours.size() > 0);
    });
  const bool walls = attempt([](MapReader& t, SimulationConfig& c) {
    c.walls = config_detail::parseWalls(t.context(), t.get("walls"));
  });
  const bool contact = attempt([](MapReader& t, SimulationConfig& c) {
    c.contact = config_detail::parseContact(t.map("contact"));
  });
  if (bodies && contact)
    attempt([](MapReader& t, SimulationConfig& c) { checkSubspheres(c, t.map("contact")); });
  if (contact)
    attempt([](MapReader& t, SimulationConfig& c) { checkMeshWalls(c, t.map("contact")); });
  if (walls && contact)
    attempt([](MapReader& t, SimulationConfig& c) { applyWallFriction(c, t.map("contact")); });
  attempt([](MapReader& t, SimulationConfig& c) {
    c.force_field = config_detail::parseForceField(t.map("force_field"));
  });
  const bool growth = attempt([](MapReader& t, SimulationConfig& c) {
    c.growth = config_detail::parseGrowth(t.map("growth"));
  });
  if (bodies && growth)
    attempt([](MapReader& t, SimulationConfig& c) { checkGrowth(c, t.map("growth")); });
  // Without a valid contact section the solver is checked for frictionless
  // contacts, which every solver supports.
  const FrictionModel friction = contact ? config.contact.friction : FrictionModel::Frictionless;
  attempt([friction](MapReader& t, SimulationConfig& c) {
    c.solver = config_detail::parseSolver(t.map("solver"), friction, c.simulation.dt);
  });
  attempt([](MapReader& t, SimulationConfig& c) {
    c.parallel = config_detail::parseParallel(t.map("parallel"));
  });
  attempt([](MapReader& t, SimulationConfig& c) {
    c.output = config_detail::parseOutput(t.map("output"));
  });
  attempt([](MapReader& t, SimulationConfig& c) {
    c.domain = config_detail::parseDomain(t.map("domain"));
  });
  // A rigid bed cannot yield to a wall pushed into it: the piston needs
  // compliant contacts (docs/boundaries.md#force-controlled-walls).
  if (contact)
    for (std::size_t i = 0; i < config.walls.size(); ++i)
      if (config.walls[i].force_control.enabled() && !(config.contact.compliance > 0.0)) {
        errors.others.push_back(
            ctx.source + ": walls: " + config.walls[i].name +
            " is force-controlled and contact.compliance = 0; expected contact.compliance > 0 "
            "(the bodies between a pushed wall and a rigid one must yield; see "
            "docs/boundaries.md#force-controlled-walls)");
        break;
      }
  const bool insertion = attempt([](MapReader& t, SimulationConfig& c) {
    c.insertion = config_detail::parseInsertion(t.context(), t.get("insertion"));
  });
  attempt([](MapReader& t, SimulationConfig& c) {
    c.outlets = config_detail::parseOutlets(t.context(), t.get("outlets"));
  });
  // Inserted bodies take ids from a range of their own; growing cells'
  // daughters use the whole id space (growth.cpp).
  if (insertion && growth && !config.insertion.empty() && config.growth.rate > 0.0)
    errors.others.push_back(ctx.source +
                            ": insertion: not available with growth.rate > 0 (growing cells "
                            "use every body id); remove one of them");
  attempt([](MapReader& t, SimulationConfig& c) {
    c.measurements = config_detail::parseMeasurements(t.context(), t.get("measurements"));
  });
  top.finish();
  errors.addUnknownKeysOfUnfinishedMaps(ctx);
  if (!errors.empty()) throw ConfigError(errors.report());
  return config;
}

}  // namespace

SimulationConfig loadConfigString(const std::string& yaml, const std::string& source_name,
                                  const std::string& base_dir,
                                  const std::vector<std::string>& overrides) {
  ParseContext ctx;
  ctx.source = source_name;
  ctx.base_dir = base_dir.empty() ? "." : base_dir;
  ctx.errors = std::make_shared<config_detail::ParseErrors>();
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
