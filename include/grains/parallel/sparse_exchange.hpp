#pragma once
// Sparse personalised exchange (the NBX algorithm of Hoefler, Siebert and
// Lumsdaine, PPoPP 2010): each rank sends to the few ranks it has data for and
// learns who sends to it without any O(nranks) array or all-to-all, so the
// cost per rank depends on its neighbours only, not on the rank count.
#include "grains/core/body.hpp"

#include <mpi.h>

#include <map>
#include <vector>

namespace grains {

struct ExchangeVolume {
  long bytes_sent = 0;
  long messages_sent = 0;
};

/// Collective over `comm`: sends outgoing[rank] to each rank (empty lists are
/// not sent; a list for this rank is delivered locally) and returns what
/// arrived, ordered by source rank. `tag` must not be used by any other
/// exchange in flight on `comm` (callers alternate two tags).
std::vector<std::pair<int, std::vector<Body>>> exchangeBodies(
    MPI_Comm comm, const std::map<int, std::vector<Body>>& outgoing, int tag,
    ExchangeVolume* volume = nullptr);

}  // namespace grains
