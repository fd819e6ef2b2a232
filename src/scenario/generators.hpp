#pragma once
// Internal to src/scenario: the individual body generators and the per-body
// random streams they share.
#include "grains/config/simulation_config.hpp"
#include "grains/core/body.hpp"

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace grains::scenario_detail {

/// Independent random stream per (seed, gid, purpose): rank-independent.
enum class Stream : std::uint32_t { Radius = 1, Jitter = 2, Packing = 3 };
std::mt19937_64 makeStream(unsigned long seed, GlobalId gid, Stream purpose);
/// Uniform in [0, 1) from 53 random bits (portable, unlike std::uniform_real_distribution).
double uniform01(std::mt19937_64& rng);

/// Radius of body gid: radius * (1 + spread * u), u uniform in [-1, 1).
double bodyRadius(const BodiesSection& bodies, unsigned long seed, GlobalId gid);
/// bodies.mass, or density * 4/3 pi r^3.
double bodyMass(const BodiesSection& bodies, double radius);
/// bodies.radius * (1 + radius_spread).
double maxRadius(const BodiesSection& bodies);

/// "<source>: <key> = <value>: expected <what>".
[[noreturn]] void throwGeneratorError(const SimulationConfig& config, const std::string& key,
                                      const std::string& value, const std::string& expected);

std::vector<Body> latticeBodies(const SimulationConfig& config);
std::vector<Body> randomPackingBodies(const SimulationConfig& config);
/// Reads bodies.generator.file (relative paths resolve against config.base_dir).
std::vector<Body> csvBodies(const SimulationConfig& config);

}  // namespace grains::scenario_detail
