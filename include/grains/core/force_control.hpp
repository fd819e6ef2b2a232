#pragma once
// A wall driven by a force instead of a prescribed motion (a piston): a rigid
// wall body of mass m that translates along its normal n,
//
//   m dv/dt = n . (F_applied + m g + F_bodies),   dx/dt = v n,
//
// integrated explicitly once per step with F_bodies the load the bodies put
// on it in that step (docs/boundaries.md#force-controlled-walls).
#include "grains/core/types.hpp"

namespace grains {

struct ForceControl {
  double mass = 0.0;          ///< [kg]; 0: the wall is not force-controlled
  Vec3 force = Vec3::Zero();  ///< applied force [N] (its normal part drives the wall)
  bool gravity = true;        ///< the wall's weight m g acts on it too
  /// A plane may also slide along itself at this constant velocity [m/s]
  /// (perpendicular to its normal): a shear cell's lid at imposed pressure.
  Vec3 velocity = Vec3::Zero();
  bool enabled() const { return mass > 0.0; }
};

/// Where a force-controlled wall is: its displacement along its normal from
/// its configured pose [m] and its velocity along the normal [m/s]. A global
/// quantity, the same on every rank (it follows the globally summed load).
struct ForceControlState {
  double displacement = 0.0;
  double velocity = 0.0;
};

}  // namespace grains
