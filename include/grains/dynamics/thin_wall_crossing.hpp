#pragma once
// A body whose centre passes through a thin wall (disc, annulus, floor with
// an orifice, cone band, triangle mesh) within one step was not stopped by its contact:
// the step was too long for it. The run warns with the body's GID.
#include "grains/core/body.hpp"
#include "grains/core/wall.hpp"
#include "grains/linalg/tpetra_types.hpp"

#include <cstddef>
#include <vector>

namespace grains {

struct ThinWallCrossings {
  long count = 0;            ///< bodies that crossed a thin wall this step (all ranks)
  GlobalId first = kNoBody;  ///< the smallest such GID
  int wall = -1;             ///< the wall that body crossed
};

/// Collective. Owned bodies [0, owned) of `before` moved to the same index
/// of `after`; the walls are those of the step's start.
ThinWallCrossings findThinWallCrossings(const Comm& comm, const std::vector<Body>& before,
                                        const std::vector<Body>& after, std::size_t owned,
                                        const std::vector<Wall>& walls);

}  // namespace grains
