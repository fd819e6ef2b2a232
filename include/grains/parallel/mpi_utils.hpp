#pragma once
// Thin helpers over the raw MPI communicator behind a Teuchos::Comm.
#include "grains/linalg/tpetra_types.hpp"

#include <mpi.h>

#include <string>

namespace grains {

/// The MPI communicator of a Teuchos::MpiComm (throws for a serial comm).
MPI_Comm rawMpiComm(const Comm& comm);

double globalSum(const Comm& comm, double value);
long globalSum(const Comm& comm, long value);
double globalMax(const Comm& comm, double value);
double globalMin(const Comm& comm, double value);
long globalMax(const Comm& comm, long value);
long globalMin(const Comm& comm, long value);

/// Collective: the lowest rank where `flag` is true, or -1 if it is nowhere.
int lowestRankWhere(const Comm& comm, bool flag);
/// Collective: `text` of rank `root`, on every rank.
std::string broadcastString(const Comm& comm, int root, const std::string& text);

}  // namespace grains
