#pragma once
// Parsing of the `grains` command line (no MPI, no I/O: testable).
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace grains {

/// `grains qp solve DIR ...`: one solver on a stored contact QP.
struct QpSolveRequest {
  std::string dir;
  std::string solver;
  std::optional<double> tolerance;     ///< default 1e-6
  std::optional<long> max_iterations;  ///< default 1000
  std::optional<long> outer_iterations;
  std::vector<std::pair<std::string, double>> options;  ///< --option key=value
  std::optional<std::string> history_path;
  long history_every = 1;
  bool warm_start_from_file = false;  ///< --warm-start stored (default: zero)
};

struct CommandLine {
  enum class Command { Help, Version, Run, Validate, QpSolve, QpSolvers } command = Command::Help;
  std::optional<std::string> config_path;  ///< run: optional; validate: required
  std::optional<std::string> output_dir;
  std::optional<long> steps;
  std::vector<std::string> overrides;  ///< --set key.path=value
  bool overwrite = false;
  std::vector<long> export_qp_steps;  ///< run --export-qp STEP[,STEP...] DIR (1-based steps)
  std::string export_qp_dir;
  std::optional<std::string> restart_file;  ///< run --restart FILE
  bool allow_penetration = false;           ///< run --allow-penetration
  QpSolveRequest qp;
};

/// Thrown for a malformed command line; the message says what was expected.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

CommandLine parseCommandLine(const std::vector<std::string>& args);
std::string usageText();

}  // namespace grains
