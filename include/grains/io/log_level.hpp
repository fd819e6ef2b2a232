#pragma once
// How much a run prints (output.log_level, --log-level, -q, -v).
#include <optional>
#include <string>

namespace grains {

/// Each level shows itself and the levels before it.
enum class LogLevel : int { Error = 0, Warn = 1, Info = 2, Debug = 3 };

/// "error", "warn", "info", "debug"; nullopt for anything else.
std::optional<LogLevel> logLevelFromName(const std::string& name);
const char* logLevelName(LogLevel level);

}  // namespace grains
