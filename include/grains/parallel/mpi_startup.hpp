#pragma once
// What a process started without an MPI launcher asks of Open MPI before
// MPI_Init. Such a "singleton" (`grains` run directly, `grains validate`, a
// test binary) waits about 0.2 s in MPI_Init with Open MPI's defaults while
// its cm layer probes for high-speed networks, which one process never
// uses. Under mpirun, srun or any PMI launcher nothing is changed, so the
// transports of a multi-process job are the site's.
#include <string>
#include <utility>
#include <vector>

namespace grains {

/// The Open MPI parameters (environment variables) a singleton should set,
/// given the environment as NAME=VALUE entries: none when a launcher's
/// variables are present (OMPI_COMM_WORLD_*, PMIX_*, PMI_*), and none that
/// the user has set already.
std::vector<std::pair<std::string, std::string>> quickSingletonSettings(
    const std::vector<std::string>& environment);

/// Applies quickSingletonSettings to this process's environment; call before
/// MPI_Init (Tpetra::ScopeGuard).
void preferQuickSingletonStartup();

}  // namespace grains
