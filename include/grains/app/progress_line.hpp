#pragma once
// The progress line rank 0 prints every output.log_every steps: where the
// run is, what the last step cost, and when the run will end.
#include "grains/dynamics/time_stepper.hpp"

#include <string>

namespace grains {

/// "12.3 s", "4 min 05 s", "2 h 03 min", "3 d 04 h".
std::string formatDuration(double seconds);

class ProgressLine {
 public:
  /// The run ends at step total_steps (a restart starts later: the ETA
  /// counts only the steps this run has done).
  explicit ProgressLine(long total_steps) : total_steps_(total_steps) {}

  /// After every step: its wall time [s] (the slowest rank's).
  void recordStep(double wall_seconds);
  /// Mean wall time per step since the last line (or the start) [s].
  double meanSinceLastLine() const;
  /// Remaining wall time at the mean rate of all steps so far [s], after `step`.
  double eta(long step) const;

  /// The line for `step` (ends with '\n'); starts a new averaging window.
  std::string line(long step, double time, const StepReport& report, bool relcp,
                   double elapsed_seconds);

 private:
  long total_steps_;
  long steps_ = 0, window_steps_ = 0;
  double seconds_ = 0.0, window_seconds_ = 0.0;
};

}  // namespace grains
