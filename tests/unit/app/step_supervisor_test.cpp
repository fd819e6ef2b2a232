// The reliability policies of a run (docs/reliability.md): fault injection
// parsing, non-finite state detection, substep reports, and end-to-end runs
// of the executable with injected NaN, non-convergence and escaping bodies.
#include "grains/app/step_supervisor.hpp"
#include "grains/app/fault_injection.hpp"
#include "grains/config/config_error.hpp"
#include "grains/config/config_loader.hpp"
#include "grains/dynamics/state_check.hpp"
#include "grains_process.hpp"

#include <gtest/gtest.h>

#include <unistd.h>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

namespace grains {
namespace {

namespace fs = std::filesystem;
using grains_test::runGrainsProcess;

TEST(FaultInjection, ParsesKindStepAndRank) {
  const FaultInjection f = parseFaultInjection("nan@12:2");
  EXPECT_EQ(f.kind, FaultKind::Nan);
  EXPECT_EQ(f.step, 12);
  EXPECT_EQ(f.rank, 2);
  EXPECT_TRUE(f.strikes(FaultKind::Nan, 12, 2));
  EXPECT_FALSE(f.strikes(FaultKind::Nan, 12, 1));
  EXPECT_FALSE(f.strikes(FaultKind::Nan, 11, 2));
  EXPECT_FALSE(f.strikes(FaultKind::Throw, 12, 2));
  const FaultInjection u = parseFaultInjection("unconverged@3");
  EXPECT_EQ(u.rank, 0);
  EXPECT_TRUE(u.strikes(FaultKind::Unconverged, 3, 5));  // every rank
  EXPECT_EQ(parseFaultInjection("exit@1").kind, FaultKind::Exit);
  EXPECT_EQ(parseFaultInjection("throw@7:1").kind, FaultKind::Throw);
}

TEST(FaultInjection, RejectsMalformedSpecsNamingTheVariable) {
  for (const char* bad : {"nan", "nan@", "nan@0", "boom@3", "nan@x", "nan@3:", "nan@3:-1", "nan@-2",
                          "nan@99999999999999999999"}) {
    try {
      parseFaultInjection(bad);
      ADD_FAILURE() << bad << " was accepted";
    } catch (const ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find("GRAINS_FAULT_INJECTION"), std::string::npos) << bad;
      EXPECT_NE(std::string(e.what()).find(bad), std::string::npos) << e.what();
    }
  }
}

TEST(StateCheck, NamesTheSmallestGidAndTheField) {
  std::vector<Body> bodies;
  for (GlobalId gid : {5, 3, 9, 4}) bodies.push_back(makeSphere(gid, 0.1, 1.0, Vec3::Zero()));
  EXPECT_FALSE(firstNonFiniteBody(bodies, bodies.size()));
  bodies[0].angular_velocity.z() = std::numeric_limits<double>::infinity();
  bodies[2].position.y() = std::nan("");
  bodies[3].orientation.coeffs()(1) = std::nan("");
  auto bad = firstNonFiniteBody(bodies, bodies.size());
  ASSERT_TRUE(bad);
  EXPECT_EQ(bad->gid, 4);
  EXPECT_EQ(bad->field, "orientation");
  bad = firstNonFiniteBody(bodies, 3);  // only the first three are owned
  ASSERT_TRUE(bad);
  EXPECT_EQ(bad->gid, 5);
  EXPECT_EQ(bad->field, "angular velocity");
  bodies[1].radius = std::nan("");
  EXPECT_EQ(firstNonFiniteBody(bodies, 4)->field, "size");
}

TEST(StepSupervisor, SubstepReportsAccumulateWorkAndKeepTheLastState) {
  StepReport a, b;
  a.solve.iterations = 10;
  a.solve.converged = true;
  a.solve.residual = 1e-9;
  a.max_overlap = 2e-3;
  a.time_solve = 0.5;
  a.bodies = 100;
  a.kinetic_energy = 3.0;
  a.first_solve_iterations = 6;
  b.solve.iterations = 7;
  b.first_solve_iterations = 4;
  b.solve.converged = false;
  b.solve.residual = 1e-5;
  b.max_overlap = 1e-3;
  b.time_solve = 0.25;
  b.bodies = 99;
  b.kinetic_energy = 2.0;
  const StepReport c = combineSubsteps(a, b);
  EXPECT_EQ(c.solve.iterations, 17);
  EXPECT_EQ(c.first_solve_iterations, 10);
  EXPECT_FALSE(c.solve.converged);
  EXPECT_DOUBLE_EQ(c.solve.residual, 1e-5);
  EXPECT_DOUBLE_EQ(c.max_overlap, 2e-3);
  EXPECT_DOUBLE_EQ(c.time_solve, 0.75);
  EXPECT_EQ(c.bodies, 99);
  EXPECT_DOUBLE_EQ(c.kinetic_energy, 2.0);
}

SimulationConfig demoWith(const std::vector<std::string>& overrides) {
  return loadConfigString(defaultConfigYaml(), "<demo>", ".", overrides);
}

TEST(ReliabilityConfig, PoliciesParseAndRoundTrip) {
  const SimulationConfig c =
      demoWith({"solver.on_unconverged=retry", "solver.max_halvings=5", "domain.min=[-1,-2,-3]",
                "domain.max=[1,2,3]", "domain.on_exit=abort"});
  EXPECT_EQ(c.solver.on_unconverged, UnconvergedPolicy::Retry);
  EXPECT_EQ(c.solver.max_halvings, 5);
  EXPECT_TRUE(c.domain.bounded);
  EXPECT_EQ(c.domain.min, Vec3(-1, -2, -3));
  EXPECT_EQ(c.domain.on_exit, DomainExitPolicy::Abort);
  const SimulationConfig again = loadConfigString(configToYaml(c), "<again>", ".");
  EXPECT_EQ(again.solver.on_unconverged, UnconvergedPolicy::Retry);
  EXPECT_EQ(again.solver.max_halvings, 5);
  EXPECT_EQ(again.domain.max, Vec3(1, 2, 3));
  EXPECT_EQ(again.domain.on_exit, DomainExitPolicy::Abort);
  const SimulationConfig defaults = demoWith({});
  EXPECT_EQ(defaults.solver.on_unconverged, UnconvergedPolicy::Warn);
  EXPECT_EQ(defaults.solver.max_halvings, 3);
  EXPECT_FALSE(defaults.domain.bounded);
  EXPECT_FALSE(loadConfigString(configToYaml(defaults), "<d>", ".").domain.bounded);
}

TEST(ReliabilityConfig, BadPoliciesNameTheKey) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"solver.on_unconverged=ignore"}, "solver.on_unconverged"},
      {{"solver.max_halvings=0"}, "solver.max_halvings"},
      {{"solver.max_halvings=21"}, "solver.max_halvings"},
      {{"domain.min=[0,0,0]"}, "domain.max"},
      {{"domain.max=[1,1,1]"}, "domain.min"},
      {{"domain.min=[0,0,0]", "domain.max=[1,0,1]"}, "domain.max"},
      {{"domain.min=[0,0,0]", "domain.max=[1,1,1]", "domain.on_exit=bounce"}, "domain.on_exit"},
      {{"domain.min=[0,0]", "domain.max=[1,1,1]"}, "domain.min"},
      {{"domain.minimum=[0,0,0]"}, "domain.minimum"}};
  for (const auto& [overrides, key] : cases) {
    try {
      demoWith(overrides);
      ADD_FAILURE() << overrides.front() << " was accepted";
    } catch (const ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find(key), std::string::npos)
          << overrides.front() << ": " << e.what();
    }
  }
}

