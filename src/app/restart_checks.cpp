#include "grains/app/restart_checks.hpp"

#include "grains/config/config_error.hpp"
#include "grains/config/config_loader.hpp"
#include "grains/config/time_step_advice.hpp"
#include "grains/core/text.hpp"
#include "grains/geometry/contact_geometry.hpp"
#include "grains/parallel/mpi_utils.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <limits>

namespace grains {
namespace {

/// One line of YAML in flow style, whatever style the node was read in.
std::string flow(const YAML::Node& node) {
  if (!node.IsDefined() || node.IsNull()) return "<none>";
  YAML::Node copy = YAML::Clone(node);
  const std::function<void(YAML::Node)> setFlow = [&](YAML::Node n) {
    n.SetStyle(YAML::EmitterStyle::Flow);
    if (n.IsMap())
      for (auto item : n) setFlow(item.second);
    if (n.IsSequence())
      for (auto item : n) setFlow(item);
  };
  setFlow(copy);
  YAML::Emitter out;
  out << copy;
  return out.c_str();
}

/// Appends "path: checkpoint A, config B" for each leaf where a and b
/// differ, descending into maps and into lists of equal kind.
void collectDifferences(const std::string& path, const YAML::Node& a, const YAML::Node& b,
                        std::vector<std::string>& lines) {
  const bool maps = a.IsDefined() && b.IsDefined() && a.IsMap() && b.IsMap();
  const bool lists = a.IsDefined() && b.IsDefined() && a.IsSequence() && b.IsSequence();
  if (maps) {
    std::vector<std::string> keys;
    for (const YAML::Node* node : {&a, &b})
      for (const auto& item : *node) {
        const std::string key = item.first.Scalar();
        if (std::find(keys.begin(), keys.end(), key) == keys.end()) keys.push_back(key);
      }
    for (const std::string& key : keys) collectDifferences(path + "." + key, a[key], b[key], lines);
    return;
  }
  if (lists && (a.size() == 0 || a[0].IsMap()) && (b.size() == 0 || b[0].IsMap())) {
    const std::size_t n = std::max(a.size(), b.size());
    for (std::size_t i = 0; i < n; ++i)
      collectDifferences(path + "." + std::to_string(i),
                         i < a.size() ? a[i] : YAML::Node(YAML::NodeType::Undefined),
                         i < b.size() ? b[i] : YAML::Node(YAML::NodeType::Undefined), lines);
    return;
  }
  const std::string was = flow(a), now = flow(b);
  if (was != now) lines.push_back(path + ": checkpoint " + was + ", config " + now);
}

/// The node at a dotted path ("simulation.dt"), undefined if absent.
YAML::Node at(const YAML::Node& root, const std::string& path) {
  YAML::Node node;
  node.reset(root);  // rebinds; operator= would assign into the tree
  std::size_t start = 0;
  while (start <= path.size()) {
    const std::size_t dot = std::min(path.find('.', start), path.size());
    if (!node.IsMap()) return YAML::Node(YAML::NodeType::Undefined);
    const YAML::Node& parent = node;  // const lookup never inserts
    const YAML::Node child = parent[path.substr(start, dot - start)];
    if (!child.IsDefined()) return YAML::Node(YAML::NodeType::Undefined);
    node.reset(child);
    start = dot + 1;
  }
  return node;
}

}  // namespace

double restartPenetrationTolerance(const Body& body, const ContactSection& contact) {
  return std::max(contact.overlap_tolerance, 0.05 * smallestBodySize(body));
}

std::string restartWallPenetration(const std::vector<Body>& owned, const SimulationConfig& config,
                                   const Comm& comm, double time) {
  const std::vector<Wall> walls = wallsAt(config.walls, time);
  double deepest = 0.0;
  const Body* worst_body = nullptr;
  const Wall* worst_wall = nullptr;
  long count = 0;
  for (const Body& b : owned) {
    bool counted = false;
    for (const Wall& w : walls) {
      const double depth = -wallBody(w, b).gap;
      if (!(depth > restartPenetrationTolerance(b, config.contact))) continue;
      if (!counted) ++count;
      counted = true;
      if (worst_body == nullptr || depth > deepest ||
          (depth == deepest && b.gid < worst_body->gid)) {
        deepest = depth;
        worst_body = &b;
        worst_wall = &w;
      }
    }
  }
  const long total = globalSum(comm, count);
  if (total == 0) return "";
  const double global_deepest = globalMax(comm, deepest);
  const bool mine = worst_body != nullptr && deepest == global_deepest;
  const long gid =
      globalMin(comm, mine ? static_cast<long>(worst_body->gid) : std::numeric_limits<long>::max());
  const int culprit = lowestRankWhere(comm, mine && worst_body->gid == gid);
  std::string text;
  if (comm.getRank() == culprit) {
    const Body& b = *worst_body;
    char where[128];
    std::snprintf(where, sizeof where, "(%.6g, %.6g, %.6g)", b.position.x(), b.position.y(),
                  b.position.z());
    text = "body " + std::to_string(b.gid) + " at " + where + " penetrates wall '" +
           worst_wall->name + "' (" + wallKindName(worst_wall->kind) + ") by " +
           formatNumber("%.3g", deepest) + " m, more than the tolerance of " +
           formatNumber("%.3g", restartPenetrationTolerance(b, config.contact)) + " m (" +
           std::to_string(total) + (total == 1 ? " body penetrates" : " bodies penetrate") +
           " the walls that deep)";
  }
  return broadcastString(comm, culprit, text);
}

std::vector<std::string> restartConfigDifferences(const std::string& checkpoint_config_yaml,
                                                  const SimulationConfig& config) {
  YAML::Node stored;
  try {
    stored = YAML::Load(checkpoint_config_yaml);
  } catch (const YAML::Exception& e) {
    return {std::string("the checkpoint's configuration cannot be read (") + e.what() +
            "); nothing compared"};
  }
  const YAML::Node current = YAML::Load(configToYaml(config));
  std::vector<std::string> lines;
  for (const char* path : {"simulation.dynamics", "simulation.dt", "simulation.gravity",
                           "simulation.seed", "walls", "contact", "domain"})
    collectDifferences(path, at(stored, path), at(current, path), lines);
  return lines;
}

void checkRestart(const CheckpointState& restart, const SimulationConfig& config,
                  bool allow_penetration, const Comm& comm, const Log& log) {
  const std::vector<std::string> differences =
      restartConfigDifferences(restart.config_yaml, config);
  if (!differences.empty()) {
    log.warn("the restart's config differs from the checkpoint's in what defines the trajectory:");
    for (const std::string& line : differences) log.warn("  " + line);
  }
  const std::string penetration =
      restartWallPenetration(restart.bodies, config, comm, restart.time);
  if (penetration.empty()) return;
  if (!allow_penetration)
    throw ConfigError("restart: " + penetration +
                      "; the config's walls do not fit the checkpoint's bodies (pass "
                      "--allow-penetration to continue anyway)");
  log.warn("restart: " + penetration + "; continuing (--allow-penetration)");
}

}  // namespace grains
