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
// The miss can be taken over the bulk of the contacts (a quantile) instead of
// the worst one: in a large pile some contact somewhere is always changing,
// and measured by that one alone the whole pile would keep errors at the
// tolerance.
#include <algorithm>

namespace grains {

struct RestTolerance {
  /// A step whose warm start misses by r0 stops at reduction x r0 (never
  /// looser than the configured tolerance). 1: off, every step stops at the
  /// configured tolerance.
  double reduction = 1.0;
  /// ...but never tighter than floor x the configured tolerance.
  double floor = 1.0;
  /// The warm start's miss r0 is this quantile of the contacts' residuals
  /// (1: the worst contact)...
  double quantile = 1.0;
  /// ...as long as the worst contact misses by at most this many tolerances;
  /// a step that misses by more is in motion, and r0 is the worst miss.
  double quantile_limit = 30.0;
  /// When the miss is taken at the quantile, the step also stops at the
  /// quantile: once that share of the contacts meets the target and every
  /// contact the configured tolerance (instead of every contact the target),
  /// so the few contacts that change do not set the iterations of the step.
  /// Inert with quantile 1 or the rest tolerance off.
  bool bulk_stop = false;

  /// The values docs/solvers.md recommends for random piles (not the
  /// defaults: on degenerate contact sets, e.g. a crystal, they cost more
  /// iterations than they save).
  static RestTolerance recommended() { return RestTolerance{0.3, 0.01}; }

  bool enabled() const { return reduction < 1.0 && floor < 1.0; }
  /// Whether some solve may stop at the quantile (bulk_stop not inert).
  bool stopsAtBulk() const { return bulk_stop && enabled() && quantile < 1.0; }
  /// Factor on the configured tolerance for a solve whose warm start misses
  /// by `worst` at its worst contact and by `bulk` at the quantile.
  double scale(double worst, double bulk, double tolerance) const {
    if (!enabled() || !(tolerance > 0.0)) return 1.0;
    const double miss = atRest(worst, tolerance) ? bulk : worst;
    return std::clamp(reduction * miss / tolerance, floor, 1.0);
  }
  /// The quantile a solve whose warm start misses by `worst` stops at (1:
  /// the worst contact).
  double stopQuantile(double worst, double tolerance) const {
    return stopsAtBulk() && tolerance > 0.0 && atRest(worst, tolerance) ? quantile : 1.0;
  }

 private:
  bool atRest(double worst, double tolerance) const { return worst <= quantile_limit * tolerance; }
};

}  // namespace grains
