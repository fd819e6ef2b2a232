#pragma once
// Geometric partitioning of the bodies with Zoltan2 (multi-jagged, optionally
// as recursive coordinate bisection), weighted by per-body work.
#include "grains/core/body.hpp"
#include "grains/linalg/tpetra_types.hpp"
#include "grains/parallel/box_decomposition.hpp"
#include "grains/parallel/parallel_settings.hpp"

#include <vector>

namespace grains {

struct Partition {
  BoxDecomposition boxes;
  std::vector<int> owner;  ///< new owning rank of each body passed in
};

/// Collective. `weights[i]` is the work of owned[i] (> 0). The returned boxes
/// tile space: faces on the bounding box of all bodies are moved to infinity.
Partition partitionBodies(const std::vector<Body>& owned, const std::vector<double>& weights,
                          PartitionerKind kind, RCP<const Comm> comm);

}  // namespace grains
