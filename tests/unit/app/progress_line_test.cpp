// The progress line: durations, the mean step time since the last line, and
// the ETA from the mean of all steps so far.
#include "grains/app/progress_line.hpp"

#include <gtest/gtest.h>

#include <limits>

namespace grains {
namespace {

TEST(ProgressLine, DurationsReadLikeAClock) {
  EXPECT_EQ(formatDuration(0.0), "0.0 s");
  EXPECT_EQ(formatDuration(59.94), "59.9 s");
  EXPECT_EQ(formatDuration(60.0), "1 min 00 s");
  EXPECT_EQ(formatDuration(245.4), "4 min 05 s");
  EXPECT_EQ(formatDuration(3600.0), "1 h 00 min");
  EXPECT_EQ(formatDuration(7380.0), "2 h 03 min");
  EXPECT_EQ(formatDuration(3 * 86400.0 + 4 * 3600.0), "3 d 04 h");
  EXPECT_EQ(formatDuration(-1.0), "?");
  EXPECT_EQ(formatDuration(std::numeric_limits<double>::quiet_NaN()), "?");
}

TEST(ProgressLine, EtaIsTheMeanStepTimeTimesTheStepsLeft) {
  ProgressLine progress(100);
  EXPECT_EQ(progress.eta(0), 0.0);
  for (int i = 0; i < 10; ++i) progress.recordStep(i < 5 ? 1.0 : 3.0);  // mean 2 s
  EXPECT_DOUBLE_EQ(progress.eta(10), 90 * 2.0);
  EXPECT_DOUBLE_EQ(progress.eta(100), 0.0);
  EXPECT_DOUBLE_EQ(progress.eta(120), 0.0);
  EXPECT_DOUBLE_EQ(progress.meanSinceLastLine(), 2.0);
}

TEST(ProgressLine, TheLineShowsTheRunStateAndStartsANewWindow) {
  ProgressLine progress(800);
  progress.recordStep(0.5);
  progress.recordStep(1.5);
  StepReport r;
  r.bodies = 1000;
  r.contacts = 3556;
  r.active_contacts = 2100;
  r.solve.solver = "apgd";
  r.solve.iterations = 109;
  r.solve.residual = 8.1e-7;
  r.solve.converged = true;
  r.kinetic_energy = 12.5;
  r.max_overlap = 1.2e-4;
  r.domain.load_imbalance = 1.003;
  r.recursions = 2;
  const std::string line = progress.line(200, 1.0, r, true, 75.0);
  EXPECT_EQ(line,
            "step 200/800  t=1 s  bodies=1000  contacts=3556 (active 2100)  apgd it=109 "
            "res=8.10e-07  relcp=2  KE=12.5 J  overlap=0.00012 m  imbalance=1.003  1.000 s/step  "
            "elapsed 1 min 15 s  ETA 10 min 00 s\n");
  progress.recordStep(4.0);
  EXPECT_DOUBLE_EQ(progress.meanSinceLastLine(), 4.0);  // new window
  EXPECT_DOUBLE_EQ(progress.eta(201), 599 * 2.0);       // ETA over all steps
  r.solve.converged = false;
  r.relcp_resolved = false;
  const std::string bad = progress.line(201, 1.005, r, true, 79.0);
  EXPECT_NE(bad.find("(not converged)"), std::string::npos) << bad;
  EXPECT_NE(bad.find("relcp=2 (unresolved)"), std::string::npos) << bad;
}

}  // namespace
}  // namespace grains
