#pragma once
// A box periodic along some of its axes (docs/boundaries.md, "Periodic
// boxes"). Owned bodies keep their centres wrapped into [lower, upper) along
// the periodic axes; a body near a periodic face is seen across it as an
// image, a copy whose centre is shifted by a whole box length. Contacts take
// the nearest image of the partner (minimum image convention).
#include "grains/core/types.hpp"

#include <array>
#include <vector>

namespace grains {

struct PeriodicBox {
  std::array<bool, 3> periodic{false, false, false};  ///< per axis x, y, z
  Vec3 lower = Vec3::Zero();                          ///< [m]
  Vec3 upper = Vec3::Zero();                          ///< [m], > lower on periodic axes

  bool any() const { return periodic[0] || periodic[1] || periodic[2]; }
  double length(int axis) const { return upper[axis] - lower[axis]; }

  /// Maps x into [lower, upper) along the periodic axes; returns how many
  /// box lengths it moved (summed over the axes, absolute).
  long wrap(Vec3& x) const;
  /// True when `b - a` is the nearest image along every periodic axis, each
  /// component in (-L/2, L/2] (a half-open range: of two images exactly L/2
  /// away one is taken, the same one on every rank).
  bool isNearestImage(const Vec3& a, const Vec3& b) const;
  /// True when x lies within `reach` of the box along every periodic axis
  /// (the other axes are not looked at).
  bool withinReach(const Vec3& x, double reach) const;
  /// The offsets of the images: every combination of -L, 0, +L along the
  /// periodic axes except all zero (2, 8 or 26 offsets), in a fixed order.
  std::vector<Vec3> imageShifts() const;
  /// The whole box lengths between a copy of a body seen somewhere (an image,
  /// or the body itself) and the body's centre `at`, along the periodic axes
  /// (zero along the others). Exact multiples of the lengths: the two
  /// positions may be from different moments of a step, less than L/2 apart
  /// after removing the shift.
  Vec3 imageShift(const Vec3& copy, const Vec3& at) const;
};

}  // namespace grains
