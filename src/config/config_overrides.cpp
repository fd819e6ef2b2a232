#include "config_overrides.hpp"

#include "grains/core/text.hpp"

#include <utility>

namespace grains::config_detail {

namespace {

/// Keys of which at most one may be given; setting one by override drops the other.
const std::pair<const char*, const char*> kExclusivePairs[] = {
    {"simulation.steps", "simulation.end_time"},
    {"bodies.mass", "bodies.density"},
};

std::vector<std::string> splitPath(const std::string& key) {
  std::vector<std::string> parts;
  std::string current;
  for (char c : key) {
    if (c == '.') {
      parts.push_back(current);
      current.clear();
    } else {
      current += c;
    }
  }
  parts.push_back(current);
  return parts;
}

bool parseIndex(const std::string& s, std::size_t& out) {
  if (s.empty() || s.size() > 9) return false;
  for (char c : s) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  }
  out = static_cast<std::size_t>(std::stoul(s));
  return true;
}

[[noreturn]] void overrideError(const ParseContext& ctx, const std::string& text,
                                const std::string& message) {
  throw ConfigError(ctx.source + ": --set " + text + ": " + message);
}

/// The key with list indices in brackets written as path segments
/// (walls[0].max is walls.0.max), the form the config's paths use.
std::string dottedKey(const ParseContext& ctx, const std::string& text, const std::string& key) {
  std::string out;
  for (std::size_t i = 0; i < key.size(); ++i) {
    if (key[i] != '[' && key[i] != ']') {
      out += key[i];
      continue;
    }
    const std::size_t close = key[i] == '[' ? key.find(']', i) : std::string::npos;
    std::size_t index = 0;
    const bool well_formed =
        close != std::string::npos && !out.empty() && out.back() != '.' &&
        parseIndex(key.substr(i + 1, close - i - 1), index) &&
        (close + 1 == key.size() || key[close + 1] == '.' || key[close + 1] == '[');
    if (!well_formed) {
      overrideError(ctx, text,
                    "'" + key +
                        "': a list index in brackets follows a key and holds digits only "
                        "(walls[0].max, the same as walls.0.max)");
    }
    out += '.' + std::to_string(index);
    i = close;
  }
  return out;
}

std::string joinPath(const std::string& base, const std::string& segment) {
  return base.empty() ? segment : base + "." + segment;
}

/// Sequence child `segment` of `seq` (must exist).
YAML::Node sequenceChild(const ParseContext& ctx, const std::string& text, YAML::Node& seq,
                         const std::string& path, const std::string& segment) {
  std::size_t index = 0;
  if (!parseIndex(segment, index) || index >= seq.size()) {
    overrideError(
        ctx, text,
        path + " is a list with " + std::to_string(seq.size()) + " entries; expected an index 0.." +
            std::to_string(seq.size() == 0 ? 0 : seq.size() - 1) + " instead of '" + segment + "'");
  }
  return seq[index];
}

void applyOne(YAML::Node& root, const std::string& text, ParseContext& ctx) {
  const std::size_t eq = text.find('=');
  if (eq == std::string::npos) overrideError(ctx, text, "expected key.path=value");
  const std::string written_key = trim(text.substr(0, eq));
  const std::string value_text = trim(text.substr(eq + 1));
  if (written_key.empty() || value_text.empty())
    overrideError(ctx, text, "expected key.path=value");
  const std::string key = dottedKey(ctx, text, written_key);
  const std::vector<std::string> segments = splitPath(key);
  for (const auto& s : segments) {
    if (s.empty()) overrideError(ctx, text, "empty segment in key path '" + key + "'");
  }
  YAML::Node value;
  try {
    value = YAML::Load(value_text);
  } catch (const YAML::Exception& e) {
    overrideError(ctx, text, "the value is not valid YAML (" + e.msg + ")");
  }

  if (!root.IsDefined() || root.IsNull()) root = YAML::Node(YAML::NodeType::Map);
  YAML::Node current;
  current.reset(root);
  std::string path;
  for (std::size_t i = 0; i + 1 < segments.size(); ++i) {
    const std::string& segment = segments[i];
    YAML::Node next;
    if (current.IsSequence()) {
      next.reset(sequenceChild(ctx, text, current, path, segment));
    } else {
      if (current.IsNull()) current = YAML::Node(YAML::NodeType::Map);
      if (!current.IsMap()) {
        overrideError(ctx, text, (path.empty() ? "<root>" : path) + " is a value, not a map");
      }
      const YAML::Node& const_current = current;
      if (!const_current[segment].IsDefined()) current[segment] = YAML::Node(YAML::NodeType::Map);
      next.reset(current[segment]);
    }
    path = joinPath(path, segment);
    current.reset(next);
  }

  const std::string& last = segments.back();
  if (current.IsSequence()) {
    YAML::Node slot = sequenceChild(ctx, text, current, path, last);
    if (value.IsNull()) overrideError(ctx, text, "list entries cannot be deleted with ~");
    slot = value;
  } else {
    if (current.IsNull()) current = YAML::Node(YAML::NodeType::Map);
    if (!current.IsMap()) {
      overrideError(ctx, text, (path.empty() ? "<root>" : path) + " is a value, not a map");
    }
    if (value.IsNull()) {
      current.remove(last);
    } else {
      current[last] = value;
      for (const auto& [a, b] : kExclusivePairs) {
        const std::string full = joinPath(path, last);
        const std::string partner = full == a ? b : (full == b ? a : "");
        if (!partner.empty()) current.remove(partner.substr(partner.rfind('.') + 1));
      }
    }
  }
  ctx.overrides[key] = text;
}

}  // namespace

void applyOverrides(YAML::Node& root, const std::vector<std::string>& overrides,
                    ParseContext& ctx) {
  for (const auto& text : overrides) applyOne(root, text, ctx);
}

}  // namespace grains::config_detail
