#pragma once
// A rigid body's full state. Everything that must travel with a body when it
// migrates to another rank lives here (keep it trivially copyable).
#include "grains/core/types.hpp"

namespace grains {

enum class ShapeKind : int { Sphere = 0 };

struct Body {
  GlobalId gid = kNoBody;
  ShapeKind shape = ShapeKind::Sphere;
  double radius = 0.0;  ///< sphere radius [m]
  double mass = 0.0;    ///< [kg]
  /// Principal moments of inertia in the body frame [kg m^2].
  Vec3 inertia = Vec3::Zero();

  Vec3 position = Vec3::Zero();
  Quat orientation = Quat::Identity();
  Vec3 velocity = Vec3::Zero();          ///< world frame [m/s]
  Vec3 angular_velocity = Vec3::Zero();  ///< world frame [rad/s]

  /// Total contact force and torque of the last step (impulse / dt), world frame.
  Vec3 contact_force = Vec3::Zero();
  Vec3 contact_torque = Vec3::Zero();
  /// Contacts of the last step seen from the rank owning the body: the
  /// partitioner's work estimate and a per-body output field.
  int num_contacts = 0;

  /// Inverse of the world-frame inertia tensor.
  Mat3 inverseInertiaWorld() const {
    const Mat3 rot = orientation.toRotationMatrix();
    return rot * inertia.cwiseInverse().asDiagonal() * rot.transpose();
  }
  double inverseMass() const { return 1.0 / mass; }
  double kineticEnergy() const {
    const Mat3 rot = orientation.toRotationMatrix();
    const Vec3 omega_body = rot.transpose() * angular_velocity;
    return 0.5 * mass * velocity.squaredNorm() +
           0.5 * omega_body.dot(inertia.cwiseProduct(omega_body));
  }
};

// Body is sent over MPI as raw bytes: keep it free of pointers and owning
// members (Eigen fixed-size vectors are plain arrays of doubles).

/// Solid sphere of radius r and mass m: I = 2/5 m r^2 about every axis.
inline Body makeSphere(GlobalId gid, double radius, double mass, const Vec3& position) {
  Body b;
  b.gid = gid;
  b.shape = ShapeKind::Sphere;
  b.radius = radius;
  b.mass = mass;
  b.inertia = Vec3::Constant(0.4 * mass * radius * radius);
  b.position = position;
  return b;
}

}  // namespace grains
