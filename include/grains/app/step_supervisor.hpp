#pragma once
// Runs each time step under the reliability policies of docs/reliability.md:
// bodies outside the domain box are removed or end the run, non-finite
// state ends the run naming the body, and a solve that stops short of its
// tolerance is kept (warn), redone as 2^k substeps of dt/2^k (retry), or ends
// the run (abort). Whenever the run must end, every rank restores the state
// from before the step and throws the same RunFault, so the caller can write
// an emergency checkpoint of the last good state.
#include "grains/app/fault_injection.hpp"
#include "grains/config/simulation_config.hpp"
#include "grains/dynamics/time_stepper.hpp"

#include <optional>
#include <string>
#include <vector>

namespace grains {

struct SupervisorSettings {
  double dt = 0.0;
  UnconvergedPolicy on_unconverged = UnconvergedPolicy::Warn;
  int max_halvings = 3;
  double tolerance = 0.0;  ///< the solver's, for messages
  DomainSection domain;
  /// Open boundaries: sources poured at the start of each step, outlets
  /// emptied before it (docs/boundaries.md).
  std::vector<InsertionSource> insertion;
  std::vector<OutletSpec> outlets;
  unsigned long seed = 0;  ///< simulation.seed (inserted bodies' draws)
  std::optional<FaultInjection> fault;
};

SupervisorSettings supervisorSettings(const SimulationConfig& config);

struct SupervisedStep {
  /// The step's report; for a retried step that of its last substep, with
  /// iterations, times and overlaps accumulated over the substeps.
  StepReport report;
  int halvings = 0;          ///< dt was halved this many times (0: solved at dt)
  long removed = 0;          ///< bodies removed for leaving the domain (all ranks)
  bool unconverged = false;  ///< the step was kept without reaching the tolerance
  /// metrics.csv columns of the open boundaries: inserted_<source>,
  /// insertion_missed, discharged_<outlet>, discharged_<outlet>_mass.
  std::vector<std::pair<std::string, double>> boundary_columns;
  /// Lines for the log (complete on rank 0 only): removed bodies, retries,
  /// non-convergence.
  std::vector<std::string> warnings;
};

class StepSupervisor {
 public:
  StepSupervisor(TimeStepper& stepper, SupervisorSettings settings);

  /// Collective: advances `domain` by one step of dt (1-based `step`).
  /// Throws RunFault on every rank, with the domain and the stepper's warm
  /// start as they were before the step, when the run must end.
  SupervisedStep advance(BodyDomain& domain, long step);

 private:
  struct Snapshot {
    std::vector<Body> owned;
    std::vector<WarmStartRecord> warm_start;
    std::vector<ForceControlState> force_control;
  };
  Snapshot snapshot(const BodyDomain& domain) const;
  void restore(BodyDomain& domain, const Snapshot& snap);
  /// 2^halvings substeps of dt / 2^halvings, reports combined.
  StepReport attempt(BodyDomain& domain, long step, int halvings);
  /// A warning naming the first body that passed through a thin wall.
  void warnThinWallCrossings(long step, SupervisedStep& out) const;
  /// Throws RunFault (after restoring `before`) if any owned body or the
  /// solver's residual is not finite.
  void checkFinite(BodyDomain& domain, long step, const StepReport& report, const Snapshot& before);
  /// Bodies whose centre is outside the domain box (at the start of `step`).
  long removeEscaped(BodyDomain& domain, long step, std::vector<std::string>& warnings);
  /// Empties the outlets and records their columns (collective).
  void dischargeAtOutlets(BodyDomain& domain, SupervisedStep& out);
  [[noreturn]] void fail(BodyDomain& domain, const Snapshot& before, const std::string& message);

  TimeStepper& stepper_;
  SupervisorSettings settings_;
};

/// The report of substeps `first` then `second` seen as one step.
StepReport combineSubsteps(const StepReport& first, const StepReport& second);

}  // namespace grains
