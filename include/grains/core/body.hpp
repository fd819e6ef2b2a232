#pragma once
// A rigid body's full state. Everything that must travel with a body when it
// migrates to another rank lives here (keep it trivially copyable).
#include "grains/core/types.hpp"

namespace grains {

enum class ShapeKind : int {
  Sphere = 0,          ///< radius
  Cylinder = 1,        ///< solid circular cylinder: radius, half_length along the body z axis
  Spherocylinder = 2,  ///< capsule: segment of half_length along the body z axis, radius
  Ellipsoid = 3,       ///< semi_axes (a, b, c) along the body x, y, z axes
  Torus = 4            ///< ring: centre circle of major_radius in the body x-y plane,
                       ///< tube of radius `radius` (the minor radius)
};

struct Body {
  GlobalId gid = kNoBody;
  ShapeKind shape = ShapeKind::Sphere;
  double radius = 0.0;            ///< sphere or cylinder radius [m]
  double half_length = 0.0;       ///< cylinder / spherocylinder: half its axial length [m]
                                  ///< (spherocylinder: of the segment, caps excluded)
  Vec3 semi_axes = Vec3::Zero();  ///< ellipsoid: semi-axes along body x, y, z [m]
  double major_radius = 0.0;      ///< torus: radius of the tube's centre circle [m]
  double mass = 0.0;              ///< [kg]
  /// Principal moments of inertia in the body frame [kg m^2].
  Vec3 inertia = Vec3::Zero();

  Vec3 position = Vec3::Zero();
  Quat orientation = Quat::Identity();
  Vec3 velocity = Vec3::Zero();          ///< world frame [m/s]
  Vec3 angular_velocity = Vec3::Zero();  ///< world frame [rad/s]
  /// Constant applied force on the centre of mass (world frame) [N], on top
  /// of gravity and force fields (e.g. seed 004 section 4.2's unit forces).
  Vec3 external_force = Vec3::Zero();
  /// Growth of spherocylinders (seed 004 section 4.3): rate g of dl/dt = g l
  /// for the tip-to-tip length l [1/s]; 0 = the body does not grow.
  double growth_rate = 0.0;
  /// Divisions between the initial body and this one (0 for initial bodies).
  int generation = 0;

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
  double translationalKineticEnergy() const { return 0.5 * mass * velocity.squaredNorm(); }
  double rotationalKineticEnergy() const {
    const Mat3 rot = orientation.toRotationMatrix();
    const Vec3 omega_body = rot.transpose() * angular_velocity;
    return 0.5 * omega_body.dot(inertia.cwiseProduct(omega_body));
  }
  double kineticEnergy() const { return translationalKineticEnergy() + rotationalKineticEnergy(); }
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

/// Solid cylinder of radius r, height 2h along the body z axis (world axis
/// `axis`): I_axis = m r^2 / 2, I_perp = m (3 r^2 + (2h)^2) / 12.
inline Body makeCylinder(GlobalId gid, double radius, double half_length, double mass,
                         const Vec3& position, const Vec3& axis = Vec3::UnitZ()) {
  Body b;
  b.gid = gid;
  b.shape = ShapeKind::Cylinder;
  b.radius = radius;
  b.half_length = half_length;
  b.mass = mass;
  const double perp = mass * (3.0 * radius * radius + 4.0 * half_length * half_length) / 12.0;
  b.inertia = Vec3(perp, perp, 0.5 * mass * radius * radius);
  b.position = position;
  b.orientation = Quat::FromTwoVectors(Vec3::UnitZ(), axis.normalized());
  return b;
}

/// Solid spherocylinder (capsule) of radius r around a segment of length 2h
/// along the body z axis (world axis `axis`), uniform density: a cylinder of
/// mass m_c and two hemispherical caps of total mass m_s, with
///   I_axis = m_c r^2 / 2 + 2/5 m_s r^2,
///   I_perp = m_c (L^2/12 + r^2/4) + m_s (2/5 r^2 + L^2/4 + 3/8 L r),  L = 2h.
inline Body makeSpherocylinder(GlobalId gid, double radius, double half_length, double mass,
                               const Vec3& position, const Vec3& axis = Vec3::UnitZ()) {
  const double L = 2.0 * half_length;
  const double v_cyl = kPi * radius * radius * L;
  const double v_caps = 4.0 / 3.0 * kPi * radius * radius * radius;
  const double m_c = mass * v_cyl / (v_cyl + v_caps);
  const double m_s = mass - m_c;
  Body b;
  b.gid = gid;
  b.shape = ShapeKind::Spherocylinder;
  b.radius = radius;
  b.half_length = half_length;
  b.mass = mass;
  const double axial = 0.5 * m_c * radius * radius + 0.4 * m_s * radius * radius;
  const double perp = m_c * (L * L / 12.0 + radius * radius / 4.0) +
                      m_s * (0.4 * radius * radius + L * L / 4.0 + 3.0 / 8.0 * L * radius);
  b.inertia = Vec3(perp, perp, axial);
  b.position = position;
  b.orientation = Quat::FromTwoVectors(Vec3::UnitZ(), axis.normalized());
  return b;
}

/// Solid ellipsoid with semi-axes (a, b, c) along the body x, y, z axes:
/// I = m/5 (b^2 + c^2, a^2 + c^2, a^2 + b^2).
inline Body makeEllipsoid(GlobalId gid, const Vec3& semi_axes, double mass, const Vec3& position,
                          const Quat& orientation = Quat::Identity()) {
  Body b;
  b.gid = gid;
  b.shape = ShapeKind::Ellipsoid;
  b.semi_axes = semi_axes;
  b.radius = semi_axes.maxCoeff();  // bounding sphere, for spacing heuristics
  b.mass = mass;
  const Vec3 sq = semi_axes.cwiseProduct(semi_axes);
  b.inertia = mass / 5.0 * Vec3(sq.y() + sq.z(), sq.x() + sq.z(), sq.x() + sq.y());
  b.position = position;
  b.orientation = orientation.normalized();
  return b;
}

/// Solid torus (ring): centre circle of radius R in the body x-y plane, tube
/// radius r: I_z = m (R^2 + 3/4 r^2), I_x = I_y = m (R^2 / 2 + 5/8 r^2).
inline Body makeTorus(GlobalId gid, double major_radius, double minor_radius, double mass,
                      const Vec3& position, const Quat& orientation = Quat::Identity()) {
  Body b;
  b.gid = gid;
  b.shape = ShapeKind::Torus;
  b.major_radius = major_radius;
  b.radius = minor_radius;
  b.mass = mass;
  const double R2 = major_radius * major_radius, r2 = minor_radius * minor_radius;
  const double perp = mass * (0.5 * R2 + 5.0 / 8.0 * r2);
  b.inertia = Vec3(perp, perp, mass * (R2 + 0.75 * r2));
  b.position = position;
  b.orientation = orientation.normalized();
  return b;
}

}  // namespace grains
