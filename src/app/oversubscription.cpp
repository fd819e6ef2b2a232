#include "grains/app/oversubscription.hpp"

#include "grains/parallel/mpi_utils.hpp"

#include <mpi.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif

namespace grains {

std::string oversubscriptionWarning(const Comm& comm, int threads, int cores) {
  // The ranks sharing this rank's node (its shared-memory domain).
  MPI_Comm node = MPI_COMM_NULL;
  MPI_Comm_split_type(rawMpiComm(comm), MPI_COMM_TYPE_SHARED, comm.getRank(), MPI_INFO_NULL, &node);
  int node_ranks = 1;
  MPI_Comm_size(node, &node_ranks);
  MPI_Comm_free(&node);
  const long used = static_cast<long>(node_ranks) * threads;
  const long excess = cores >= 1 ? used - cores : 0;
  const long worst = globalMax(comm, excess);
  if (worst <= 0) return "";
  const int reporter = lowestRankWhere(comm, excess == worst);
  std::string text;
  if (comm.getRank() == reporter)
    text = std::to_string(node_ranks) + (node_ranks == 1 ? " rank x " : " ranks x ") +
           std::to_string(threads) + (threads == 1 ? " thread" : " threads") + " = " +
           std::to_string(used) + " on a node with " + std::to_string(cores) +
           (cores == 1 ? " core" : " cores") +
           ": oversubscribed, every step waits for descheduled threads (use fewer ranks per "
           "node or a smaller OMP_NUM_THREADS)";
  return broadcastString(comm, reporter, text);
}

std::string oversubscriptionWarning(const Comm& comm) {
  int threads = 1;
#ifdef _OPENMP
  threads = omp_get_max_threads();
#endif
  return oversubscriptionWarning(comm, threads, static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN)));
}

}  // namespace grains
