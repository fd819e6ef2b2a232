#pragma once
// One row of metrics.csv from a supervised step (docs/output.md lists the
// columns).
#include "grains/app/step_supervisor.hpp"
#include "grains/io/metrics_writer.hpp"

namespace grains {

/// `wall` is the step's wall time [s] (slowest rank), `envelope` the
/// detection distance the step used [m].
MetricsRow stepMetricsRow(long step, double time, const SupervisedStep& done, double wall,
                          double envelope);

/// Appends wall_<name>_fx, _fy, _fz, _tx, _ty, _tz per load name of `walls`
/// (in the order the names first appear; walls sharing a name are summed) from
/// the step's `loads` (one per wall; missing ones count as zero). Characters a
/// CSV header cannot hold become '_'.
void appendWallLoadColumns(MetricsRow& row, const std::vector<Wall>& walls,
                           const std::vector<WallLoad>& loads);

}  // namespace grains
