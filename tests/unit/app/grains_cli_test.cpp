// End-to-end checks of the `grains` executable: outputs of a short run, and
// bad input rejected with a clear message, exit status 2 and nothing written.
#include "grains_process.hpp"

#include <gtest/gtest.h>

#include <unistd.h>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace {

namespace fs = std::filesystem;

using Result = grains_test::ProcessResult;

Result runGrains(const std::string& args) { return grains_test::runGrainsProcess(args); }

class GrainsCli : public grains_test::TempDirTest {
 protected:
};

const char* kSmallPile = R"(simulation: {dt: 0.005, steps: 6}
bodies:
  radius: 0.1
  mass: 1.0
  generator: {type: lattice, count: 8, spacing: 0.25,
              region: {type: box, min: [0, 0, 0], max: [0.5, 0.5, 0.5]}}
walls: [{type: plane, point: [0, 0, 0], normal: [0, 0, 1]}]
solver: {name: bbpgd, tolerance: 1.0e-8, max_iterations: 500}
output: {vtk_every: 3, log_every: 0}
)";

TEST_F(GrainsCli, VersionAndHelp) {
  const auto v = runGrains("--version");
  EXPECT_EQ(v.status, 0);
  EXPECT_NE(v.output.find("grains " GRAINS_VERSION), std::string::npos);
  const auto h = runGrains("--help");
  EXPECT_EQ(h.status, 0);
  EXPECT_NE(h.output.find("grains validate CONFIG"), std::string::npos);
  // Only grains' usage: Kokkos does not see the command line.
  EXPECT_EQ(h.output.find("Kokkos"), std::string::npos) << h.output;
  const auto bad = runGrains("run --bogus");
  EXPECT_EQ(bad.status, 2);
  const auto hint = bad.output.find("(see grains --help)");
  ASSERT_NE(hint, std::string::npos) << bad.output;
  EXPECT_EQ(bad.output.find("(see grains --help)", hint + 1), std::string::npos) << bad.output;
}

TEST_F(GrainsCli, RunWritesSeriesAndMetricsAndRefusesToClobber) {
  const std::string cfg = write("pile.yaml", kSmallPile);
  const fs::path out = dir_ / "out";
  const auto r = runGrains("run " + cfg + " --output " + out.string());
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_TRUE(fs::exists(out / "bodies.pvd"));
  EXPECT_TRUE(fs::exists(out / "config_used.yaml"));
  for (const char* f : {"vtk/bodies_000000.pvtp", "vtk/bodies_000003.pvtp",
                        "vtk/bodies_000006.pvtp", "vtk/bodies_000006_r0.vtp"})
    EXPECT_TRUE(fs::exists(out / f)) << f;
  const std::string pvd = read(out / "bodies.pvd");
  EXPECT_NE(pvd.find("timestep=\"0.03\""), std::string::npos) << pvd;  // step 6 * 0.005 s
  const std::string metrics = read(out / "metrics.csv");
  EXPECT_EQ(metrics.rfind("step,time,bodies,contacts,solver,iterations,residual,objective,"
                          "converged,max_overlap,kinetic_energy,wall_s",
                          0),
            0u);
  EXPECT_EQ(std::count(metrics.begin(), metrics.end(), '\n'), 7);  // header + 6 steps

  // A second run into the same directory must not destroy the first one.
  const auto again = runGrains("run " + cfg + " --output " + out.string());
  EXPECT_EQ(again.status, 2);
  EXPECT_NE(again.output.find("--overwrite"), std::string::npos) << again.output;
  EXPECT_EQ(read(out / "metrics.csv"), metrics);
  const auto forced =
      runGrains("run " + cfg + " --output " + out.string() + " --overwrite --steps 2");
  EXPECT_EQ(forced.status, 0) << forced.output;
  EXPECT_FALSE(fs::exists(out / "vtk/bodies_000003.pvtp"));
}

TEST_F(GrainsCli, StepsAndSetOverrideTheConfig) {
  const std::string cfg = write("pile.yaml", kSmallPile);
  const fs::path out = dir_ / "out";
  const auto r = runGrains("run " + cfg + " --output " + out.string() +
                           " --steps 2 --set solver.name=apgd --set output.vtk_every=0");
  ASSERT_EQ(r.status, 0) << r.output;
  const std::string metrics = read(out / "metrics.csv");
  EXPECT_EQ(std::count(metrics.begin(), metrics.end(), '\n'), 3);
  EXPECT_NE(metrics.find(",apgd,"), std::string::npos);
  EXPECT_FALSE(fs::exists(out / "bodies.pvd"));
}

// The colony scenario stops at 2^k cells (growth.max_generations): with
// g = 1, dt = 0.01 the third doubling completes at step ceil(3 ln 2 / dt).
TEST_F(GrainsCli, ColonyStopsAtTheRequestedGeneration) {
  const std::string cfg = std::string(GRAINS_SOURCE_DIR) + "/config/colony.yaml";
  const fs::path out = dir_ / "colony";
  const auto r = runGrains("run " + cfg + " --output " + out.string() +
                           " --set growth.max_generations=3 --set output.vtk_every=0");
  ASSERT_EQ(r.status, 0) << r.output;
  std::ifstream in(out / "metrics.csv");
  std::string header, line, last;
  std::getline(in, header);
  long rows = 0;
  while (std::getline(in, line)) {
    last = line;
    ++rows;
  }
  EXPECT_EQ(rows, static_cast<long>(std::ceil(3.0 * std::log(2.0) / 0.01)));
  // bodies is the third column (step, time, bodies, ...).
  std::stringstream fields(last);
  std::string step, time, bodies;
  std::getline(fields, step, ',');
  std::getline(fields, time, ',');
  std::getline(fields, bodies, ',');
  EXPECT_EQ(bodies, "8");
}

