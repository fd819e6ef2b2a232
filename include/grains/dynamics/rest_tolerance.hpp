#pragma once
// How tightly each step's contact QP is solved. A step that stops just below
// the tolerance leaves velocity errors of about tolerance / dt; the next
// step's warm start then misses by as much again (it re-applies the impulses
// that cancelled the last step's error), so a resting pile jitters at the
// tolerance for ever and every step needs iterations. Solving a step that has
// to iterate at all down to a fraction of its warm start's residual lets the
// error decay from step to step, down to the floor (docs/solvers.md, "What
// the tolerance means, and piles at rest"). Resting steps still iterate a
// little: each stops just below the floor, and the next misses by as much.
#include <algorithm>

namespace grains {

struct RestTolerance {
  /// A step whose warm start misses by r0 stops at reduction x r0 (never
  /// looser than the configured tolerance). 1: off, every step stops at the
  /// configured tolerance.
  double reduction = 1.0;
  /// ...but never tighter than floor x the configured tolerance.
  double floor = 1.0;

  /// The values docs/solvers.md recommends for random piles (not the
  /// defaults: on degenerate contact sets, e.g. a crystal, they cost more
  /// iterations than they save).
  static RestTolerance recommended() { return RestTolerance{0.3, 0.01}; }

  bool enabled() const { return reduction < 1.0 && floor < 1.0; }
  /// Factor on the configured tolerance for a solve whose warm start has the
  /// residual `warm_residual`.
  double scale(double warm_residual, double tolerance) const {
    if (!enabled() || !(tolerance > 0.0)) return 1.0;
    return std::clamp(reduction * warm_residual / tolerance, floor, 1.0);
  }
};

}  // namespace grains
