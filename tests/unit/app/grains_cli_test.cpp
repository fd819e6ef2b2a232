// End-to-end checks of the `grains` executable: outputs of a short run, and
// bad input rejected with a clear message, exit status 2 and nothing written.
#include "grains/io/checkpoint.hpp"

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

// With every output on, a restart into a new directory starts the series and
// metrics there at the checkpoint's step; into the run's own directory it
// continues them.
TEST_F(GrainsCli, RestartWithVtkIntoANewAndIntoTheSameDirectory) {
  const std::string cfg = write("pile.yaml", kSmallPile);
  const fs::path out = dir_ / "out";
  const std::string outputs = " --set output.checkpoint_every=4 --set output.contact_network=true";
  const auto r = runGrains("run " + cfg + " --output " + out.string() + outputs);
  ASSERT_EQ(r.status, 0) << r.output;
  const std::string checkpoint = (out / "checkpoint_00000004.h5").string();

  const fs::path fresh = dir_ / "fresh";
  const auto again = runGrains("run " + cfg + " --output " + fresh.string() + outputs +
                               " --restart " + checkpoint);
  ASSERT_EQ(again.status, 0) << again.output;
  const std::string metrics = read(fresh / "metrics.csv");
  EXPECT_EQ(metrics.rfind("step,time,", 0), 0u) << metrics;
  EXPECT_EQ(std::count(metrics.begin(), metrics.end(), '\n'), 3);  // header + steps 5, 6
  EXPECT_EQ(metrics.find("\n5,"), metrics.find('\n'));
  for (const char* series : {"bodies.pvd", "contacts.pvd"}) {
    const std::string pvd = read(fresh / series);
    // Five lines of XML around two entries: the restart step (4, t = 0.02 s)
    // and the last step (6, t = 0.03 s).
    EXPECT_EQ(std::count(pvd.begin(), pvd.end(), '\n'), 7) << series << pvd;
    EXPECT_NE(pvd.find("timestep=\"0.02\""), std::string::npos) << series << pvd;
    EXPECT_NE(pvd.find("timestep=\"0.03\""), std::string::npos) << series << pvd;
    EXPECT_EQ(pvd.find("timestep=\"0\""), std::string::npos) << series << pvd;
  }
  EXPECT_TRUE(fs::exists(fresh / "vtk/bodies_000004.pvtp"));
  EXPECT_FALSE(fs::exists(fresh / "vtk/bodies_000003.pvtp"));

  // Into its own directory: the series keeps steps 0 and 3 and rewrites 4 on
  // (the restart's own frame at step 4, then 6).
  const std::string pvd_before = read(out / "bodies.pvd");
  const auto in_place =
      runGrains("run " + cfg + " --output " + out.string() + outputs + " --restart " + checkpoint);
  ASSERT_EQ(in_place.status, 0) << in_place.output;
  const std::string pvd_after = read(out / "bodies.pvd");
  const auto entry = [](long step) { return "vtk/bodies_00000" + std::to_string(step) + ".pvtp"; };
  // The text up to the line of a step's entry.
  const auto upTo = [&](const std::string& pvd, long step) {
    return pvd.substr(0, pvd.rfind('\n', pvd.find(entry(step))) + 1);
  };
  EXPECT_EQ(upTo(pvd_after, 4), upTo(pvd_before, 6));
  for (long step : {0L, 3L, 4L, 6L})
    EXPECT_NE(pvd_after.find(entry(step)), std::string::npos) << step << pvd_after;
  const std::string all = read(out / "metrics.csv");
  EXPECT_EQ(std::count(all.begin(), all.end(), '\n'), 7);  // header + steps 1..6
}

// A restart whose config moves a wall into the restored bodies is refused,
// naming the body, the wall and the depth, unless --allow-penetration; the
// changed wall is listed against the checkpoint's config either way.
TEST_F(GrainsCli, RestartIntoAMovedWallIsRefusedUnlessAllowed) {
  std::string yaml = kSmallPile;
  const std::string walls = "walls: [{type: plane, point: [0, 0, 0], normal: [0, 0, 1]}]";
  yaml.replace(yaml.find(walls), walls.size(),
               "walls: [{type: plane, name: floor, point: [0, 0, 0], normal: [0, 0, 1]},\n"
               "        {type: plane, name: side, point: [0, 0, 0], normal: [1, 0, 0]}]");
  const std::string cfg = write("pile.yaml", yaml);
  const fs::path out = dir_ / "out";
  const auto r = runGrains("run " + cfg + " --output " + out.string() +
                           " --set output.checkpoint_every=4 --set output.vtk_every=0");
  ASSERT_EQ(r.status, 0) << r.output;
  const std::string restart = " --restart " + (out / "checkpoint_00000004.h5").string();

  // The same walls: no warning, no error.
  const auto same = runGrains("run " + cfg + " --output " + (dir_ / "same").string() + restart);
  ASSERT_EQ(same.status, 0) << same.output;
  EXPECT_EQ(same.output.find("differs from the checkpoint"), std::string::npos) << same.output;

  // The side wall moved 0.2 m into the pile (spheres of 0.1 m from x = 0.1 m).
  const std::string moved = " --set walls.1.point=[0.2,0,0]";
  const auto refused =
      runGrains("run " + cfg + " --output " + (dir_ / "refused").string() + moved + restart);
  EXPECT_EQ(refused.status, 2) << refused.output;
  for (const char* part :
       {"restart: body ", "penetrates wall 'side' (plane) by 0.", "tolerance",
        "--allow-penetration", "walls.1.point: checkpoint [0, 0, 0], config [0.2, 0, 0]"})
    EXPECT_NE(refused.output.find(part), std::string::npos) << part << ": " << refused.output;
  EXPECT_FALSE(fs::exists(dir_ / "refused"));

  const auto allowed = runGrains("run " + cfg + " --output " + (dir_ / "allowed").string() + moved +
                                 restart + " --allow-penetration");
  EXPECT_EQ(allowed.status, 0) << allowed.output;
  EXPECT_NE(allowed.output.find("continuing (--allow-penetration)"), std::string::npos)
      << allowed.output;
}

