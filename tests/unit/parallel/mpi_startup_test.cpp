// What a process started without an MPI launcher asks of Open MPI.
#include "grains/parallel/mpi_startup.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

namespace grains {
namespace {

std::vector<std::string> names(const std::vector<std::pair<std::string, std::string>>& settings) {
  std::vector<std::string> out;
  for (const auto& entry : settings) out.push_back(entry.first + "=" + entry.second);
  return out;
}

TEST(MpiStartup, ASingletonTakesOb1) {
  const std::vector<std::string> plain = {"HOME=/root", "PATH=/usr/bin", "SLURM_JOB_ID=7"};
  EXPECT_EQ(names(quickSingletonSettings(plain)), std::vector<std::string>{"OMPI_MCA_pml=ob1"});
}

TEST(MpiStartup, ALaunchedProcessKeepsTheSitesTransports) {
  for (const char* launcher : {"OMPI_COMM_WORLD_SIZE=4", "PMIX_RANK=0", "PMI_RANK=1", "PMI_FD=5"})
    EXPECT_TRUE(quickSingletonSettings({"HOME=/root", launcher}).empty()) << launcher;
}

TEST(MpiStartup, WhatTheUserSetIsKept) {
  EXPECT_TRUE(quickSingletonSettings({"HOME=/root", "OMPI_MCA_pml=ucx"}).empty());
  // A longer name that begins with it is another parameter.
  EXPECT_EQ(names(quickSingletonSettings({"OMPI_MCA_pml_ucx_verbose=1"})),
            std::vector<std::string>{"OMPI_MCA_pml=ob1"});
}

TEST(MpiStartup, ThisTestBinaryStartedAsASingletonAppliedIt) {
  // tests/test_main.cpp calls preferQuickSingletonStartup before MPI_Init;
  // CTest starts this binary without a launcher. (After MPI_Init a
  // singleton has PMIX_RANK too: only mpirun's variable tells them apart.)
  if (std::getenv("OMPI_COMM_WORLD_SIZE")) GTEST_SKIP() << "started by mpirun";
  EXPECT_NE(std::getenv("OMPI_MCA_pml"), nullptr);
}

}  // namespace
}  // namespace grains
