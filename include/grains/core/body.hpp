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
/// Number of ShapeKind values (rows of the shape traits and pair-dispatch tables).
constexpr int kShapeKindCount = 5;

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
  /// of gravity and force fields (e.g. Palmer et al. (2025) section 4.2's unit forces).
  Vec3 external_force = Vec3::Zero();
  /// Growth of spherocylinders (Palmer et al. (2025) section 4.3): rate g of dl/dt = g l
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

// Factories (makeSphere, makeEllipsoid, ...), volumes, inertias and every
// other per-shape quantity: the shape traits table, grains/geometry/shape_traits.hpp.

}  // namespace grains
