#pragma once
// Runs the grains executable (GRAINS_BINARY) in a clean environment: the test
// process is an MPI singleton whose environment must not leak into the child.
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace grains_test {

struct ProcessResult {
  int status = -1;     ///< exit code; -1 if killed by a signal
  std::string output;  ///< stdout and stderr
};

/// `env` is prepended as NAME=value words (e.g. "GRAINS_FAULT_INJECTION=nan@3");
/// `launcher` (e.g. "mpirun -np 2") goes before the binary.
inline ProcessResult runGrainsProcess(const std::string& args, const std::string& env = "",
                                      const std::string& launcher = "") {
  // Sanitizer settings (scripts/sanitize.sh) reach the child, nothing else.
  std::string sanitizers;
  for (const char* name : {"ASAN_OPTIONS", "LSAN_OPTIONS", "UBSAN_OPTIONS"})
    if (const char* value = std::getenv(name))
      sanitizers += std::string(name) + "='" + value + "' ";
  const std::string command =
      "env -i PATH=/usr/bin:/bin HOME=/tmp OMPI_ALLOW_RUN_AS_ROOT=1 "
      "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1 OMP_NUM_THREADS=1 " +
      sanitizers + env + " " + launcher + " " + std::string(GRAINS_BINARY) + " " + args + " 2>&1";
  ProcessResult r;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return r;
  std::array<char, 4096> buffer{};
  while (fgets(buffer.data(), buffer.size(), pipe) != nullptr) r.output += buffer.data();
  const int raw = pclose(pipe);
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  return r;
}

}  // namespace grains_test
