#pragma once
// Preparing the run's output directory before anything is written into it.
#include <mpi.h>

#include <string>

namespace grains {

/// Collective over `comm`. Rank 0 creates `dir` (and its parents) if missing.
/// If `dir` exists and is not empty:
///   - without `overwrite`, every rank throws std::runtime_error
///     ("output directory 'dir' already exists and is not empty; pass
///     --overwrite to replace its contents");
///   - with `overwrite`, only grains' own outputs are removed: the `vtk/`
///     subfolder, `metrics.csv`, top-level `*.pvd` files and their `*.pvd.tmp`
///     leftovers. Every other file or folder is kept.
/// Any filesystem error on rank 0 (path is a regular file, permission denied,
/// ...) is thrown as std::runtime_error on every rank.
void prepareOutputDirectory(const std::string& dir, bool overwrite, MPI_Comm comm);

/// Collective over `comm`: as prepareOutputDirectory, but an existing
/// directory is used as it is (a restart continuing the outputs there).
void continueOutputDirectory(const std::string& dir, MPI_Comm comm);

/// True for the names prepareOutputDirectory(..., overwrite=true) removes from
/// the top level of the output directory.
bool isGrainsOutputName(const std::string& file_name);

}  // namespace grains
