#pragma once
// The log of a run, filtered by level. A message about the whole run is
// printed once, by rank 0; a problem only one rank sees is printed by that
// rank with a "[rank r]" prefix. Errors and warnings carry a prefix so they
// stand out in a job log ("error: ", "warning: ", "debug: ").
#include "grains/io/log_level.hpp"

#include <iosfwd>
#include <string>

namespace grains {

class Log {
 public:
  Log() = default;  ///< silent
  Log(std::ostream* out, LogLevel level, int rank) : out_(out), level_(level), rank_(rank) {}

  /// Whether rank 0 prints messages of this level (false on other ranks).
  bool shows(LogLevel level) const {
    return out_ != nullptr && rank_ == 0 && static_cast<int>(level) <= static_cast<int>(level_);
  }
  LogLevel level() const { return level_; }

  void error(const std::string& message) const { print(LogLevel::Error, message, false); }
  void warn(const std::string& message) const { print(LogLevel::Warn, message, false); }
  void info(const std::string& message) const { print(LogLevel::Info, message, false); }
  void debug(const std::string& message) const { print(LogLevel::Debug, message, false); }
  /// A warning only this rank knows of, printed by this rank.
  void rankWarn(const std::string& message) const { print(LogLevel::Warn, message, true); }

 private:
  void print(LogLevel level, const std::string& message, bool this_rank) const;

  std::ostream* out_ = nullptr;
  LogLevel level_ = LogLevel::Info;
  int rank_ = 0;
};

}  // namespace grains
