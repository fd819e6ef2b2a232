#pragma once
// How a body moves under applied forces, for both laws of motion of Palmer et al. (2025)
// section 2.2: inertial (u+ = u + dt M^-1 F, eq. 5) and overdamped with a
// local-drag mobility (U = M F, eq. 8, with the block of eq. 27).
#include "grains/constraint/force_field.hpp"
#include "grains/core/body.hpp"
#include "grains/solver/quadratic_program.hpp"

#include <Eigen/Core>

namespace grains {

using Twist = Eigen::Matrix<double, 6, 1>;  ///< (u, omega) of one body, world frame

struct MotionModel {
  bool overdamped = false;
  /// Overdamped drag coefficient xi [N s/m^2] (Palmer et al. (2025) eq. 27).
  double drag = 1.0;
  Vec3 gravity = Vec3::Zero();  ///< [m/s^2]; a force m g in both laws
  ForceFieldSection force_field;
  /// Motion in the x-y plane only (monolayer): see projectPlanar.
  bool planar = false;
};

/// Removes the out-of-plane components (u_z, omega_x, omega_y) of a twist.
inline void projectPlanar(Twist& u) {
  u[2] = 0.0;
  u[3] = 0.0;
  u[4] = 0.0;
}

/// The length l of Palmer et al. (2025) eq. 27: the body's largest extent (sphere and
/// ellipsoid: largest diameter, spherocylinder: tip to tip, torus: outer
/// diameter, cylinder: max(height, diameter)).
double dragLength(const Body& b);

/// Force of the field at x (Palmer et al. (2025) sections 4.2 and 4.4).
Vec3 forceFieldAt(const ForceFieldSection& field, const Vec3& x);

/// Gravity, the body's constant external force and the force field [N].
Vec3 appliedForce(const Body& b, const MotionModel& model);

/// The 6x6 block W of a body: inverse mass and world inverse inertia
/// (inertial), or 1/(xi l) I and 12/(xi l^3) I (overdamped local drag).
BodyMobility mobilityOf(const Body& b, const MotionModel& model);

/// Velocity u + w x r of the material point at lever arm r of a body with twist (u, w).
inline Vec3 pointVelocity(const Twist& twist, const Vec3& arm) {
  return twist.head<3>() + twist.tail<3>().cross(arm);
}

/// Velocity without contacts: u + dt F / m (inertial; angular velocity kept),
/// or W F (overdamped; no applied torques).
Twist freeVelocity(const Body& b, const MotionModel& model, double dt);

/// q <- exp(dt omega / 2) q for a world-frame angular velocity omega.
Quat advanceOrientation(const Quat& q, const Vec3& omega, double dt);

/// A copy of b moved by dt with twist u (semi-implicit update, Palmer et al. (2025) eq. 9).
Body movedBody(const Body& b, const Twist& u, double dt);

}  // namespace grains
