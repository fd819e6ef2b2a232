#include "grains/io/log.hpp"

#include <ostream>
#include <sstream>

namespace grains {

std::optional<LogLevel> logLevelFromName(const std::string& name) {
  for (LogLevel level : {LogLevel::Error, LogLevel::Warn, LogLevel::Info, LogLevel::Debug})
    if (name == logLevelName(level)) return level;
  return std::nullopt;
}

const char* logLevelName(LogLevel level) {
  switch (level) {
    case LogLevel::Error:
      return "error";
    case LogLevel::Warn:
      return "warn";
    case LogLevel::Info:
      return "info";
    case LogLevel::Debug:
      return "debug";
  }
  return "info";
}

void Log::print(LogLevel level, const std::string& message, bool this_rank) const {
  if (out_ == nullptr || static_cast<int>(level) > static_cast<int>(level_)) return;
  if (!this_rank && rank_ != 0) return;
  std::ostringstream line;  // one write per line: ranks' lines do not interleave
  if (this_rank) line << "[rank " << rank_ << "] ";
  if (level == LogLevel::Error) line << "error: ";
  if (level == LogLevel::Warn) line << "warning: ";
  if (level == LogLevel::Debug) line << "debug: ";
  line << message;
  if (message.empty() || message.back() != '\n') line << '\n';
  *out_ << line.str() << std::flush;
}

}  // namespace grains