// --- the executable ---------------------------------------------------------

class RunFaults : public grains_test::TempDirTest {
 protected:
  /// Column `name` of the output's metrics.csv, one value per row.
  std::vector<double> column(const std::string& out, const std::string& name) {
    std::ifstream in(dir_ / out / "metrics.csv");
    std::string line;
    std::getline(in, line);
    std::vector<std::string> header;
    std::stringstream hs(line);
    for (std::string cell; std::getline(hs, cell, ',');) header.push_back(cell);
    std::size_t index = header.size();
    for (std::size_t i = 0; i < header.size(); ++i)
      if (header[i] == name) index = i;
    EXPECT_LT(index, header.size()) << "no column " << name;
    std::vector<double> values;
    while (std::getline(in, line)) {
      std::stringstream ls(line);
      std::string cell;
      for (std::size_t i = 0; i <= index && std::getline(ls, cell, ','); ++i) {
      }
      values.push_back(std::stod(cell));
    }
    return values;
  }
  std::string run(const std::string& config, const std::string& out, const std::string& env,
                  int expected_status, const std::string& extra = "") {
    // A restart continues its output directory; other runs start afresh.
    const std::string fresh = extra.find("--restart") == std::string::npos ? " --overwrite " : " ";
    const auto r = runGrainsProcess(
        "run " + config + " --output " + (dir_ / out).string() + fresh + extra, env);
    EXPECT_EQ(r.status, expected_status) << r.output;
    return r.output;
  }
};

