// Run under mpirun with 1, 2 and 3 ranks: the timing table reduces each
// phase over ranks exactly, and a real run's phases account for its loop time.
#include "grains/app/phase_times.hpp"
#include "grains/app/simulation.hpp"
#include "grains/config/config_loader.hpp"
#include "grains/parallel/mpi_utils.hpp"

#include <gtest/gtest.h>
#include <unistd.h>
#include <Tpetra_Core.hpp>

#include <filesystem>
#include <fstream>
#include <string>

namespace grains {
namespace {

TEST(PhaseTimesMpi, MinMeanMaxOverRanks) {
  auto comm = Tpetra::getDefaultComm();
  const int p = comm->getSize();
  const double r = comm->getRank();
  const auto rows = reducePhaseTimes(*comm, {{"a", 1.0 + r}, {"b", 10.0 - 2.0 * r}});
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].phase, "a");
  EXPECT_DOUBLE_EQ(rows[0].min, 1.0);
  EXPECT_DOUBLE_EQ(rows[0].max, static_cast<double>(p));
  EXPECT_DOUBLE_EQ(rows[0].mean, 1.0 + (p - 1) / 2.0);
  EXPECT_DOUBLE_EQ(rows[1].min, 10.0 - 2.0 * (p - 1));
  EXPECT_DOUBLE_EQ(rows[1].max, 10.0);
}

TEST(PhaseTimesMpi, ARunsPhasesAddUpToItsLoopTime) {
  auto comm = Tpetra::getDefaultComm();
  long id = static_cast<long>(::getpid());
  MPI_Bcast(&id, 1, MPI_LONG, 0, rawMpiComm(*comm));
  const std::string out =
      (std::filesystem::temp_directory_path() / ("grains_phases_" + std::to_string(id))).string();
  SimulationConfig config = loadConfigString(
      R"(simulation: {dt: 0.005, steps: 30}
bodies:
  radius: 0.1
  mass: 1.0
  generator: {type: lattice, count: 64, spacing: 0.2,
              region: {type: box, min: [0, 0, 0], max: [0.8, 0.8, 0.8]}}
walls: [{type: plane, point: [0, 0, 0], normal: [0, 0, 1]}]
solver: {name: apgd, tolerance: 1.0e-8}
output: {log_every: 0, vtk_every: 10}
)",
      "<pile>", ".", {});
  RunOptions options;
  options.output_dir = out;
  options.overwrite = true;
  const RunSummary summary = runSimulation(config, options, comm);
  ASSERT_EQ(summary.timing.size(), 9u);
  double sum_of_means = 0.0;
  for (const PhaseTiming& t : summary.timing) {
    EXPECT_LE(0.0, t.min) << t.phase;
    EXPECT_LE(t.min, t.mean * (1 + 1e-12)) << t.phase;
    EXPECT_LE(t.mean, t.max * (1 + 1e-12)) << t.phase;
    sum_of_means += t.mean;
  }
  // Every rank's phases plus "other" are its loop time; the table's wall is
  // the slowest rank's.
  EXPECT_LE(sum_of_means, summary.loop_seconds * (1 + 1e-9));
  EXPECT_GE(sum_of_means, 0.5 * summary.loop_seconds);
  EXPECT_GT(summary.timing[3].mean, 0.0);  // solve
  EXPECT_GT(summary.timing[7].mean, 0.0);  // output (VTK frames)
  if (comm->getRank() == 0) {
    std::ifstream csv(out + "/timing.csv");
    std::string line;
    int lines = 0;
    while (std::getline(csv, line)) ++lines;
    EXPECT_EQ(lines, 11);  // header, 9 phases, total
    std::filesystem::remove_all(out);
  }
  comm->barrier();
}

}  // namespace
}  // namespace grains
