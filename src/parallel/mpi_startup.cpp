#include "grains/parallel/mpi_startup.hpp"

#include "grains/core/text.hpp"

#include <cstdlib>

extern char** environ;

namespace grains {
namespace {

// Set by mpirun (Open MPI), by PMIx launchers (srun --mpi=pmix, prterun)
// and by PMI-1/2 launchers (MPICH's hydra, srun --mpi=pmi2).
bool launchedByMpi(const std::vector<std::string>& environment) {
  for (const std::string& entry : environment)
    if (startsWith(entry, "OMPI_COMM_WORLD_") || startsWith(entry, "PMIX_") ||
        startsWith(entry, "PMI_"))
      return true;
  return false;
}

bool isSet(const std::vector<std::string>& environment, const std::string& name) {
  const std::string assignment = name + "=";
  for (const std::string& entry : environment)
    if (startsWith(entry, assignment)) return true;
  return false;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> quickSingletonSettings(
    const std::vector<std::string>& environment) {
  // The ob1 point-to-point layer: with nothing set Open MPI also opens its
  // cm layer, which probes for libfabric, PSM and PSM2 networks and waits
  // for them, and a lone process never sends. (Not ess_singleton_isolated,
  // which would save the singleton server's 0.1 s as well: isolated
  // singletons all take job 0/1 and share one session directory, and
  // concurrent ones remove it under each other.)
  if (launchedByMpi(environment) || isSet(environment, "OMPI_MCA_pml")) return {};
  return {{"OMPI_MCA_pml", "ob1"}};
}

void preferQuickSingletonStartup() {
  std::vector<std::string> environment;
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry)
    environment.emplace_back(*entry);
  for (const auto& [name, value] : quickSingletonSettings(environment))
    setenv(name.c_str(), value.c_str(), /*overwrite=*/0);
}

}  // namespace grains
