#include "grains/config/simulation_config.hpp"

#include <algorithm>
#include <cmath>

namespace grains {

long SimulationSection::totalSteps() const {
  if (steps) return *steps;
  if (!end_time) return 0;
  // end_time / dt, rounded up, but a ratio within round-off of an integer counts as that integer.
  const double ratio = *end_time / dt;
  const double nearest = std::round(ratio);
  if (std::fabs(ratio - nearest) <= 1e-9 * std::max(1.0, nearest)) {
    return static_cast<long>(nearest);
  }
  return static_cast<long>(std::ceil(ratio));
}

}  // namespace grains
