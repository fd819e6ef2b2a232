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

}  // namespace grains
