// The executable's log levels: -q leaves only warnings and errors, -v adds
// per-step phase lines, and every run writes its timing table.
#include "grains_process.hpp"

#include <gtest/gtest.h>

#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace {

namespace fs = std::filesystem;
using grains_test::runGrainsProcess;

class GrainsCliLog : public grains_test::TempDirTest {
 protected:
  void SetUp() override {
    TempDirTest::SetUp();
    write("pile.yaml", R"(simulation: {dt: 0.005, steps: 4}
bodies:
  radius: 0.1
  mass: 1.0
  generator: {type: lattice, count: 8, spacing: 0.2,
              region: {type: box, min: [0, 0, 0], max: [0.4, 0.4, 0.4]}}
walls: [{type: plane, point: [0, 0, 0], normal: [0, 0, 1]}]
output: {log_every: 2}
)");
  }
  std::string run(const std::string& flags) {
    const auto r = runGrainsProcess("run " + (dir_ / "pile.yaml").string() + " --output " +
                                    (dir_ / "out").string() + " --overwrite " + flags);
    EXPECT_EQ(r.status, 0) << r.output;
    return r.output;
  }
};

TEST_F(GrainsCliLog, DefaultShowsProgressEveryNStepsAndTheTimingTable) {
  const std::string log = run("");
  EXPECT_NE(log.find("step 2/4"), std::string::npos) << log;
  EXPECT_NE(log.find("step 4/4"), std::string::npos) << log;
  EXPECT_EQ(log.find("step 1/4"), std::string::npos) << log;
  EXPECT_NE(log.find("ETA"), std::string::npos) << log;
  EXPECT_NE(log.find("timing over 1 rank(s)"), std::string::npos) << log;
  EXPECT_EQ(log.find("debug:"), std::string::npos) << log;
  std::ifstream csv(dir_ / "out" / "timing.csv");
  std::stringstream text;
  text << csv.rdbuf();
  for (const char* phase : {"neighbour search", "narrow phase", "assembly", "solve", "relcp search",
                            "update", "communication", "output", "other"})
    EXPECT_NE(text.str().find(std::string("\n") + phase + ","), std::string::npos) << phase;
}

TEST_F(GrainsCliLog, QuietShowsNothingOnSuccessAndVerboseShowsPhases) {
  EXPECT_EQ(run("-q"), "");
  EXPECT_EQ(run("--log-level error"), "");
  const std::string verbose = run("-v");
  EXPECT_NE(verbose.find("debug: step 1 phases [s]"), std::string::npos) << verbose;
  EXPECT_NE(verbose.find("debug: step 4 phases [s]"), std::string::npos) << verbose;
  // The command line overrides the config, the last flag wins.
  EXPECT_EQ(run("--set output.log_level=debug -q").find("debug:"), std::string::npos);
  const auto bad = runGrainsProcess("run --log-level chatty");
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.output.find("--log-level = 'chatty': expected error, warn, info or debug"),
            std::string::npos)
      << bad.output;
}

}  // namespace
