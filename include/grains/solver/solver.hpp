#pragma once
// One interface for every contact solver, and the registry that maps config
// names to implementations. Adding a solver = one new file + one registry line.
#include "grains/solver/quadratic_program.hpp"

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace grains {

struct SolverSettings {
  double tolerance = 1e-6;  ///< on the projected-gradient residual
  int max_iterations = 1000;
  /// Solver-specific options, validated against the solver's option specs.
  std::map<std::string, double> options;
};

struct SolveReport {
  std::string solver;
  int iterations = 0;
  double residual = 0.0;   ///< at the returned iterate
  double objective = 0.0;  ///< at the returned iterate
  bool converged =
      false;  ///< residual <= tolerance (never true when the cap was hit above tolerance)
  int operator_applies = 0;
};

class Solver {
 public:
  virtual ~Solver() = default;
  virtual std::string name() const = 0;
  /// gamma: on entry the warm start (any point; projected first), on exit the
  /// returned iterate. The report's measures are those of that exact iterate.
  virtual SolveReport solve(const QuadraticProgram& qp, Vector& gamma) const = 0;
};

struct SolverOptionSpec {
  std::string name;
  double default_value = 0.0;
  double min_value = 0.0;
  double max_value = 0.0;
  bool integer = false;
  std::string description;
};

struct SolverEntry {
  std::string name;
  std::string description;
  std::vector<SolverOptionSpec> options;
  bool needs_factored_operator = false;
  std::function<std::unique_ptr<Solver>(const SolverSettings&)> create;
};

class SolverRegistry {
 public:
  static const SolverRegistry& instance();
  const SolverEntry* find(const std::string& name) const;
  std::vector<std::string> names() const;
  /// Throws std::invalid_argument for an unknown solver or option, or an
  /// option value out of range; the message names the value and what was expected.
  /// Missing options get their defaults.
  std::unique_ptr<Solver> create(const std::string& name, SolverSettings settings) const;

 private:
  SolverRegistry();
  std::vector<SolverEntry> entries_;
};

/// Option value with the default applied (settings.options is complete after create()).
double solverOption(const SolverSettings& settings, const std::string& key);

}  // namespace grains
