#pragma once
// One interface for every contact solver, and the registry that maps config
// names to implementations. Adding a solver = one new file + one registry line.
#include "grains/solver/quadratic_program.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace grains {

struct SolverSettings {
  double tolerance = 1e-6;  ///< on the projected-gradient residual
  int max_iterations = 1000;
  /// Tresca-to-Coulomb fixed point (box/cylinder models, or cone/pyramid with a
  /// solver that only handles fixed bounds): at most this many inner solves...
  int outer_iterations = 20;
  /// ...stopping when the bounds change by at most this, relative to the largest bound.
  double outer_tolerance = 1e-6;
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
  /// Inner solves of the friction fixed point (0: no fixed point was needed).
  int outer_iterations = 0;
};

/// Where a solve stops: once the contacts' natural residuals at `quantile`
/// are at most `target` and every contact's at most `worst_limit`. With
/// quantile 1 that is the natural residual at most `target` (worst_limit is
/// then `target` as well).
struct StopRule {
  double target = 0.0;
  double quantile = 1.0;
  double worst_limit = 0.0;
};

/// Called by a solver after each iteration with the current iterate (the
/// solver's own counting of iterations). Used by the solver laboratory to
/// record histories; a solver must not depend on it.
using IterationObserver = std::function<void(int iteration, const Vector& gamma)>;

class Solver {
 public:
  virtual ~Solver() = default;
  virtual std::string name() const = 0;
  /// gamma: on entry the warm start (any point; projected first), on exit the
  /// returned iterate. The report's measures are those of that exact iterate.
  virtual SolveReport solve(const QuadraticProgram& qp, Vector& gamma) const = 0;
  /// solve() from a start the caller has measured already: `gamma` is on
  /// qp's contact set (projected with qp.cones, and not projected again) and
  /// `image` holds A gamma; the solve may overwrite `image`. A solver that
  /// takes its start from there saves the application of A that solve()
  /// spends on it; the others ignore `image` and solve as solve() does.
  virtual SolveReport solveFromImage(const QuadraticProgram& qp, Vector& gamma,
                                     Vector& image) const {
    (void)image;
    return solve(qp, gamma);
  }

  void setObserver(IterationObserver observer) { observer_ = std::move(observer); }

  /// The following solves stop at `scale` x the configured tolerance (1: as
  /// configured). The time stepper tightens it near rest (rest_tolerance.hpp);
  /// a solver that wraps another one passes the scale on.
  virtual void setToleranceScale(double scale) { tolerance_scale_ = scale; }
  double toleranceScale() const { return tolerance_scale_; }

  /// The following solves stop once the `quantile` of the contacts'
  /// residuals meets the scaled tolerance and every contact the configured
  /// one (1: the worst contact meets the scaled tolerance). The time stepper
  /// sets it near rest (rest_tolerance.hpp, bulk_stop) for the solvers that
  /// support it; the others throw for a quantile below 1.
  virtual bool supportsStopQuantile() const { return false; }
  void setStopQuantile(double quantile);
  double stopQuantile() const { return stop_quantile_; }

 protected:
  /// The residual this solve stops at.
  double scaledTolerance(double configured) const { return configured * tolerance_scale_; }
  /// The stop of this solve, for a configured tolerance.
  StopRule stopRule(double configured) const {
    const double target = scaledTolerance(configured);
    return stop_quantile_ < 1.0 ? StopRule{target, stop_quantile_, std::max(configured, target)}
                                : StopRule{target, 1.0, target};
  }
  bool observing() const { return static_cast<bool>(observer_); }
  void observe(int iteration, const Vector& gamma) const {
    if (observer_) observer_(iteration, gamma);
  }

 private:
  IterationObserver observer_;
  double tolerance_scale_ = 1.0;
  double stop_quantile_ = 1.0;
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
  /// Friction models solved directly. Box and cylinder entries also allow
  /// pyramid and coulomb through the Tresca-to-Coulomb fixed point.
  std::vector<FrictionModel> models;
  std::function<std::unique_ptr<Solver>(const SolverSettings&)> create;

  bool solvesDirectly(FrictionModel model) const;
  /// Directly or through the fixed point.
  bool supports(FrictionModel model) const;
  /// "frictionless, box, pyramid (fixed point over box)", for messages and docs.
  std::string describeModels() const;
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
  /// create() for problems of one friction model: throws std::invalid_argument
  /// when the solver does not support it, and wraps the solver in the
  /// Tresca-to-Coulomb fixed point when the model needs it (box/cylinder
  /// without given bounds, or cone/pyramid for a fixed-bounds-only solver).
  std::unique_ptr<Solver> create(const std::string& name, SolverSettings settings,
                                 FrictionModel model) const;

 private:
  SolverRegistry();
  std::vector<SolverEntry> entries_;
};

/// Option value with the default applied (settings.options is complete after create()).
double solverOption(const SolverSettings& settings, const std::string& key);

}  // namespace grains