// Eight spheres settling on a floor; every step has contacts.
const char* kPile = R"(simulation: {dt: 0.005, steps: 6}
bodies:
  radius: 0.1
  mass: 1.0
  generator: {type: lattice, count: 8, spacing: 0.2,
              region: {type: box, min: [0, 0, 0], max: [0.4, 0.4, 0.4]}}
walls: [{type: plane, point: [0, 0, 0], normal: [0, 0, 1]}]
solver: {name: bbpgd, tolerance: 1.0e-8, max_iterations: 500}
output: {log_every: 1}
)";

std::size_t occurrences(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST_F(RunFaults, NanIsCaughtAtOnceWithBodyStepAndRankAndLeavesARestartableCheckpoint) {
  const std::string config = write("pile.yaml", kPile);
  const std::string log = run(config, "nan", "GRAINS_FAULT_INJECTION=nan@4", 1);
  EXPECT_NE(log.find("non-finite state after step 4: body 0 has a non-finite velocity on rank 0"),
            std::string::npos)
      << log;
  EXPECT_EQ(occurrences(log, "grains: error"), 1u) << log;
  EXPECT_EQ(log.find("step 4/6"), std::string::npos) << "step 4 must not complete:\n" << log;
  const fs::path emergency = dir_ / "nan" / "emergency_checkpoint_00000003.h5";
  ASSERT_TRUE(fs::exists(emergency)) << log;
  EXPECT_NE(log.find(emergency.string()), std::string::npos) << log;
  // The emergency checkpoint holds the good state after step 3: restarting
  // from it reproduces an uninterrupted run exactly.
  run(config, "clean", "", 0);
  run(config, "nan", "", 0, "--restart " + emergency.string());
  const auto clean_ke = column("clean", "kinetic_energy");
  const auto resumed_ke = column("nan", "kinetic_energy");
  ASSERT_EQ(clean_ke.size(), 6u);
  ASSERT_EQ(resumed_ke.size(), 6u);  // 3 before the fault + 3 after the restart
  for (std::size_t i = 0; i < 6; ++i) EXPECT_EQ(clean_ke[i], resumed_ke[i]) << "row " << i;
}

TEST_F(RunFaults, UnconvergedStepsWarnByDefaultAndAreCounted) {
  const std::string config = write("pile.yaml", kPile);
  const std::string log =
      run(config, "warn", "", 0, "--set solver.max_iterations=1 --set solver.tolerance=1e-14");
  EXPECT_NE(log.find("warning: step 1: solver bbpgd did not converge"), std::string::npos) << log;
  const auto converged = column("warn", "converged");
  ASSERT_EQ(converged.size(), 6u);
  for (double c : converged) EXPECT_EQ(c, 0.0);
  EXPECT_NE(log.find("6 unconverged steps"), std::string::npos) << log;
}

TEST_F(RunFaults, AbortPolicyEndsTheRunWithAnEmergencyCheckpoint) {
  const std::string config = write("pile.yaml", kPile);
  const std::string log = run(config, "abort", "", 1,
                              "--set solver.max_iterations=1 --set solver.tolerance=1e-14 "
                              "--set solver.on_unconverged=abort");
  EXPECT_NE(log.find("step 1: solver bbpgd did not converge"), std::string::npos) << log;
  EXPECT_NE(log.find("solver.on_unconverged = abort"), std::string::npos) << log;
  EXPECT_TRUE(fs::exists(dir_ / "abort" / "emergency_checkpoint_00000000.h5")) << log;
}

TEST_F(RunFaults, RetryPolicyHalvesTheStepAndRecordsIt) {
  const std::string config = write("pile.yaml", kPile);
  const std::string log = run(config, "retry", "GRAINS_FAULT_INJECTION=unconverged@3", 0,
                              "--set solver.on_unconverged=retry");
  EXPECT_NE(log.find("redone as 2 substeps of dt/2, converged"), std::string::npos) << log;
  const auto halvings = column("retry", "halvings");
  const auto converged = column("retry", "converged");
  ASSERT_EQ(halvings.size(), 6u);
  for (std::size_t i = 0; i < 6; ++i) {
    EXPECT_EQ(halvings[i], i == 2 ? 1.0 : 0.0) << "row " << i;
    EXPECT_EQ(converged[i], 1.0) << "row " << i;
  }
  EXPECT_NE(log.find("1 retried steps"), std::string::npos) << log;
  // Two substeps of dt/2 end at the same time as one step of dt, and on the
  // way to rest the pile moves about the same: close to an unretried run.
  run(config, "plain", "", 0);
  const auto plain_ke = column("plain", "kinetic_energy");
  const auto retry_ke = column("retry", "kinetic_energy");
  EXPECT_NEAR(retry_ke.back(), plain_ke.back(), 0.2 * plain_ke.back() + 1e-6);
  // Exhausted halvings: every step unconverged, each tried at dt/2 and dt/4.
  const std::string hard = run(config, "hard", "", 0,
                               "--set solver.on_unconverged=retry --set solver.max_halvings=2 "
                               "--set solver.max_iterations=1 --set solver.tolerance=1e-14");
  EXPECT_NE(hard.find("still not converged with 4 substeps (solver.max_halvings = 2)"),
            std::string::npos)
      << hard;
  for (double h : column("hard", "halvings")) EXPECT_EQ(h, 2.0);
}

// Spheres thrown downwards with no floor leave a box whose bottom is at
// z = -0.12: the lower layer (z = 0.1) after 5 steps of 5 cm.
const char* kFalling = R"(simulation: {dt: 0.005, steps: 8, gravity: [0, 0, 0]}
bodies:
  radius: 0.05
  mass: 1.0
  initial_velocity: [0, 0, -10]
  generator: {type: lattice, count: 8, spacing: 0.2,
              region: {type: box, min: [0, 0, 0.05], max: [0.4, 0.4, 0.35]}}
domain: {min: [-1, -1, -0.12], max: [1, 1, 1]}
output: {log_every: 1}
)";

