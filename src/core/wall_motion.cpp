#include "grains/core/wall_motion.hpp"

#include <algorithm>
#include <cmath>

namespace grains {

namespace {

/// Rotation by angular velocity `w` held for `duration`.
Quat rotationOver(const Vec3& w, double duration) {
  const double angle = w.norm() * duration;
  if (angle == 0.0) return Quat::Identity();
  return Quat(Eigen::AngleAxisd(angle, w.normalized()));
}

}  // namespace

WallPose WallMotion::poseAt(double t) const {
  WallPose pose;
  pose.pivot = pivot;
  for (std::size_t i = 0; i < table.size() && table[i].time < t; ++i) {
    const double end = i + 1 < table.size() ? std::min(t, table[i + 1].time) : t;
    const double duration = end - table[i].time;
    // The pivot translates; the rotation is about the (moving) pivot, so the
    // two compose without coupling.
    pose.pivot += duration * table[i].velocity;
    pose.rotation =
        (rotationOver(table[i].angular_velocity, duration) * pose.rotation).normalized();
  }
  return pose;
}

WallVelocity WallMotion::velocityAt(double t) const {
  WallVelocity v;
  v.pivot = poseAt(t).pivot;
  for (const WallMotionRow& row : table) {
    if (row.time > t) break;
    v.linear = row.velocity;
    v.angular = row.angular_velocity;
  }
  return v;
}

double WallMotion::maxSpeed(double reach) const {
  double speed = 0.0;
  for (const WallMotionRow& row : table)
    speed = std::max(speed, row.velocity.norm() + row.angular_velocity.norm() * reach);
  return speed;
}

}  // namespace grains
