#pragma once
// Where a run's wall time goes, per phase, and the table printed at its end:
// each phase's seconds summed over the run on every rank, then min / mean /
// max over ranks (docs/running.md).
#include "grains/dynamics/time_stepper.hpp"
#include "grains/linalg/tpetra_types.hpp"

#include <string>
#include <vector>

namespace grains {

/// Seconds this rank spent in each phase so far.
class PhaseTimes {
 public:
  /// The phases of one step (a retried step's substeps included).
  void addStep(const StepReport& report);
  void addOutput(double seconds) { output_ += seconds; }
  /// Phase names and seconds, in table order; "other" is whatever of
  /// `loop_seconds` (this rank's wall time of the time loop) no phase covers.
  std::vector<std::pair<std::string, double>> phases(double loop_seconds) const;

 private:
  double broad_ = 0.0, narrow_ = 0.0, assembly_ = 0.0, solve_ = 0.0, relcp_ = 0.0, update_ = 0.0,
         communication_ = 0.0, output_ = 0.0;
};

struct PhaseTiming {
  std::string phase;
  double min = 0.0, mean = 0.0, max = 0.0;  ///< over ranks [s]
};

/// Collective: min / mean / max over ranks of each phase (same order on all ranks).
std::vector<PhaseTiming> reducePhaseTimes(const Comm& comm,
                                          const std::vector<std::pair<std::string, double>>& local);
/// The table for the log: one line per phase with min, mean, max [s] and the
/// mean's share of `wall_seconds`.
std::string formatTimingTable(const std::vector<PhaseTiming>& rows, double wall_seconds, int ranks);
/// The same as CSV: phase,min_s,mean_s,max_s,percent_of_wall.
void writeTimingCsv(const std::string& path, const std::vector<PhaseTiming>& rows,
                    double wall_seconds);

}  // namespace grains
