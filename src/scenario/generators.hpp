#pragma once
// Internal to src/scenario: the individual body generators and the per-body
// random streams they share.
#include "grains/config/generated_shapes.hpp"
#include "grains/config/simulation_config.hpp"
#include "grains/core/body.hpp"

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace grains::scenario_detail {

/// Independent random stream per (seed, gid, purpose): rank-independent.
enum class Stream : std::uint32_t { Radius = 1, Jitter = 2, Packing = 3, Orientation = 4 };
std::mt19937_64 makeStream(unsigned long seed, GlobalId gid, Stream purpose);
/// Uniform in [0, 1) from 53 random bits (portable, unlike std::uniform_real_distribution).
double uniform01(std::mt19937_64& rng);

/// Radius of body gid: radius * (1 + spread * u), u uniform in [-1, 1).
double bodyRadius(const BodiesSection& bodies, unsigned long seed, GlobalId gid);
/// bodies.mass, or density times the solid volume of the body (generated_shapes.hpp).
double bodyMass(const BodiesSection& bodies, double radius);
/// Largest bounding radius of a generated body (radius * (1 + radius_spread)
/// for spheres; shapeBoundingRadius otherwise).
double maxBoundingRadius(const BodiesSection& bodies);
/// Uniformly distributed unit quaternion of body gid (Shoemake's method).
Quat randomOrientation(unsigned long seed, GlobalId gid);
/// Orientation of generated body gid: random if bodies.random_orientation, else identity.
Quat bodyOrientation(const SimulationConfig& config, GlobalId gid);

/// "<source>: <key> = <value>: expected <what>".
[[noreturn]] void throwGeneratorError(const SimulationConfig& config, const std::string& key,
                                      const std::string& value, const std::string& expected);

std::vector<Body> latticeBodies(const SimulationConfig& config);
std::vector<Body> randomPackingBodies(const SimulationConfig& config);
/// Interlaced rings in the x-y plane (chainmail_generator.cpp).
std::vector<Body> chainmailBodies(const SimulationConfig& config);
/// Reads bodies.generator.file (relative paths resolve against config.base_dir).
std::vector<Body> csvBodies(const SimulationConfig& config);

}  // namespace grains::scenario_detail
