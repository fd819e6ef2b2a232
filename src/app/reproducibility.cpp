#include "grains/app/reproducibility.hpp"

#include <set>

namespace grains {

Reproducibility reproducibilityOf(const SimulationConfig& config) {
  // Solvers whose iterates use only per-contact arithmetic, reproducible sums
  // and certified decisions (tests/reliability/rank_invariance_test.sh runs
  // apgd and bbpgd, on spheres, ReLCP ellipsoids and a growing colony).
  static const std::set<std::string> reproducible_solvers = {"apgd", "bbpgd", "jacobi"};
  Reproducibility r;
  if (!config.parallel.reproducible) {
    r.reason = "parallel.reproducible is false (ordinary sums of the contact forces per body)";
  } else if (reproducible_solvers.count(config.solver.name) == 0) {
    r.reason = "solver '" + config.solver.name +
               "' uses global sums (or sweep orders) that depend on the partition; apgd, "
               "bbpgd and jacobi do not";
  } else {
    r.across_ranks_and_threads = true;
  }
  return r;
}

std::string describe(const Reproducibility& r) {
  if (r.across_ranks_and_threads)
    return "results are the same bits on any rank and thread count (parallel.reproducible)";
  return "results may differ in round-off between rank or thread counts: " + r.reason;
}

}  // namespace grains
