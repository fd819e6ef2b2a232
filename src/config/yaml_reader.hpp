#pragma once
// Internal to src/config: a checked view of one YAML map of the config file.
// Every typed getter names the full key path, the offending value and what was
// expected when it throws; finish() rejects keys nobody asked for.
#include "grains/config/config_error.hpp"
#include "grains/core/types.hpp"

#include <yaml-cpp/yaml.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace grains::config_detail {

struct ParseErrors;

/// Where the YAML came from, for messages.
struct ParseContext {
  std::string source = "<string>";
  /// Directory relative file paths in the config resolve against.
  std::string base_dir = ".";
  /// Normalised key path of each --set override -> the override as typed.
  std::map<std::string, std::string> overrides;
  /// Set by the loader to gather unknown keys over the whole config instead
  /// of throwing at the first; null: every error throws.
  std::shared_ptr<ParseErrors> errors;

  /// The override responsible for `path` (equal to it, above it or below it), or "".
  std::string overrideFor(const std::string& path) const;
};

/// Short single-line rendering of a node for messages (flow style, truncated).
std::string describeValue(const YAML::Node& node);

/// "<source>[:line]" for a node, or "<source> (--set ...)" when an override set it.
std::string location(const ParseContext& ctx, const YAML::Node& node, const std::string& path);

/// "<location>: <path>: <message>" (the text throwPathError throws).
std::string pathErrorText(const ParseContext& ctx, const YAML::Node& node, const std::string& path,
                          const std::string& message);

/// Throws "<location>: <path> = <value>: expected <expected>".
[[noreturn]] void throwValueError(const ParseContext& ctx, const YAML::Node& node,
                                  const std::string& path, const std::string& expected);
/// Throws "<location>: <path>: <message>".
[[noreturn]] void throwPathError(const ParseContext& ctx, const YAML::Node& node,
                                 const std::string& path, const std::string& message);

/// Closed / open interval used to validate numbers; also renders "a number > 0".
struct Range {
  double lo = -1e308;
  double hi = 1e308;
  bool lo_open = false;
  bool hi_open = false;
  bool has_lo = false;
  bool has_hi = false;

  static Range any() { return Range{}; }
  static Range positive() { return Range{0.0, 0.0, true, false, true, false}; }
  static Range nonNegative() { return Range{0.0, 0.0, false, false, true, false}; }
  static Range atLeast(double v) { return Range{v, 0.0, false, false, true, false}; }
  static Range closed(double a, double b) { return Range{a, b, false, false, true, true}; }
  static Range closedOpen(double a, double b) { return Range{a, b, false, true, true, true}; }
  static Range openClosed(double a, double b) { return Range{a, b, true, false, true, true}; }

  bool contains(double v) const;
  /// "a number > 0", "an integer >= 1", "a number in [0, 0.5)".
  std::string describe(bool integer) const;
};

/// Parses a scalar node; false if it is not a finite number / integral number.
bool decodeNumber(const YAML::Node& node, double& out);
bool decodeInteger(const YAML::Node& node, long& out);

/// A map a MapReader read and the keys asked for on it so far; kept by
/// ParseErrors, so they outlive a parse stopped by an error.
struct ReadMap {
  std::string path;
  /// Optional only to be rebindable: a Node refuses assignment from a key
  /// that is absent (yaml-cpp's "zombie" nodes).
  std::optional<YAML::Node> node;
  std::vector<std::string> known;
  bool finished = false;  ///< finish() checked every key
  /// Read again by the loader only to learn the keys of a section that
  /// stopped at a bad value (its errors are not reported twice).
  bool rehearsal = false;
};

/// Every error of one config: unknown keys (with suggestions) first, then
/// missing keys and bad values, one line each.
struct ParseErrors {
  /// Unknown and duplicate keys with the line of the key (-1: none, e.g. --set).
  std::vector<std::pair<int, std::string>> unknown_keys;
  std::vector<std::string> others;  ///< missing keys and bad values
  std::vector<std::shared_ptr<ReadMap>> maps;
  /// Path of the last value rejected by throwValueError ("" if none since cleared).
  std::string last_bad_value;

  /// Adds the unknown keys of maps whose parse stopped at an error. If a
  /// rehearsal read such a map to its end, every key it did not ask for is
  /// unknown; otherwise only keys a few edits from a key that was asked for
  /// but is absent are reported (the others may be valid keys never asked for).
  void addUnknownKeysOfUnfinishedMaps(const ParseContext& ctx);
  bool empty() const { return unknown_keys.empty() && others.empty(); }
  /// The lines: unknown keys first, in the order of the file, then the others.
  std::string report() const;
};

class MapReader {
 public:
  /// `node` must be a map, or undefined (treated as empty). `path` is "" for the root.
  MapReader(const ParseContext& ctx, const YAML::Node& node, std::string path);

  const std::string& path() const { return path_; }
  const ParseContext& context() const { return *ctx_; }
  const YAML::Node& yaml() const { return node_; }
  std::string keyPath(const std::string& key) const;

  /// Declares `key` as part of the schema here; true if present in the YAML.
  bool has(const std::string& key);
  /// Declares `key`; returns its node (undefined when absent).
  YAML::Node get(const std::string& key);

  double number(const std::string& key, double fallback, const Range& range);
  std::optional<double> optionalNumber(const std::string& key, const Range& range);
  double requiredNumber(const std::string& key, const Range& range);
  long integer(const std::string& key, long fallback, const Range& range);
  std::optional<long> optionalInteger(const std::string& key, const Range& range);
  std::string string(const std::string& key, const std::string& fallback);
  /// true / false (YAML's spellings: true, false, yes, no, on, off).
  bool boolean(const std::string& key, bool fallback);
  /// A rotation as a quaternion [w, x, y, z] of non-zero norm, returned normalised.
  std::optional<Quat> optionalQuaternion(const std::string& key);
  /// One of `allowed`; the message lists them.
  std::string choice(const std::string& key, const std::string& fallback,
                     const std::vector<std::string>& allowed);
  std::string requiredChoice(const std::string& key, const std::vector<std::string>& allowed);
  Vec3 vec3(const std::string& key, const Vec3& fallback, bool nonzero = false);
  Vec3 requiredVec3(const std::string& key, bool nonzero = false);
  /// [x, y] pair.
  Eigen::Vector2d vec2(const std::string& key, const Eigen::Vector2d& fallback);
  /// Child map (empty when absent).
  MapReader map(const std::string& key);

  [[noreturn]] void fail(const std::string& key, const std::string& expected) const;
  [[noreturn]] void failMissing(const std::string& key, const std::string& expected) const;

  /// Rejects duplicate keys and keys that were never declared by a getter
  /// (gathering all of them when the context collects errors); an unknown
  /// key within a few edits of a declared one gets "did you mean".
  void finish() const;

 private:
  Vec3 decodeVec3(const std::string& key, const YAML::Node& node, bool nonzero) const;
  const ParseContext* ctx_;
  YAML::Node node_;
  std::string path_;
  std::shared_ptr<ReadMap> record_;  ///< declared keys, shared with ctx_->errors
};

}  // namespace grains::config_detail
