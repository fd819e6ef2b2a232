#include "grains/parallel/sparse_exchange.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace grains {

std::vector<std::pair<int, std::vector<Body>>> exchangeBodies(
    MPI_Comm comm, const std::map<int, std::vector<Body>>& outgoing, int tag,
    ExchangeVolume* volume) {
  int self = 0;
  MPI_Comm_rank(comm, &self);
  std::vector<std::pair<int, std::vector<Body>>> received;
  std::vector<MPI_Request> sends;
  for (const auto& [dest, bodies] : outgoing) {
    if (bodies.empty()) continue;
    if (dest == self) {
      received.emplace_back(dest, bodies);
      continue;
    }
    const auto bytes = bodies.size() * sizeof(Body);
    if (bytes > static_cast<std::size_t>(std::numeric_limits<int>::max()))
      throw std::runtime_error("exchangeBodies: message to one rank exceeds 2 GiB");
    sends.emplace_back();
    // Synchronous sends: completion means the receiver has matched them.
    MPI_Issend(bodies.data(), static_cast<int>(bytes), MPI_BYTE, dest, tag, comm, &sends.back());
    if (volume != nullptr) {
      volume->bytes_sent += static_cast<long>(bytes);
      ++volume->messages_sent;
    }
  }

  MPI_Request barrier = MPI_REQUEST_NULL;
  bool barrier_started = false;
  for (;;) {
    int arrived = 0;
    MPI_Status status;
    MPI_Iprobe(MPI_ANY_SOURCE, tag, comm, &arrived, &status);
    if (arrived) {
      int bytes = 0;
      MPI_Get_count(&status, MPI_BYTE, &bytes);
      std::vector<Body> bodies(static_cast<std::size_t>(bytes) / sizeof(Body));
      MPI_Recv(bodies.data(), bytes, MPI_BYTE, status.MPI_SOURCE, tag, comm, MPI_STATUS_IGNORE);
      received.emplace_back(status.MPI_SOURCE, std::move(bodies));
    }
    int done = 0;
    if (!barrier_started) {
      MPI_Testall(static_cast<int>(sends.size()), sends.data(), &done, MPI_STATUSES_IGNORE);
      if (done) {
        MPI_Ibarrier(comm, &barrier);
        barrier_started = true;
      }
    } else {
      MPI_Test(&barrier, &done, MPI_STATUS_IGNORE);
      if (done) break;
    }
  }
  std::stable_sort(received.begin(), received.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  return received;
}

}  // namespace grains