struct BadInput {
  const char* name;
  std::string yaml;
  const char* expected;  ///< must appear in the message
};

// Checkpoints every 3 steps (and at the end); a restart from the first one
// runs the remaining steps; unusable restarts are bad input (exit 2).
TEST_F(GrainsCli, CheckpointAndRestart) {
  const std::string cfg = write("pile.yaml", kSmallPile);
  const fs::path out = dir_ / "out";
  const auto r = runGrains("run " + cfg + " --output " + out.string() +
                           " --set output.checkpoint_every=4 --set output.vtk_every=0");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_TRUE(fs::exists(out / "checkpoint_00000004.h5"));
  EXPECT_TRUE(fs::exists(out / "checkpoint_00000006.h5"));  // the last step

  const fs::path resumed = dir_ / "resumed";
  const auto again =
      runGrains("run " + cfg + " --output " + resumed.string() +
                " --set output.vtk_every=0 --restart " + (out / "checkpoint_00000004.h5").string());
  ASSERT_EQ(again.status, 0) << again.output;
  EXPECT_NE(again.output.find("restarting after step 4"), std::string::npos) << again.output;
  const std::string metrics = read(resumed / "metrics.csv");
  EXPECT_EQ(std::count(metrics.begin(), metrics.end(), '\n'), 3);  // header + steps 5, 6
  EXPECT_EQ(metrics.find("\n5,"), metrics.find('\n'));

  // Restarting into the run's own directory continues its outputs: the
  // recomputed steps replace their metrics rows.
  const std::string before = read(out / "metrics.csv");
  const auto in_place =
      runGrains("run " + cfg + " --output " + out.string() +
                " --set output.vtk_every=0 --restart " + (out / "checkpoint_00000004.h5").string());
  ASSERT_EQ(in_place.status, 0) << in_place.output;
  const std::string after = read(out / "metrics.csv");
  EXPECT_EQ(std::count(after.begin(), after.end(), '\n'), 7);  // header + steps 1..6
  EXPECT_EQ(after.substr(0, after.find("\n5,")), before.substr(0, before.find("\n5,")));

  const auto missing = runGrains("run " + cfg + " --output " + (dir_ / "x").string() +
                                 " --restart " + (dir_ / "none.h5").string());
  EXPECT_EQ(missing.status, 2);
  EXPECT_NE(missing.output.find("none.h5' does not exist"), std::string::npos) << missing.output;
  EXPECT_FALSE(fs::exists(dir_ / "x"));
  // A directory means its newest checkpoint: step 6 of 6, nothing left to run.
  const auto done =
      runGrains("run " + cfg + " --output " + (dir_ / "y").string() + " --restart " + out.string());
  EXPECT_EQ(done.status, 2);
  EXPECT_NE(done.output.find("checkpoint is at step 6"), std::string::npos) << done.output;
}

TEST_F(GrainsCli, BadInputIsRejectedWithExitTwoAndNothingWritten) {
  const std::string base(kSmallPile);
  auto replace = [&](const std::string& from, const std::string& to) {
    std::string s = base;
    s.replace(s.find(from), from.size(), to);
    return s;
  };
  const std::string csv = write("overlap.csv", "x,y,z\n0,0,0.5\n0.15,0,0.5\n");
  const std::vector<BadInput> cases = {
      {"malformed", "simulation: {dt: 0.005, steps: [\n", "malformed YAML"},
      {"unknown_key", replace("mass: 1.0", "mass: 1.0\n  colour: red"), "bodies.colour"},
      {"negative_radius", replace("radius: 0.1", "radius: -0.1"), "bodies.radius"},
      {"zero_dt", replace("dt: 0.005", "dt: 0"), "simulation.dt"},
      {"unknown_solver", replace("name: bbpgd", "name: magic"), "magic"},
      {"overlapping_bodies",
       replace("generator: {type: lattice, count: 8, spacing: 0.25,\n              region: "
               "{type: box, min: [0, 0, 0], max: [0.5, 0.5, 0.5]}}",
               "generator: {type: file, file: " + csv + "}"),
       "overlap"},
  };
  for (const auto& c : cases) {
    const std::string cfg = write(std::string(c.name) + ".yaml", c.yaml);
    const fs::path out = dir_ / (std::string("out_") + c.name);
    const auto r = runGrains("run " + cfg + " --output " + out.string());
    EXPECT_EQ(r.status, 2) << c.name << ": " << r.output;
    EXPECT_NE(r.output.find(c.expected), std::string::npos) << c.name << ": " << r.output;
    EXPECT_EQ(r.output.find("terminate"), std::string::npos) << c.name << ": " << r.output;
    EXPECT_FALSE(fs::exists(out)) << c.name << ": output written for bad input";
    const auto v = runGrains("validate " + cfg);
    EXPECT_EQ(v.status, 2) << c.name;
  }
  const auto missing = runGrains("run " + (dir_ / "nope.yaml").string());
  EXPECT_EQ(missing.status, 2);
  EXPECT_NE(missing.output.find("nope.yaml"), std::string::npos);
  const auto usage = runGrains("run --steps many");
  EXPECT_EQ(usage.status, 2);
}

}  // namespace