// A checkpoint whose bodies overlap (here: body 1 moved 0.05 m into body 0)
// is refused, naming both GIDs and the depth, unless --allow-penetration.
TEST_F(GrainsCli, RestartOfOverlappingBodiesIsRefusedUnlessAllowed) {
  const std::string cfg = write("pile.yaml", kSmallPile);
  const fs::path out = dir_ / "out";
  const auto r = runGrains("run " + cfg + " --output " + out.string() +
                           " --set output.checkpoint_every=4 --set output.vtk_every=0");
  ASSERT_EQ(r.status, 0) << r.output;
  grains::CheckpointState state =
      grains::readCheckpoint((out / "checkpoint_00000004.h5").string(), MPI_COMM_SELF);
  ASSERT_GE(state.bodies.size(), 2u);
  auto body = [&](grains::GlobalId gid) -> grains::Body& {
    return *std::find_if(state.bodies.begin(), state.bodies.end(),
                         [&](const grains::Body& b) { return b.gid == gid; });
  };
  const std::string intact = (dir_ / "intact.h5").string();
  grains::writeCheckpoint(intact, state, MPI_COMM_SELF);
  body(1).position = body(0).position + grains::Vec3(0.15, 0.0, 0.0);  // radii 0.1
  const std::string overlapping = (dir_ / "overlapping.h5").string();
  grains::writeCheckpoint(overlapping, state, MPI_COMM_SELF);

  const auto fine =
      runGrains("run " + cfg + " --output " + (dir_ / "fine").string() + " --restart " + intact);
  ASSERT_EQ(fine.status, 0) << fine.output;
  EXPECT_EQ(fine.output.find("overlap by"), std::string::npos) << fine.output;

  const auto refused = runGrains("run " + cfg + " --output " + (dir_ / "refused").string() +
                                 " --restart " + overlapping);
  EXPECT_EQ(refused.status, 2) << refused.output;
  for (const char* part :
       {"restart: bodies 0 at (", ") and 1 at (", "overlap by 0.05 m",
        "more than the tolerance of 0.005 m", "(1 pair overlaps that deep)", "--allow-penetration"})
    EXPECT_NE(refused.output.find(part), std::string::npos) << part << ": " << refused.output;
  EXPECT_FALSE(fs::exists(dir_ / "refused"));

  const auto allowed = runGrains("run " + cfg + " --output " + (dir_ / "allowed").string() +
                                 " --restart " + overlapping + " --allow-penetration");
  EXPECT_EQ(allowed.status, 0) << allowed.output;
  EXPECT_NE(allowed.output.find("overlap by 0.05 m"), std::string::npos) << allowed.output;
  EXPECT_NE(allowed.output.find("continuing (--allow-penetration)"), std::string::npos)
      << allowed.output;
}

// Absurd time steps end the run in step 1, naming the body and the cause,
// with an emergency checkpoint of the initial state, instead of running on
// with every pair of bodies in contact.
TEST_F(GrainsCli, AbsurdTimeStepEndsTheRunAtOnce) {
  const std::string demo = std::string(GRAINS_SOURCE_DIR) + "/config/demo_settle.yaml";
  struct Case {
    const char* dt;
    const char* cause;
  };
  for (const Case& c :
       {Case{"1e300", "is not finite"}, Case{"10", "exceeds the extent of all bodies"}}) {
    const fs::path out = dir_ / (std::string("dt_") + c.dt);
    const auto r = runGrains("run " + demo + " --steps 3 --output " + out.string() +
                             " --set output.vtk_every=0 --set simulation.dt=" + c.dt);
    EXPECT_EQ(r.status, 1) << r.output;
    for (const char* part : {"excessive motion in step 1: ", c.cause, "m/s", "reduce simulation.dt",
                             "emergency_checkpoint_00000000.h5"})
      EXPECT_NE(r.output.find(part), std::string::npos) << c.dt << ": " << part << ": " << r.output;
    EXPECT_NE(r.output.find(") moves at up to "), std::string::npos) << r.output;
    EXPECT_TRUE(fs::exists(out / "emergency_checkpoint_00000000.h5"));
  }
}

// An envelope that makes every pair of the demo's 1000 spheres a contact
// (n^2 = 501,500 contacts) ends the run in step 1, before the solve.
TEST_F(GrainsCli, ExplodingContactCountEndsTheRunAtOnce) {
  const std::string demo = std::string(GRAINS_SOURCE_DIR) + "/config/demo_settle.yaml";
  const fs::path out = dir_ / "envelope";
  const auto r = runGrains("run " + demo + " --steps 3 --output " + out.string() +
                           " --set output.vtk_every=0 --set contact.envelope=1e300");
  EXPECT_EQ(r.status, 1) << r.output;
  for (const char* part :
       {"excessive motion in step 1: 501500 contacts among 1000 bodies (more than 200 per body)",
        "the contact envelope (1e+300 m)", "has the most (", "reduce contact.envelope",
        "emergency_checkpoint_00000000.h5"})
    EXPECT_NE(r.output.find(part), std::string::npos) << part << ": " << r.output;
  EXPECT_TRUE(fs::exists(out / "emergency_checkpoint_00000000.h5"));
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
