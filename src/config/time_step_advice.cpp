#include "grains/config/time_step_advice.hpp"

#include "grains/core/text.hpp"

#include <algorithm>
#include <limits>

namespace grains {

double smallestBodySize(const Body& body) {
  return body.shape == ShapeKind::Ellipsoid ? body.semi_axes.minCoeff() : body.radius;
}

std::optional<std::string> largeTimeStepWarning(const SimulationConfig& config,
                                                const std::vector<Body>& bodies) {
  if (config.simulation.dynamics != DynamicsKind::Inertial || bodies.empty()) return std::nullopt;
  double size = std::numeric_limits<double>::infinity();
  for (const Body& b : bodies) size = std::min(size, smallestBodySize(b));
  const double dt = config.simulation.dt;
  // After one step from rest the velocity is g dt, the displacement g dt^2.
  const double fall = config.simulation.gravity.norm() * dt * dt;
  if (!(fall > size)) return std::nullopt;
  return "simulation.dt = " + formatNumber("%g", dt) + " s is large for these bodies: falling " +
         "from rest, a body moves |g| dt^2 = " + formatNumber("%.3g", fall) +
         " m in its first step, more than the smallest body size (" + formatNumber("%.3g", size) +
         " m); contacts are found once per step (a step whose contact envelope spans all bodies "
         "ends the run, docs/reliability.md)";
}

}  // namespace grains
