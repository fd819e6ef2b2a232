#pragma once
// Block distribution of a global body list over a communicator's ranks
// (shared by the MPI tests and the support fixtures that run on any rank count).
#include "grains/core/body.hpp"
#include "grains/linalg/tpetra_types.hpp"

#include <vector>

namespace grains::test {

/// This rank's contiguous block of `all` (ranks in order, sizes differ by <= 1).
inline std::vector<Body> myBlock(const std::vector<Body>& all, const Comm& comm) {
  const std::size_t n = all.size(), p = static_cast<std::size_t>(comm.getSize()),
                    r = static_cast<std::size_t>(comm.getRank());
  return std::vector<Body>(all.begin() + static_cast<long>(n * r / p),
                           all.begin() + static_cast<long>(n * (r + 1) / p));
}

}  // namespace grains::test
