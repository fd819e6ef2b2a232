// The per-phase timing of a run: what each phase collects from a step, the
// "other" remainder, and the table and CSV written at the end.
#include "grains/app/phase_times.hpp"

#include <gtest/gtest.h>

#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace grains {
namespace {

TEST(PhaseTimes, StepsAndOutputFillTheirPhasesAndTheRestIsOther) {
  PhaseTimes t;
  StepReport r;
  r.time_domain = 1.0;
  r.time_detect = 0.5;
  r.time_broad = 0.2;
  r.time_assemble = 0.25;
  r.time_solve = 4.0;
  r.time_relcp = 0.125;
  r.time_update = 0.375;
  t.addStep(r);
  t.addStep(r);
  t.addOutput(0.5);
  const auto phases = t.phases(20.0);
  const std::vector<std::pair<std::string, double>> expected = {
      {"neighbour search", 0.4}, {"narrow phase", 0.6}, {"assembly", 0.5},      {"solve", 8.0},
      {"relcp search", 0.25},    {"update", 0.75},      {"communication", 2.0}, {"output", 0.5},
      {"other", 20.0 - 13.0}};
  ASSERT_EQ(phases.size(), expected.size());
  for (std::size_t i = 0; i < phases.size(); ++i) {
    EXPECT_EQ(phases[i].first, expected[i].first);
    EXPECT_NEAR(phases[i].second, expected[i].second, 1e-12) << phases[i].first;
  }
  // A loop shorter than the phases (clock jitter) leaves no negative remainder.
  EXPECT_EQ(t.phases(1.0).back().second, 0.0);
}

TEST(PhaseTimes, TableAndCsvCarryMinMeanMaxAndTheShareOfWallTime) {
  const std::vector<PhaseTiming> rows = {{"solve", 7.0, 8.0, 9.0}, {"output", 0.5, 1.0, 1.5}};
  const std::string table = formatTimingTable(rows, 10.0, 2);
  EXPECT_NE(table.find("timing over 2 rank(s), 10.000 s wall"), std::string::npos) << table;
  EXPECT_NE(table.find("solve                   7.0000      8.0000      9.0000   80.0%"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find("output                  0.5000      1.0000      1.5000   10.0%"),
            std::string::npos)
      << table;
  const auto path = std::filesystem::temp_directory_path() /
                    ("grains_timing_" + std::to_string(::getpid()) + ".csv");
  writeTimingCsv(path.string(), rows, 10.0);
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_EQ(text.str(),
            "phase,min_s,mean_s,max_s,percent_of_wall\nsolve,7,8,9,80\noutput,0.5,1,1.5,10\n"
            "total wall,10,10,10,100\n");
  std::filesystem::remove(path);
  EXPECT_THROW(writeTimingCsv("/nonexistent-dir/timing.csv", rows, 10.0), std::runtime_error);
}

}  // namespace
}  // namespace grains
