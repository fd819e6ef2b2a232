#pragma once
// One sphere (1 kg, radius 0.1 m) on a plane through the origin, stepped by
// apgd at a tolerance far below the closed forms the friction tests check
// (rolling, sliding, inclines: gravity turned instead of the plane).
#include "grains/dynamics/time_stepper.hpp"

#include <gtest/gtest.h>
#include <Tpetra_Core.hpp>

#include <cmath>

namespace grains::test {

constexpr double kSphereG = 9.81;
constexpr double kSphereMass = 1.0;
constexpr double kSphereRadius = 0.1;
constexpr double kSphereDt = 1e-3;

/// The plane tilted by theta (gravity rotated): downhill is +x.
inline Vec3 inclinedGravity(double theta) {
  return Vec3(kSphereG * std::sin(theta), 0.0, -kSphereG * std::cos(theta));
}

class SphereOnPlane {
 public:
  /// `settings` gets the time step; `plane` its contacts' own friction, if
  /// any; the sphere starts `overlap` [m] deep in the plane z = 0.
  SphereOnPlane(StepperSettings settings, const Wall& plane, const Vec3& velocity,
                const Vec3& angular_velocity, double overlap = 0.0)
      : domain_(Tpetra::getDefaultComm(), {sphere(velocity, angular_velocity, overlap)}),
        stepper_(withStep(settings), {plane}, solver(settings.assembly.friction)) {}

  void run(int steps) {
    for (int k = 0; k < steps; ++k) {
      const StepReport report = stepper_.step(domain_, step_++);
      ASSERT_TRUE(report.solve.converged) << "step " << step_;
    }
  }
  const Body& body() const { return domain_.bodies()[0]; }
  const TimeStepper& stepper() const { return stepper_; }

 private:
  static Body sphere(const Vec3& velocity, const Vec3& angular_velocity, double overlap) {
    Body b = makeSphere(0, kSphereRadius, kSphereMass, Vec3(0, 0, kSphereRadius - overlap));
    b.velocity = velocity;
    b.angular_velocity = angular_velocity;
    return b;
  }
  static StepperSettings withStep(StepperSettings s) {
    s.assembly.dt = kSphereDt;
    s.envelope = 0.01;
    return s;
  }
  static std::unique_ptr<Solver> solver(FrictionModel model) {
    SolverSettings s;
    s.tolerance = 1e-13;
    s.max_iterations = 20000;
    return SolverRegistry::instance().create("apgd", s, model);
  }

  BodyDomain domain_;
  TimeStepper stepper_;
  long step_ = 0;
};

}  // namespace grains::test
