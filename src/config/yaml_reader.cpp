#include "yaml_reader.hpp"

#include "grains/core/text.hpp"
#include "key_suggestion.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

namespace grains::config_detail {

std::string ParseContext::overrideFor(const std::string& path) const {
  for (const auto& [key, text] : overrides) {
    if (path == key || startsWith(path, key + ".") || startsWith(key, path + ".")) return text;
  }
  return "";
}

std::string describeValue(const YAML::Node& node) {
  if (!node.IsDefined()) return "<missing>";
  if (node.IsNull()) return "null";
  if (node.IsScalar()) {
    std::string s = node.Scalar();
    if (s.empty()) return "\"\"";
    return s.size() > 60 ? s.substr(0, 57) + "..." : s;
  }
  YAML::Emitter emitter;
  emitter << YAML::Flow << node;
  std::string s = emitter.c_str();
  return s.size() > 60 ? s.substr(0, 57) + "..." : s;
}

std::string location(const ParseContext& ctx, const YAML::Node& node, const std::string& path) {
  const std::string by_override = ctx.overrideFor(path);
  if (!by_override.empty()) return ctx.source + " (--set " + by_override + ")";
  if (node.IsDefined()) {
    const YAML::Mark mark = node.Mark();
    if (mark.line >= 0) return ctx.source + ":" + std::to_string(mark.line + 1);
  }
  return ctx.source;
}

void throwValueError(const ParseContext& ctx, const YAML::Node& node, const std::string& path,
                     const std::string& expected) {
  if (ctx.errors) ctx.errors->last_bad_value = path;
  throw ConfigError(location(ctx, node, path) + ": " + path + " = " + describeValue(node) +
                    ": expected " + expected);
}

std::string pathErrorText(const ParseContext& ctx, const YAML::Node& node, const std::string& path,
                          const std::string& message) {
  return location(ctx, node, path) + ": " + (path.empty() ? "<root>" : path) + ": " + message;
}

void throwPathError(const ParseContext& ctx, const YAML::Node& node, const std::string& path,
                    const std::string& message) {
  throw ConfigError(pathErrorText(ctx, node, path, message));
}

namespace {

std::string keyText(const YAML::Node& key_node) {
  return key_node.IsScalar() ? key_node.Scalar() : describeValue(key_node);
}

std::string didYouMean(const std::string& suggestion) {
  return suggestion.empty() ? "" : " (did you mean '" + suggestion + "'?)";
}

}  // namespace

void ParseErrors::addUnknownKeysOfUnfinishedMaps(const ParseContext& ctx) {
  // Several readers may have read one map (a section, a later check, a
  // rehearsal): their declared keys together.
  struct Merged {
    const YAML::Node* node = nullptr;
    std::vector<std::string> known;
    bool has_node = false;         ///< node is the real parse's, not a rehearsal's
    bool checked = false;          ///< a real reader's finish() reported its keys
    bool complete_schema = false;  ///< some reader asked for every key it knows
  };
  std::map<std::string, Merged> by_path;
  for (const auto& read : maps) {
    Merged& merged = by_path[read->path];
    // A rehearsal's node (the original's) serves for maps the real parse
    // never reached.
    if (read->node && (!read->rehearsal || !merged.has_node)) merged.node = &*read->node;
    merged.has_node = merged.has_node || !read->rehearsal;
    merged.checked = merged.checked || (read->finished && !read->rehearsal);
    merged.complete_schema = merged.complete_schema || read->finished;
    for (const std::string& key : read->known)
      if (std::find(merged.known.begin(), merged.known.end(), key) == merged.known.end())
        merged.known.push_back(key);
  }
  for (auto& [path, read] : by_path) {
    if (read.checked || read.node == nullptr || !read.node->IsDefined() || !read.node->IsMap())
      continue;
    const YAML::Node& node = *read.node;  // const lookups never insert
    std::sort(read.known.begin(), read.known.end());
    std::vector<std::string> absent;
    for (const std::string& key : read.known)
      if (!node[key]) absent.push_back(key);
    for (const auto& item : node) {
      const std::string key = keyText(item.first);
      if (std::find(read.known.begin(), read.known.end(), key) != read.known.end()) continue;
      const std::string suggestion = closestKey(key, read.complete_schema ? read.known : absent);
      if (suggestion.empty() && !read.complete_schema) continue;
      unknown_keys.emplace_back(
          item.first.Mark().line,
          pathErrorText(ctx, item.first, path.empty() ? key : path + "." + key,
                        "unknown key" + didYouMean(suggestion) +
                            (read.complete_schema ? "; expected one of: " + joined(read.known)
                                                  : std::string())));
    }
  }
}

std::string ParseErrors::report() const {
  std::vector<std::pair<int, std::string>> unknown = unknown_keys;
  std::stable_sort(unknown.begin(), unknown.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::string text;
  const auto add = [&text](const std::string& line) { text += (text.empty() ? "" : "\n") + line; };
  for (const auto& [line, message] : unknown) add(message);
  for (const std::string& message : others) add(message);
  return text;
}

bool Range::contains(double v) const {
  if (has_lo && (lo_open ? !(v > lo) : !(v >= lo))) return false;
  if (has_hi && (hi_open ? !(v < hi) : !(v <= hi))) return false;
  return true;
}

std::string Range::describe(bool integer) const {
  const std::string what = integer ? "an integer" : "a number";
  if (has_lo && has_hi) {
    return what + " in " + (lo_open ? "(" : "[") + formatNumber(lo) + ", " + formatNumber(hi) +
           (hi_open ? ")" : "]");
  }
  if (has_lo) return what + (lo_open ? " > " : " >= ") + formatNumber(lo);
  if (has_hi) return what + (hi_open ? " < " : " <= ") + formatNumber(hi);
  return what;
}

bool decodeNumber(const YAML::Node& node, double& out) {
  if (!node.IsDefined() || !node.IsScalar()) return false;
  double value = 0.0;
  if (!YAML::convert<double>::decode(node, value)) return false;
  if (!std::isfinite(value)) return false;
  out = value;
  return true;
}

bool decodeInteger(const YAML::Node& node, long& out) {
  if (!node.IsDefined() || !node.IsScalar()) return false;
  long value = 0;
  if (YAML::convert<long>::decode(node, value)) {
    out = value;
    return true;
  }
  // Accept integral values written like 1e3.
  double d = 0.0;
  if (!decodeNumber(node, d) || d != std::floor(d) || std::fabs(d) > 9.0e18) return false;
  out = static_cast<long>(d);
  return true;
}

MapReader::MapReader(const ParseContext& ctx, const YAML::Node& node, std::string path)
    : ctx_(&ctx), node_(node), path_(std::move(path)), record_(std::make_shared<ReadMap>()) {
  if (node_.IsDefined() && !node_.IsMap()) {
    throwValueError(ctx, node_, path_.empty() ? "<root>" : path_, "a map of keys");
  }
  record_->path = path_;
  record_->node.emplace(node_);
  if (ctx.errors) ctx.errors->maps.push_back(record_);
}

std::string MapReader::keyPath(const std::string& key) const {
  return path_.empty() ? key : path_ + "." + key;
}

bool MapReader::has(const std::string& key) { return get(key).IsDefined(); }

YAML::Node MapReader::get(const std::string& key) {
  std::vector<std::string>& known = record_->known;
  if (std::find(known.begin(), known.end(), key) == known.end()) known.push_back(key);
  if (!node_.IsDefined()) return YAML::Node(YAML::NodeType::Undefined);
  const YAML::Node& const_node = node_;  // const lookup never inserts
  return const_node[key];
}

double MapReader::number(const std::string& key, double fallback, const Range& range) {
  return optionalNumber(key, range).value_or(fallback);
}

std::optional<double> MapReader::optionalNumber(const std::string& key, const Range& range) {
  const YAML::Node value = get(key);
  if (!value.IsDefined()) return std::nullopt;
  double out = 0.0;
  if (!decodeNumber(value, out) || !range.contains(out)) fail(key, range.describe(false));
  return out;
}

double MapReader::requiredNumber(const std::string& key, const Range& range) {
  const auto value = optionalNumber(key, range);
  if (!value) failMissing(key, range.describe(false));
  return *value;
}

long MapReader::integer(const std::string& key, long fallback, const Range& range) {
  return optionalInteger(key, range).value_or(fallback);
}

std::optional<long> MapReader::optionalInteger(const std::string& key, const Range& range) {
  const YAML::Node value = get(key);
  if (!value.IsDefined()) return std::nullopt;
  long out = 0;
  if (!decodeInteger(value, out) || !range.contains(static_cast<double>(out))) {
    fail(key, range.describe(true));
  }
  return out;
}

std::string MapReader::string(const std::string& key, const std::string& fallback) {
  const YAML::Node value = get(key);
  if (!value.IsDefined()) return fallback;
  if (!value.IsScalar() || value.Scalar().empty()) fail(key, "a non-empty string");
  return value.Scalar();
}

bool MapReader::boolean(const std::string& key, bool fallback) {
  const YAML::Node value = get(key);
  if (!value.IsDefined()) return fallback;
  bool out = false;
  if (!value.IsScalar() || !YAML::convert<bool>::decode(value, out)) fail(key, "true or false");
  return out;
}

std::optional<Quat> MapReader::optionalQuaternion(const std::string& key) {
  const YAML::Node value = get(key);
  if (!value.IsDefined()) return std::nullopt;
  const std::string expected = "a quaternion [w, x, y, z] of four numbers with a non-zero norm";
  if (!value.IsSequence() || value.size() != 4) fail(key, expected);
  double c[4];
  for (int i = 0; i < 4; ++i) {
    if (!decodeNumber(value[i], c[i])) fail(key, expected);
  }
  Quat q(c[0], c[1], c[2], c[3]);
  if (!(q.norm() > 0.0) || !std::isfinite(q.norm())) fail(key, expected);
  // Unit input is kept bit for bit, so configToYaml output reads back unchanged.
  if (std::fabs(q.norm() - 1.0) > 1e-14) q.normalize();
  return q;
}

std::string MapReader::choice(const std::string& key, const std::string& fallback,
                              const std::vector<std::string>& allowed) {
  const YAML::Node value = get(key);
  if (!value.IsDefined()) return fallback;
  if (!value.IsScalar() ||
      std::find(allowed.begin(), allowed.end(), value.Scalar()) == allowed.end()) {
    fail(key, "one of: " + joined(allowed));
  }
  return value.Scalar();
}

std::string MapReader::requiredChoice(const std::string& key,
                                      const std::vector<std::string>& allowed) {
  if (!has(key)) failMissing(key, "one of: " + joined(allowed));
  return choice(key, "", allowed);
}

Vec3 MapReader::decodeVec3(const std::string& key, const YAML::Node& node, bool nonzero) const {
  const std::string expected = nonzero ? "a non-zero vector [x, y, z] of three numbers"
                                       : "a vector [x, y, z] of three numbers";
  if (!node.IsSequence() || node.size() != 3) fail(key, expected);
  Vec3 out;
  for (int i = 0; i < 3; ++i) {
    if (!decodeNumber(node[i], out[i])) fail(key, expected);
  }
  // A direction must also survive normalisation (|v| finite, e.g. not [1e300, 1e300, 0]).
  if (nonzero && !(out.norm() > 0.0 && std::isfinite(out.norm()))) fail(key, expected);
  return out;
}

Vec3 MapReader::vec3(const std::string& key, const Vec3& fallback, bool nonzero) {
  const YAML::Node value = get(key);
  if (!value.IsDefined()) return fallback;
  return decodeVec3(key, value, nonzero);
}

Vec3 MapReader::requiredVec3(const std::string& key, bool nonzero) {
  const YAML::Node value = get(key);
  if (!value.IsDefined()) {
    failMissing(key, nonzero ? "a non-zero vector [x, y, z]" : "a vector [x, y, z]");
  }
  return decodeVec3(key, value, nonzero);
}

Eigen::Vector2d MapReader::vec2(const std::string& key, const Eigen::Vector2d& fallback) {
  const YAML::Node value = get(key);
  if (!value.IsDefined()) return fallback;
  const std::string expected = "a pair [x, y] of two numbers";
  if (!value.IsSequence() || value.size() != 2) fail(key, expected);
  Eigen::Vector2d out;
  for (int i = 0; i < 2; ++i) {
    if (!decodeNumber(value[i], out[i])) fail(key, expected);
  }
  return out;
}

MapReader MapReader::map(const std::string& key) {
  return MapReader(*ctx_, get(key), keyPath(key));
}

void MapReader::fail(const std::string& key, const std::string& expected) const {
  const YAML::Node& const_node = node_;
  const YAML::Node value =
      node_.IsDefined() ? const_node[key] : YAML::Node(YAML::NodeType::Undefined);
  throwValueError(*ctx_, value, keyPath(key), expected);
}

void MapReader::failMissing(const std::string& key, const std::string& expected) const {
  throwPathError(*ctx_, node_, keyPath(key), "missing; expected " + expected);
}

void MapReader::finish() const {
  record_->finished = true;
  if (!node_.IsDefined()) return;
  const auto report = [&](const YAML::Node& key_node, const std::string& path,
                          const std::string& message) {
    if (!ctx_->errors) throwPathError(*ctx_, key_node, path, message);
    ctx_->errors->unknown_keys.emplace_back(key_node.Mark().line,
                                            pathErrorText(*ctx_, key_node, path, message));
  };
  const std::vector<std::string>& known = record_->known;
  std::vector<std::string> seen;
  for (const auto& item : node_) {
    const YAML::Node& key_node = item.first;
    const std::string key = keyText(key_node);
    const std::string path = keyPath(key);
    if (std::find(seen.begin(), seen.end(), key) != seen.end()) {
      report(key_node, path, "duplicate key");
      continue;
    }
    seen.push_back(key);
    if (std::find(known.begin(), known.end(), key) == known.end()) {
      std::vector<std::string> sorted = known;
      std::sort(sorted.begin(), sorted.end());
      report(key_node, path,
             "unknown key" + didYouMean(closestKey(key, sorted)) +
                 "; expected one of: " + joined(sorted));
    }
  }
}

}  // namespace grains::config_detail