TEST_F(RunFaults, BodiesLeavingTheDomainAreRemovedWithAWarning) {
  const std::string config = write("falling.yaml", kFalling);
  const std::string log = run(config, "remove", "", 0);
  const auto bodies = column("remove", "bodies");
  const auto removed = column("remove", "bodies_removed");
  ASSERT_EQ(bodies.size(), 8u);
  double total_removed = 0.0;
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    total_removed += removed[i];
    EXPECT_EQ(bodies[i], 8.0 - total_removed) << "row " << i;
  }
  // Lower layer (z = 0.1) at 0.1 - 0.05 k after k steps: outside after step 5,
  // removed at the start of step 6; the upper layer (z = 0.3) after step 9.
  EXPECT_EQ(removed[5], 4.0);
  EXPECT_EQ(total_removed, 4.0);
  EXPECT_NE(log.find("is outside the domain"), std::string::npos) << log;
  EXPECT_EQ(occurrences(log, ": removed (domain.on_exit = remove)"), 4u) << log;
  EXPECT_NE(log.find("4 bodies removed"), std::string::npos) << log;
}

TEST_F(RunFaults, BodiesLeavingTheDomainCanEndTheRun) {
  const std::string config = write("falling.yaml", kFalling);
  const std::string log = run(config, "abort", "", 1, "--set domain.on_exit=abort");
  EXPECT_NE(log.find("body 0 (rank 0) is outside the domain"), std::string::npos) << log;
  EXPECT_NE(log.find("at the start of step 6"), std::string::npos) << log;
  EXPECT_NE(log.find("4 bodies outside"), std::string::npos) << log;
  EXPECT_TRUE(fs::exists(dir_ / "abort" / "emergency_checkpoint_00000005.h5")) << log;
}

}  // namespace
}  // namespace grains
