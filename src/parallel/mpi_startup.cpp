#include "grains/parallel/mpi_startup.hpp"

#include <cstdlib>

extern char** environ;

namespace grains {
namespace {

bool startsWith(const std::string& text, const char* prefix) { return text.rfind(prefix, 0) == 0; }

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
  for (const std::string& entry : environment)
    if (startsWith(entry, (name + "=").c_str())) return true;
  return false;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> quickSingletonSettings(
    const std::vector<std::string>& environment) {
  std::vector<std::pair<std::string, std::string>> out;
  if (launchedByMpi(environment)) return out;
  // The ob1 point-to-point layer: with nothing set Open MPI also opens its
  // cm layer, which probes for libfabric, PSM and PSM2 networks and waits
  // for them, and a lone process never sends. (Not ess_singleton_isolated,
  // which would save the singleton server's 0.1 s as well: isolated
  // singletons all take job 0/1 and share one session directory, and
  // concurrent ones remove it under each other.)
  const std::pair<const char*, const char*> wanted[] = {{"OMPI_MCA_pml", "ob1"}};
  for (const auto& [name, value] : wanted)
    if (!isSet(environment, name)) out.emplace_back(name, value);
  return out;
}

void preferQuickSingletonStartup() {
  std::vector<std::string> environment;
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry)
    environment.emplace_back(*entry);
  for (const auto& [name, value] : quickSingletonSettings(environment))
    setenv(name.c_str(), value.c_str(), /*overwrite=*/0);
}

}  // namespace grains
