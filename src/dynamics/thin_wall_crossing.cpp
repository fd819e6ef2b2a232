#include "grains/dynamics/thin_wall_crossing.hpp"

#include "grains/geometry/wall_crossing.hpp"
#include "grains/parallel/mpi_utils.hpp"

#include <algorithm>
#include <limits>

namespace grains {

ThinWallCrossings findThinWallCrossings(const Comm& comm, const std::vector<Body>& before,
                                        const std::vector<Body>& after, std::size_t owned,
                                        const std::vector<Wall>& walls) {
  std::vector<int> thin;
  for (std::size_t w = 0; w < walls.size(); ++w)
    if (walls[w].isSheet()) thin.push_back(static_cast<int>(w));
  ThinWallCrossings out;
  if (thin.empty()) return out;  // the same on every rank: no collective needed
  long count = 0;
  // (GID, wall) of the smallest GID as one number: one reduction finds both.
  const long nwalls = static_cast<long>(walls.size());
  long first = std::numeric_limits<long>::max();
  for (std::size_t i = 0; i < owned; ++i) {
    for (int w : thin) {
      if (!pathCrossesThinWall(walls[static_cast<std::size_t>(w)], before[i].position,
                               after[i].position))
        continue;
      ++count;
      first = std::min(first, static_cast<long>(before[i].gid) * nwalls + w);
      break;
    }
  }
  out.count = globalSum(comm, count);
  if (out.count == 0) return out;
  first = globalMin(comm, first);
  out.first = static_cast<GlobalId>(first / nwalls);
  out.wall = static_cast<int>(first % nwalls);
  return out;
}

}  // namespace grains
