#pragma once
// The quiet-rest pile (tests/unit/dynamics/quiet_rest_test.cpp and its MPI
// counterpart): 96 spheres (r = 0.1 m, 1 kg) dropped from a jittered lattice
// into an open box with Coulomb friction mu = 0.5, stepped by apgd at
// tolerance 1e-6 with dt = 5 ms; after `settle_steps` the next `rest_steps`
// are measured. Each rank starts with a block of the bodies. `seed` jitters
// the lattice: each seed is another initial state, and so is each build that
// rounds differently (GRAINS_ARCH), so claims are checked over several.
#include "grains/dynamics/time_stepper.hpp"

#include "body_blocks.hpp"
#include "open_box.hpp"

#include <algorithm>
#include <random>
#include <vector>

namespace grains::test {

/// What the pile's contacts are made of besides Coulomb friction.
struct PileContacts {
  double overlap_slop = 0.0;
  double rolling_and_spinning = 0.0;  ///< both resistance coefficients
  /// Sliding friction without rolling resistance: coulomb, or box or cylinder
  /// (the Tresca-to-Coulomb fixed point).
  FrictionModel sliding = FrictionModel::Coulomb;
};

struct QuietPileRun {
  std::vector<double> speeds;          ///< |u| of this rank's bodies at the end [m/s]
  double largest_local_speed = 0.0;    ///< max of |u| and r |omega| over this rank's bodies [m/s]
  double iterations_per_step = 0.0;    ///< apgd iterations, mean over the measured steps
  int unconverged = 0;                 ///< measured steps that did not converge
  int steps_at_warm_start = 0;         ///< measured steps that took the warm start as it was
  int most_applies_at_warm_start = 0;  ///< largest operator_applies among those steps
  /// Measured steps whose `converged` disagrees with residual <= tolerance.
  int misreported = 0;
};

/// Initial states of the quiet pile the tests check their claims on.
inline constexpr unsigned kQuietPileSeeds[] = {7, 1, 2};

inline constexpr double kQuietPileRadius = 0.1;

inline QuietPileRun settleQuietPile(const RCP<const Comm>& comm, const RestTolerance& rest,
                                    int settle_steps, int rest_steps,
                                    const PileContacts& contacts = {},
                                    unsigned seed = kQuietPileSeeds[0]) {
  const double r = kQuietPileRadius, m = 1.0, dt = 5e-3, half_width = 0.52;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> jitter(-0.03, 0.03);
  std::vector<Body> all;
  for (int k = 0; k < 6; ++k)
    for (int j = 0; j < 4; ++j)
      for (int i = 0; i < 4; ++i)
        all.push_back(makeSphere(static_cast<GlobalId>(all.size()), r, m,
                                 Vec3(-0.375 + 0.25 * i + jitter(rng),
                                      -0.375 + 0.25 * j + jitter(rng), 0.15 + 0.25 * k)));
  BodyDomain domain(comm, myBlock(all, *comm));
  const std::vector<Wall> walls = openBox(-half_width, half_width);
  StepperSettings settings;
  settings.assembly.dt = dt;
  settings.assembly.motion.gravity = Vec3(0, 0, -9.81);
  settings.assembly.friction =
      contacts.rolling_and_spinning > 0.0 ? FrictionModel::CoulombRolling : contacts.sliding;
  settings.assembly.rolling_friction = contacts.rolling_and_spinning;
  settings.assembly.spinning_friction = contacts.rolling_and_spinning;
  settings.assembly.overlap_slop = contacts.overlap_slop;
  settings.mu = 0.5;
  settings.envelope = 0.02;
  SolverSettings solver_settings;
  solver_settings.tolerance = 1e-6;
  solver_settings.max_iterations = 2000;
  settings.solver_tolerance = solver_settings.tolerance;
  settings.rest = rest;
  TimeStepper stepper(
      settings, walls,
      SolverRegistry::instance().create("apgd", solver_settings, settings.assembly.friction));

  QuietPileRun out;
  for (int step = 0; step < settle_steps + rest_steps; ++step) {
    const StepReport report = stepper.step(domain, step);
    if (step >= settle_steps) {
      out.unconverged += report.solve.converged ? 0 : 1;
      const bool within = report.solve.residual <= solver_settings.tolerance;
      out.misreported += report.solve.converged == within ? 0 : 1;
      out.iterations_per_step += static_cast<double>(report.solve.iterations) / rest_steps;
      if (report.solve.iterations == 0 && report.recursions == 1) {
        ++out.steps_at_warm_start;
        out.most_applies_at_warm_start =
            std::max(out.most_applies_at_warm_start, report.solve.operator_applies);
      }
    }
  }
  for (std::size_t i = 0; i < domain.numOwned(); ++i) {
    const Body& b = domain.bodies()[i];
    out.speeds.push_back(b.velocity.norm());
    out.largest_local_speed =
        std::max({out.largest_local_speed, b.velocity.norm(), r * b.angular_velocity.norm()});
  }
  return out;
}

}  // namespace grains::test
