#pragma once
// Advice on the time step against the scenario's scale, for `grains validate`.
#include "grains/config/simulation_config.hpp"
#include "grains/core/body.hpp"

#include <optional>
#include <string>
#include <vector>

namespace grains {

/// The smallest size of a body: its radius (sphere, cylinder, rod, torus
/// tube) or an ellipsoid's smallest semi-axis.
double smallestBodySize(const Body& body);

/// A warning when, with inertial dynamics, a body falling freely from rest
/// moves farther than the smallest body size in its first step
/// (|g| dt^2 > size): contacts are found once per step, so such a step
/// resolves little. nullopt otherwise (or without gravity or bodies).
std::optional<std::string> largeTimeStepWarning(const SimulationConfig& config,
                                                const std::vector<Body>& bodies);

}  // namespace grains
