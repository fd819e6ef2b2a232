#include "grains/constraint/body_motion.hpp"

#include "grains/geometry/shape_traits.hpp"

#include <algorithm>
#include <cmath>

namespace grains {

double dragLength(const Body& b) { return shapeTraits(b.shape).drag_length(shapeSize(b)); }

Vec3 forceFieldAt(const ForceFieldSection& field, const Vec3& x) {
  if (field.kind == ForceFieldKind::None) return Vec3::Zero();
  const Vec3 rel = x - field.center;
  const double r = rel.norm();
  // x (|x| - sin|x|) / |x|^2 ~ x |x| / 6 near the centre: finite, smooth.
  const double profile = r > 1e-4 ? (r - std::sin(r)) / (r * r) : r / 6.0;
  const double sign = field.kind == ForceFieldKind::RadialCompaction ? -1.0 : 1.0;
  return sign * field.strength * profile * rel;
}

Vec3 appliedForce(const Body& b, const MotionModel& model) {
  return b.mass * model.gravity + b.external_force + forceFieldAt(model.force_field, b.position);
}

BodyMobility mobilityOf(const Body& b, const MotionModel& model) {
  BodyMobility m;
  if (model.overdamped) {
    const double l = dragLength(b);
    m.inverse_mass = 1.0 / (model.drag * l);
    m.inverse_inertia = Mat3::Identity() * (12.0 / (model.drag * l * l * l));
  } else {
    m.inverse_mass = b.inverseMass();
    m.inverse_inertia = b.inverseInertiaWorld();
  }
  return m;
}

Twist freeVelocity(const Body& b, const MotionModel& model, double dt) {
  Twist u;
  const Vec3 force = appliedForce(b, model);
  if (model.overdamped) {
    const BodyMobility m = mobilityOf(b, model);
    u.head<3>() = m.inverse_mass * force;
    u.tail<3>() = Vec3::Zero();
  } else {
    u.head<3>() = b.velocity + dt * force / b.mass;
    u.tail<3>() = b.angular_velocity;
  }
  if (model.planar) projectPlanar(u);
  return u;
}

Quat advanceOrientation(const Quat& q, const Vec3& omega, double dt) {
  const double angle = omega.norm() * dt;
  if (angle < 1e-300) return q;
  const Quat rotation(Eigen::AngleAxisd(angle, omega.normalized()));
  return (rotation * q).normalized();
}

Body movedBody(const Body& b, const Twist& u, double dt) {
  Body moved = b;
  moved.position += dt * u.head<3>();
  moved.orientation = advanceOrientation(b.orientation, u.tail<3>(), dt);
  return moved;
}

}  // namespace grains
