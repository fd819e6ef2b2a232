#pragma once
// Internal helpers of the I/O layer: make a failure seen by one rank an
// exception on every rank, so collective output calls never deadlock.
#include <mpi.h>

#include <string>

namespace grains::io_detail {

/// Collective. `local_error` empty means this rank succeeded. If any rank
/// failed, every rank throws std::runtime_error carrying the message of the
/// lowest failing rank.
void throwIfAnyFailed(const std::string& local_error, MPI_Comm comm);

/// Collective. Replaces `text` on every rank by its value on `root`.
void broadcastString(std::string& text, int root, MPI_Comm comm);

/// Writes `content` to `path + ".tmp"` and renames it onto `path`, so readers
/// never see a half-written file. Throws std::runtime_error on failure.
void writeFileAtomically(const std::string& path, const std::string& content);

int commRank(MPI_Comm comm);
int commSize(MPI_Comm comm);

}  // namespace grains::io_detail
