#pragma once
// A whole run: bodies from the config, the time loop, VTK and metrics output.
#include "grains/app/phase_times.hpp"
#include "grains/config/simulation_config.hpp"
#include "grains/linalg/tpetra_types.hpp"

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace grains {

struct RunOptions {
  std::optional<std::string> output_dir;  ///< overrides output.dir
  std::optional<long> steps;              ///< overrides the config's step count
  bool overwrite = false;                 ///< allow replacing grains' outputs in output_dir
  std::ostream* log = nullptr;            ///< progress lines (rank 0); null = silent
  std::vector<long> export_qp_steps;      ///< 1-based steps whose QP is written...
  std::string export_qp_dir;              ///< ...to export_qp_dir/step_<N>/
  /// Continue from this checkpoint (docs/restart.md) instead of generating bodies.
  std::optional<std::string> restart_file;
  /// A restart whose bodies penetrate the config's walls continues with a
  /// warning instead of being refused.
  bool allow_penetration = false;
};

struct RunSummary {
  long first_step = 1;  ///< > 1 after a restart
  long steps = 0;       ///< the last step run
  double time = 0.0;
  long bodies = 0;
  long contacts = 0;
  long active_contacts = 0;
  double kinetic_energy = 0.0;
  double max_overlap = 0.0;
  double wall_seconds = 0.0;  ///< the whole run on rank 0, set-up and output included
  double loop_seconds = 0.0;  ///< the time loop (slowest rank)
  /// Seconds per phase (min / mean / max over ranks), also in <output>/timing.csv.
  std::vector<PhaseTiming> timing;
  long unconverged_steps = 0;  ///< kept without reaching the solver tolerance
  long retried_steps = 0;      ///< redone with a halved dt (solver.on_unconverged = retry)
  long removed_bodies = 0;     ///< removed for leaving the domain box
  std::string output_dir;
};

/// Collective over `comm`. Throws ConfigError for bad input and
/// std::runtime_error for failures during the run.
RunSummary runSimulation(const SimulationConfig& config, const RunOptions& options,
                         RCP<const Comm> comm);

}  // namespace grains
