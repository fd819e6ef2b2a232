// Bodies from a CSV file: a header line naming the columns (among x, y, z,
// radius, mass, vx, vy, vz; x, y, z required), then one body per line.
// Blank lines and lines starting with '#' are ignored.
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>

#include "generators.hpp"
#include "grains/config/config_error.hpp"
#include "grains/core/text.hpp"

namespace grains::scenario_detail {

namespace {

const char* const kColumns[] = {"x", "y", "z", "radius", "mass", "vx", "vy", "vz"};

std::vector<std::string> splitFields(const std::string& line) {
  std::vector<std::string> fields;
  std::string current;
  for (char c : line) {
    if (c == ',') {
      fields.push_back(trim(current));
      current.clear();
    } else {
      current += c;
    }
  }
  fields.push_back(trim(current));
  return fields;
}

[[noreturn]] void csvError(const std::string& file, long line, long column,
                           const std::string& message) {
  std::string where = file + ":" + std::to_string(line);
  if (column > 0) where += ":" + std::to_string(column);
  throw ConfigError(where + ": " + message);
}

bool parseDouble(const std::string& text, double& out) {
  if (text.empty()) return false;
  char* end = nullptr;
  errno = 0;
  const double value = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size() || errno == ERANGE || !std::isfinite(value)) return false;
  out = value;
  return true;
}

}  // namespace

std::vector<Body> csvBodies(const SimulationConfig& config) {
  const BodiesSection& b = config.bodies;
  std::filesystem::path path(b.file);
  if (path.is_relative()) path = std::filesystem::path(config.base_dir) / path;
  const std::string file = path.string();
  std::ifstream in(file);
  if (!in) {
    throwGeneratorError(config, "bodies.generator.file", b.file,
                        "a readable CSV file (tried " + file + ")");
  }

  std::map<std::string, std::size_t> column;  // name -> field index
  std::size_t field_count = 0;
  bool have_header = false;
  std::vector<Body> bodies;
  std::string raw;
  long line_no = 0;
  while (std::getline(in, raw)) {
    ++line_no;
    const std::string line = trim(raw);
    if (line.empty() || line[0] == '#') continue;
    const std::vector<std::string> fields = splitFields(line);
    if (!have_header) {
      for (std::size_t i = 0; i < fields.size(); ++i) {
        const std::string& name = fields[i];
        bool known = false;
        for (const char* c : kColumns) known = known || name == c;
        if (!known) {
          csvError(file, line_no, static_cast<long>(i + 1),
                   "unknown column '" + name +
                       "'; expected a header naming columns among x, y, z, radius, mass, vx, "
                       "vy, vz");
        }
        if (!column.emplace(name, i).second) {
          csvError(file, line_no, static_cast<long>(i + 1), "duplicate column '" + name + "'");
        }
      }
      for (const char* required : {"x", "y", "z"}) {
        if (column.count(required) == 0) {
          csvError(file, line_no, 0,
                   std::string("the header has no column '") + required +
                       "'; expected columns x, y, z (and optionally radius, mass, vx, vy, vz)");
        }
      }
      field_count = fields.size();
      have_header = true;
      continue;
    }
    if (fields.size() != field_count) {
      csvError(file, line_no, 0,
               "expected " + std::to_string(field_count) + " fields (as in the header), found " +
                   std::to_string(fields.size()));
    }
    std::map<std::string, double> value;
    for (const auto& [name, index] : column) {
      double v = 0.0;
      if (!parseDouble(fields[index], v)) {
        csvError(file, line_no, static_cast<long>(index + 1),
                 name + " = '" + fields[index] + "': expected a number");
      }
      if ((name == "radius" || name == "mass") && !(v > 0.0)) {
        csvError(file, line_no, static_cast<long>(index + 1),
                 name + " = " + fields[index] + ": expected a number > 0");
      }
      value[name] = v;
    }
    const auto get = [&](const char* name, double fallback) {
      const auto it = value.find(name);
      return it == value.end() ? fallback : it->second;
    };
    const auto gid = static_cast<GlobalId>(bodies.size());
    const double radius = get("radius", b.radius);
    const double mass = get("mass", bodyMass(b, radius));
    Body body = makeSphere(gid, radius, mass, Vec3(get("x", 0), get("y", 0), get("z", 0)));
    body.velocity = Vec3(get("vx", b.initial_velocity.x()), get("vy", b.initial_velocity.y()),
                         get("vz", b.initial_velocity.z()));
    bodies.push_back(body);
  }
  if (in.bad()) csvError(file, line_no, 0, "read error");
  if (!have_header) csvError(file, line_no, 0, "no header line; expected e.g. 'x,y,z,radius'");
  if (bodies.empty()) csvError(file, line_no, 0, "no bodies after the header");
  return bodies;
}

}  // namespace grains::scenario_detail
