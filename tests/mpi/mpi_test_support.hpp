#pragma once
// Helpers shared by the MPI tests: block distribution of a global body list
// and all-gathers of per-rank vectors.
#include "grains/core/body.hpp"
#include "grains/linalg/tpetra_types.hpp"
#include "grains/parallel/body_domain.hpp"
#include "grains/parallel/mpi_utils.hpp"

#include "body_blocks.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdint>
#include <map>
#include <vector>

namespace grains::test {

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

struct Pose {
  Vec3 position;
  Vec3 axis;  ///< body z axis in the world frame
};

/// Position and axis of every body, owned on any rank, by GID (on every rank);
/// a GID owned twice is a test failure.
inline std::map<GlobalId, Pose> gatherPoses(const BodyDomain& domain) {
  std::vector<double> rows;
  for (std::size_t i = 0; i < domain.numOwned(); ++i) {
    const Body& b = domain.bodies()[i];
    const Vec3 axis = b.orientation * Vec3::UnitZ();
    rows.insert(rows.end(), {static_cast<double>(b.gid), b.position.x(), b.position.y(),
                             b.position.z(), axis.x(), axis.y(), axis.z()});
  }
  const auto gathered = allGather(domain.comm(), rows);
  std::map<GlobalId, Pose> poses;
  for (std::size_t k = 0; k + 6 < gathered.size(); k += 7) {
    const auto gid = static_cast<GlobalId>(gathered[k]);
    EXPECT_EQ(poses.count(gid), 0u) << "duplicate GID " << gid;
    poses[gid] = Pose{Vec3(gathered[k + 1], gathered[k + 2], gathered[k + 3]),
                      Vec3(gathered[k + 4], gathered[k + 5], gathered[k + 6])};
  }
  return poses;
}

/// Largest difference of positions and axes between two runs' poses (a body
/// missing from `b` is a test failure).
inline double maxPoseDifference(const std::map<GlobalId, Pose>& a,
                                const std::map<GlobalId, Pose>& b) {
  double worst = 0.0;
  for (const auto& [gid, pose] : a) {
    const auto other = b.find(gid);
    if (other == b.end()) {
      ADD_FAILURE() << "body " << gid << " missing";
      continue;
    }
    worst = std::max(worst, (pose.position - other->second.position).norm());
    worst = std::max(worst, (pose.axis - other->second.axis).norm());
  }
  return worst;
}

}  // namespace grains::test
