#pragma once
// Prescribed rigid motion of a wall: a linear velocity v and an angular
// velocity w about a pivot that moves with v, constant or given as a table
// of times. The pose is a function of time alone (a restart at time t puts
// every wall where an uninterrupted run has it), and the velocity of the
// wall's surface at x is v + w x (x - pivot(t)) (docs/boundaries.md).
#include "grains/core/types.hpp"

#include <vector>

namespace grains {

/// One row of a wall's motion table: from `time` on (until the next row's
/// time) the wall moves with these velocities.
struct WallMotionRow {
  double time = 0.0;                     ///< [s]
  Vec3 velocity = Vec3::Zero();          ///< of the pivot [m/s]
  Vec3 angular_velocity = Vec3::Zero();  ///< about the pivot [rad/s]
};

/// The rigid velocity field of a wall at one instant.
struct WallVelocity {
  Vec3 pivot = Vec3::Zero();
  Vec3 linear = Vec3::Zero();
  Vec3 angular = Vec3::Zero();
  /// Velocity of the wall's surface at `x` [m/s].
  Vec3 at(const Vec3& x) const { return linear + angular.cross(x - pivot); }
  bool isZero() const { return linear.isZero(0.0) && angular.isZero(0.0); }
};

/// Where a moving wall is at time t: x(t) = pivot(t) + rotation (x(0) - pivot(0)).
struct WallPose {
  Vec3 pivot = Vec3::Zero();
  Quat rotation = Quat::Identity();
};

struct WallMotion {
  Vec3 pivot = Vec3::Zero();  ///< at t = 0
  /// Rows by strictly increasing time; empty: the wall does not move. Before
  /// the first row's time the wall rests.
  std::vector<WallMotionRow> table;

  bool moves() const { return !table.empty(); }
  /// The pose at time `t` >= 0, composed exactly over the table's rows.
  WallPose poseAt(double t) const;
  /// The velocity field at time `t` (the row holding at t).
  WallVelocity velocityAt(double t) const;
  /// Largest surface speed within `reach` of the pivot over the whole table [m/s].
  double maxSpeed(double reach) const;
};

}  // namespace grains
