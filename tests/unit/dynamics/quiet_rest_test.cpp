// A settled frictional pile has an exact solution at rest: zero velocities
// and the previous step's impulses. A step stopped just below the tolerance
// hands its errors to the next one; solving below the warm start's miss
// (rest_tolerance.hpp) lets them decay and the pile come to rest.
#include "grains/dynamics/time_stepper.hpp"

#include "open_box.hpp"

#include <gtest/gtest.h>
#include <Tpetra_Core.hpp>

#include <algorithm>
#include <random>

namespace grains {
namespace {

struct RestMeasures {
  double median_speed = 0.0;          ///< median |u| at the end [m/s]
  double upper_quartile_speed = 0.0;  ///< 75th percentile of |u| [m/s]
  int unconverged = 0;
};

// 96 spheres dropped from a jittered lattice into a box settle
// for `settle_steps`, then `rest_steps` more are measured.
RestMeasures settleAndMeasure(const RestTolerance& rest, int settle_steps, int rest_steps) {
  const double r = 0.1, m = 1.0, dt = 5e-3, half_width = 0.52;
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> jitter(-0.03, 0.03);
  std::vector<Body> bodies;
  for (int k = 0; k < 6; ++k)
    for (int j = 0; j < 4; ++j)
      for (int i = 0; i < 4; ++i)
        bodies.push_back(makeSphere(static_cast<GlobalId>(bodies.size()), r, m,
                                    Vec3(-0.375 + 0.25 * i + jitter(rng),
                                         -0.375 + 0.25 * j + jitter(rng), 0.15 + 0.25 * k)));
  BodyDomain domain(Tpetra::getDefaultComm(), bodies);
  const std::vector<Wall> walls = test::openBox(-half_width, half_width);
  StepperSettings settings;
  settings.assembly.dt = dt;
  settings.assembly.motion.gravity = Vec3(0, 0, -9.81);
  settings.assembly.friction = FrictionModel::Coulomb;
  settings.mu = 0.5;
  settings.envelope = 0.02;
  SolverSettings solver_settings;
  solver_settings.tolerance = 1e-6;
  solver_settings.max_iterations = 2000;
  settings.solver_tolerance = solver_settings.tolerance;
  settings.rest = rest;
  TimeStepper stepper(settings, walls, SolverRegistry::instance().create("apgd", solver_settings));

  RestMeasures out;
  for (int step = 0; step < settle_steps + rest_steps; ++step) {
    const StepReport report = stepper.step(domain, step);
    if (step >= settle_steps) out.unconverged += report.solve.converged ? 0 : 1;
  }
  std::vector<double> speeds;
  for (std::size_t i = 0; i < domain.numOwned(); ++i) {
    speeds.push_back(domain.bodies()[i].velocity.norm());
  }
  std::sort(speeds.begin(), speeds.end());
  out.median_speed = speeds[speeds.size() / 2];
  out.upper_quartile_speed = speeds[3 * speeds.size() / 4];
  return out;
}

TEST(RestTolerance, StopsBelowTheWarmStartsMissBetweenFloorAndTolerance) {
  const RestTolerance rest = RestTolerance::recommended();
  EXPECT_DOUBLE_EQ(rest.scale(1.0, 1e-4), 1.0);              // impact: the tolerance
  EXPECT_DOUBLE_EQ(rest.scale(1e-4, 1e-4), 0.3);             // near rest: 0.3 x the miss
  EXPECT_DOUBLE_EQ(rest.scale(1e-7, 1e-4), 0.01);            // at rest: the floor
  EXPECT_DOUBLE_EQ(RestTolerance{}.scale(1e-4, 1e-4), 1.0);  // off
}

TEST(QuietRest, SolvingBelowTheWarmStartsMissLetsThePileComeToRest) {
  // Every step stopped just below the tolerance: one step's errors are the
  // next step's work, and the pile jitters at about tolerance / dt.
  const RestMeasures jittery = settleAndMeasure(RestTolerance{}, 800, 100);
  const RestMeasures quiet = settleAndMeasure(RestTolerance::recommended(), 800, 100);
  std::cout << "jittery " << jittery.median_speed << " " << jittery.upper_quartile_speed
            << " quiet " << quiet.median_speed << " " << quiet.upper_quartile_speed << "\n";
  EXPECT_EQ(jittery.unconverged, 0);
  EXPECT_EQ(quiet.unconverged, 0);
  EXPECT_LT(quiet.median_speed, 1e-5);
  EXPECT_LT(quiet.median_speed, 0.05 * jittery.median_speed)
      << "median speed " << quiet.median_speed << " against " << jittery.median_speed;
  // A few spheres on the floor roll and spin freely (nothing in a point
  // contact stops them): the bulk of the pile is what comes to rest.
  EXPECT_LT(quiet.upper_quartile_speed, 0.05 * jittery.upper_quartile_speed);
}

}  // namespace
}  // namespace grains