#include "grains/config/simulation_config.hpp"

#include "grains/config/config_error.hpp"
#include "grains/core/text.hpp"

#include <algorithm>
#include <cmath>
#include <string>

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

PeriodicBox periodicBoxOf(const DomainSection& domain) {
  PeriodicBox box;
  if (!domain.bounded) return box;
  box.periodic = domain.periodic;
  box.lower = domain.min;
  box.upper = domain.max;
  return box;
}

void checkPeriodicBoxFits(const DomainSection& domain, double max_radius) {
  const PeriodicBox box = periodicBoxOf(domain);
  for (int d = 0; d < 3; ++d) {
    if (!box.periodic[static_cast<std::size_t>(d)]) continue;
    const double least = 4.0 * max_radius;
    if (box.length(d) >= least) continue;
    const std::string axis(1, "xyz"[d]);
    throw ConfigError("domain.max: " + formatNumber("%g", domain.max[d]) + " along periodic axis " +
                      axis + " makes the box " + formatNumber("%g", box.length(d)) +
                      " m long; expected at least two body diameters (" +
                      formatNumber("%g", least) + " m, the largest bounding diameter " +
                      formatNumber("%g", 2.0 * max_radius) + " m): domain.max." + axis +
                      " >= " + formatNumber("%g", domain.min[d] + least));
  }
}

}  // namespace grains
