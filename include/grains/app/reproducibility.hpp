#pragma once
// Whether a run gives the same bits on any rank and thread count
// (docs/reliability.md, "Same bits on any rank and thread count"), and if
// not, why: stated in the log at the start of every run.
#include "grains/config/simulation_config.hpp"

#include <string>

namespace grains {

struct Reproducibility {
  bool across_ranks_and_threads = false;
  /// What makes the trajectory depend on the partition or the thread count
  /// (empty when it does not).
  std::string reason;
};

Reproducibility reproducibilityOf(const SimulationConfig& config);

/// The log line: "results are the same bits on any rank and thread count"
/// or "results may differ in round-off between rank or thread counts: <reason>".
std::string describe(const Reproducibility& r);

}  // namespace grains
