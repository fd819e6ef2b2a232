#include "grains/app/restart_checks.hpp"

#include "grains/config/config_error.hpp"
#include "grains/config/config_loader.hpp"
#include "grains/config/time_step_advice.hpp"
#include "grains/constraint/contact_detection.hpp"
#include "grains/core/text.hpp"
#include "grains/geometry/contact_geometry.hpp"
#include "grains/geometry/shape_traits.hpp"
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

namespace {

/// This rank's deepest offence beyond the tolerance: its depth, the GID that
/// breaks ties (lowest wins) and its description.
struct Offence {
  double depth = 0.0;
  long gid = std::numeric_limits<long>::max();
  std::string text;
  bool found() const { return !text.empty(); }
  void consider(double d, long g, const std::function<std::string()>& describe) {
    if (found() && (d < depth || (d == depth && g >= gid))) return;
    depth = d;
    gid = g;
    text = describe();
  }
};

/// Collective: the deepest offence over all ranks, followed by how many
/// `what` there are; "" if no rank has one.
std::string deepestOverRanks(const Comm& comm, const Offence& mine, long count,
                             const std::string& one, const std::string& many) {
  const long total = globalSum(comm, count);
  if (total == 0) return "";
  const double deepest = globalMax(comm, mine.found() ? mine.depth : 0.0);
  const bool candidate = mine.found() && mine.depth == deepest;
  const long gid = globalMin(comm, candidate ? mine.gid : std::numeric_limits<long>::max());
  const int culprit = lowestRankWhere(comm, candidate && mine.gid == gid);
  return broadcastString(comm, culprit, mine.text) + " (" + std::to_string(total) + " " +
         (total == 1 ? one : many) + " that deep)";
}

std::string where(const Body& b) {
  char text[128];
  std::snprintf(text, sizeof text, "(%.6g, %.6g, %.6g)", b.position.x(), b.position.y(),
                b.position.z());
  return text;
}

}  // namespace

std::string restartWallPenetration(const std::vector<Body>& owned, const SimulationConfig& config,
                                   const Comm& comm, double time,
                                   const std::vector<ForceControlState>& force_control) {
  std::vector<Wall> walls = wallsAt(config.walls, time);
  // A force-controlled wall is where the checkpoint's state has moved it.
  if (force_control.size() == walls.size())
    for (std::size_t w = 0; w < walls.size(); ++w)
      if (config.walls[w].force_control.enabled())
        walls[w].point += force_control[w].displacement * config.walls[w].normal;
  Offence worst;
  long count = 0;
  for (const Body& b : owned) {
    bool counted = false;
    const double tolerance = restartPenetrationTolerance(b, config.contact);
    for (const Wall& w : walls) {
      const double depth = -wallBody(w, b).gap;
      if (!(depth > tolerance)) continue;
      if (!counted) ++count;
      counted = true;
      worst.consider(depth, static_cast<long>(b.gid), [&] {
        return "body " + std::to_string(b.gid) + " at " + where(b) + " penetrates wall '" + w.name +
               "' (" + wallKindName(w.kind) + ") by " + formatNumber("%.3g", depth) +
               " m, more than the tolerance of " + formatNumber("%.3g", tolerance) + " m";
      });
    }
  }
  return deepestOverRanks(comm, worst, count, "body penetrates the walls",
                          "bodies penetrate the walls");
}

std::string restartBodyOverlap(BodyDomain& domain, const ContactSection& contact) {
  const Comm& comm = domain.comm();
  double max_radius = 0.0;
  for (std::size_t i = 0; i < domain.numOwned(); ++i)
    max_radius = std::max(max_radius, boundingRadius(domain.bodies()[i]));
  // Ghosts reach every body that can touch an owned one; the first step's
  // migration drops them.
  domain.refreshGhosts(2.0 * globalMax(comm, max_radius));
  std::vector<Contact> contacts;
  std::string unsupported;
  try {
    contacts = detectContacts(domain, {}, DetectionSettings{});  // envelope 0: gap <= 0
  } catch (const std::invalid_argument& e) {
    unsupported = e.what();  // a shape pair only the multisphere method handles
  }
  if (globalSum(comm, unsupported.empty() ? 0L : 1L) > 0) return "";
  Offence worst;
  long count = 0;
  for (const Contact& c : contacts) {
    const Body& a = domain.bodies()[static_cast<std::size_t>(c.body_a)];
    const Body& b = domain.bodies()[static_cast<std::size_t>(c.body_b)];
    const double depth = -c.geometry.gap;
    const double tolerance =
        std::min(restartPenetrationTolerance(a, contact), restartPenetrationTolerance(b, contact));
    if (!(depth > tolerance)) continue;
    ++count;
    worst.consider(depth, static_cast<long>(a.gid), [&] {
      return "bodies " + std::to_string(a.gid) + " at " + where(a) + " and " +
             std::to_string(b.gid) + " at " + where(b) + " overlap by " +
             formatNumber("%.3g", depth) + " m, more than the tolerance of " +
             formatNumber("%.3g", tolerance) + " m";
    });
  }
  domain.collectStats();  // the check's ghost traffic is not the run's (metrics bytes_sent)
  return deepestOverRanks(comm, worst, count, "pair overlaps", "pairs overlap");
}

namespace {

/// A restored state that penetrates: an error, or with --allow-penetration
/// a warning. `problem` "" means none.
void refuseUnlessAllowed(const std::string& problem, const std::string& consequence,
                         bool allow_penetration, const Log& log) {
  if (problem.empty()) return;
  if (!allow_penetration)
    throw ConfigError("restart: " + problem + "; " + consequence +
                      " (pass --allow-penetration to continue anyway)");
  log.warn("restart: " + problem + "; continuing (--allow-penetration)");
}

}  // namespace

void checkRestoredOverlaps(BodyDomain& domain, const ContactSection& contact,
                           bool allow_penetration, const Log& log) {
  refuseUnlessAllowed(restartBodyOverlap(domain, contact), "the checkpoint's bodies overlap",
                      allow_penetration, log);
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
  refuseUnlessAllowed(
      restartWallPenetration(restart.bodies, config, comm, restart.time, restart.force_control),
      "the config's walls do not fit the checkpoint's bodies", allow_penetration, log);
}

}  // namespace grains
