#pragma once
// Parsing of the `grains` command line (no MPI, no I/O: testable).
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace grains {

struct CommandLine {
  enum class Command { Help, Version, Run, Validate } command = Command::Help;
  std::optional<std::string> config_path;  ///< run: optional; validate: required
  std::optional<std::string> output_dir;
  std::optional<long> steps;
  std::vector<std::string> overrides;  ///< --set key.path=value
  bool overwrite = false;
};

/// Thrown for a malformed command line; the message says what was expected.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

CommandLine parseCommandLine(const std::vector<std::string>& args);
std::string usageText();

}  // namespace grains
