#pragma once
// Ranks x threads beyond the cores of a node make every step wait for
// descheduled threads (and MPI's busy-polling ranks compete with them): the
// run says so once at the start instead of just being slow (docs/running.md).
#include "grains/linalg/tpetra_types.hpp"

#include <string>

namespace grains {

/// Collective: "" when on every node the ranks there times `threads` fit in
/// `cores`; otherwise, for the node that exceeds them most, "R ranks x T
/// threads = N on a node with C cores ...". `cores` < 1 means unknown (no
/// warning).
std::string oversubscriptionWarning(const Comm& comm, int threads, int cores);

/// The same with this process's OpenMP thread count and the node's online
/// processors.
std::string oversubscriptionWarning(const Comm& comm);

}  // namespace grains
