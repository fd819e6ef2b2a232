#pragma once
// Sparse personalised exchange (the NBX algorithm of Hoefler, Siebert and
// Lumsdaine, PPoPP 2010): each rank sends to the few ranks it has data for and
// learns who sends to it without any O(nranks) array or all-to-all, so the
// cost per rank depends on its neighbours only, not on the rank count.
#include <mpi.h>

#include <algorithm>
#include <limits>
#include <map>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

namespace grains {

struct ExchangeVolume {
  long bytes_sent = 0;
  long messages_sent = 0;
};

/// Collective over `comm`: sends outgoing[rank] to each rank (empty lists are
/// not sent; a list for this rank is delivered locally) and returns what
/// arrived, ordered by source rank. Records travel as raw bytes (T holds no
/// pointers). `tag` must not be used by any other exchange in flight on
/// `comm` (callers alternate two tags).
template <typename T>
std::vector<std::pair<int, std::vector<T>>> exchangeRecords(
    MPI_Comm comm, const std::map<int, std::vector<T>>& outgoing, int tag,
    ExchangeVolume* volume = nullptr) {
  static_assert(!std::is_pointer<T>::value, "records are sent as raw bytes");
  int self = 0;
  MPI_Comm_rank(comm, &self);
  std::vector<std::pair<int, std::vector<T>>> received;
  std::vector<MPI_Request> sends;
  for (const auto& [dest, records] : outgoing) {
    if (records.empty()) continue;
    if (dest == self) {
      received.emplace_back(dest, records);
      continue;
    }
    const auto bytes = records.size() * sizeof(T);
    if (bytes > static_cast<std::size_t>(std::numeric_limits<int>::max()))
      throw std::runtime_error("exchangeRecords: message to one rank exceeds 2 GiB");
    sends.emplace_back();
    // Synchronous sends: completion means the receiver has matched them.
    MPI_Issend(records.data(), static_cast<int>(bytes), MPI_BYTE, dest, tag, comm, &sends.back());
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
      std::vector<T> records(static_cast<std::size_t>(bytes) / sizeof(T));
      MPI_Recv(records.data(), bytes, MPI_BYTE, status.MPI_SOURCE, tag, comm, MPI_STATUS_IGNORE);
      received.emplace_back(status.MPI_SOURCE, std::move(records));
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
