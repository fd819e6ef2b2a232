#pragma once
// Creating the initial bodies of a scenario from its config: a lattice, a
// random sequential packing, or a CSV file. The global list is deterministic
// (identical for any number of ranks): GIDs are 0..N-1 in generation order and
// every random draw depends only on simulation.seed and the body's GID.
#include "grains/config/config_error.hpp"
#include "grains/config/simulation_config.hpp"
#include "grains/core/body.hpp"
#include "grains/core/wall.hpp"

#include "grains/core/periodic_box.hpp"

#include <vector>

namespace grains {

/// Every body of the scenario, in GID order, checked by checkInitialOverlaps.
/// Throws ConfigError (naming the config file and key, or the CSV file, line
/// and column) when the bodies cannot be generated.
std::vector<Body> generateAllBodies(const SimulationConfig& config);

/// The bodies rank `rank` of `nranks` initially owns: the contiguous GID block
/// [N*rank/nranks, N*(rank+1)/nranks) of generateAllBodies(config).
/// Throws std::invalid_argument for a bad rank / nranks.
std::vector<Body> generateBodies(const SimulationConfig& config, int rank, int nranks);

/// Throws ConfigError naming the two GIDs and the overlap depth if two bodies
/// overlap, or the GID and the wall if a body penetrates a wall (beyond a
/// relative round-off tolerance; touching is allowed). O(N) with a cell grid.
/// With periodic axes, bodies are compared at their wrapped centres and
/// through the faces too (nearest images).
void checkInitialOverlaps(const std::vector<Body>& all, const std::vector<Wall>& walls,
                          const PeriodicBox& periodic = PeriodicBox{});

}  // namespace grains
