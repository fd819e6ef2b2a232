#pragma once
// Broad phase: uniform cell grid over the bodies visible on this rank.
#include "grains/core/body.hpp"

#include <cstddef>
#include <utility>
#include <vector>

namespace grains {

/// Index pair (i < j) into the searched body array.
using BodyPair = std::pair<int, int>;

/// All pairs whose bounding spheres are closer than `envelope`, among
/// `bodies`, of which the first `num_owned` are owned by this rank and the
/// rest are ghosts; ghost-ghost pairs are skipped (another rank owns them).
/// The result is sorted, so it does not depend on the thread count.
std::vector<BodyPair> findNeighbourPairs(const std::vector<Body>& bodies, std::size_t num_owned,
                                         double envelope);

}  // namespace grains
