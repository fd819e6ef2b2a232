#pragma once
// Internal to src/config: applies CLI --set overrides to the YAML tree.
#include "yaml_reader.hpp"

#include <string>
#include <vector>

namespace grains::config_detail {

/// Applies "key.path=value" overrides in order and records each in ctx.overrides
/// (so later messages can name the override). Throws ConfigError for a
/// malformed override or a path that cannot exist (index out of range, a key
/// below a scalar). Keys that are merely unknown are caught by validation.
void applyOverrides(YAML::Node& root, const std::vector<std::string>& overrides, ParseContext& ctx);

}  // namespace grains::config_detail
