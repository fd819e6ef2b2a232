#pragma once
// Runs the grains executable (GRAINS_BINARY) in a clean environment: the test
// process is an MPI singleton whose environment must not leak into the child.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
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
  for (const char* name : {"ASAN_OPTIONS", "UBSAN_OPTIONS"})
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

/// A fresh directory per test (named after the process and the test),
/// removed afterwards, with helpers to write and read files in it.
class TempDirTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("grains_test_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  /// Writes `text` to dir_/name and returns its path.
  std::string write(const std::string& name, const std::string& text) const {
    const std::filesystem::path p = dir_ / name;
    std::ofstream(p) << text;
    return p.string();
  }
  static std::string read(const std::filesystem::path& p) {
    std::ifstream in(p);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }

  std::filesystem::path dir_;
};

}  // namespace grains_test
