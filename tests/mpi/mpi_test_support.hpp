#pragma once
// Helpers shared by the MPI tests: block distribution of a global body list
// and all-gathers of per-rank vectors.
#include "grains/core/body.hpp"
#include "grains/linalg/tpetra_types.hpp"
#include "grains/parallel/mpi_utils.hpp"

#include <mpi.h>

#include <cstdint>
#include <vector>

namespace grains::test {

/// This rank's contiguous block of `all` (ranks in order, sizes differ by <= 1).
inline std::vector<Body> myBlock(const std::vector<Body>& all, const Comm& comm) {
  const std::size_t n = all.size(), p = static_cast<std::size_t>(comm.getSize()),
                    r = static_cast<std::size_t>(comm.getRank());
  return std::vector<Body>(all.begin() + static_cast<long>(n * r / p),
                           all.begin() + static_cast<long>(n * (r + 1) / p));
}

template <typename T>
MPI_Datatype mpiTypeOf();
template <>
inline MPI_Datatype mpiTypeOf<double>() {
  return MPI_DOUBLE;
}
template <>
inline MPI_Datatype mpiTypeOf<std::int64_t>() {
  return MPI_INT64_T;
}

/// Every rank's vector concatenated in rank order, on every rank.
template <typename T>
std::vector<T> allGather(const Comm& comm, const std::vector<T>& mine) {
  const MPI_Comm raw = rawMpiComm(comm);
  int count = static_cast<int>(mine.size());
  std::vector<int> counts(static_cast<std::size_t>(comm.getSize()));
  MPI_Allgather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, raw);
  std::vector<int> displs(counts.size(), 0);
  for (std::size_t k = 1; k < counts.size(); ++k) displs[k] = displs[k - 1] + counts[k - 1];
  std::vector<T> all(static_cast<std::size_t>(displs.back() + counts.back()));
  MPI_Allgatherv(mine.data(), count, mpiTypeOf<T>(), all.data(), counts.data(), displs.data(),
                 mpiTypeOf<T>(), raw);
  return all;
}

}  // namespace grains::test
