// Dispatch to the configured generator, shared helpers, and the split of the
// global body list among ranks.
#include "grains/scenario/body_generator.hpp"

#include <cmath>
#include <sstream>
#include <stdexcept>

#include "generators.hpp"

namespace grains {

namespace scenario_detail {

std::mt19937_64 makeStream(unsigned long seed, GlobalId gid, Stream purpose) {
  const auto g = static_cast<std::uint64_t>(gid);
  std::seed_seq seq{static_cast<std::uint32_t>(seed & 0xffffffffUL),
                    static_cast<std::uint32_t>((static_cast<std::uint64_t>(seed) >> 32)),
                    static_cast<std::uint32_t>(g & 0xffffffffULL),
                    static_cast<std::uint32_t>(g >> 32), static_cast<std::uint32_t>(purpose)};
  return std::mt19937_64(seq);
}

double uniform01(std::mt19937_64& rng) {
  return static_cast<double>(rng() >> 11) * (1.0 / 9007199254740992.0);  // 2^-53
}

double bodyRadius(const BodiesSection& bodies, unsigned long seed, GlobalId gid) {
  if (bodies.radius_spread == 0.0) return bodies.radius;
  std::mt19937_64 rng = makeStream(seed, gid, Stream::Radius);
  return bodies.radius * (1.0 + bodies.radius_spread * (2.0 * uniform01(rng) - 1.0));
}

double bodyMass(const BodiesSection& bodies, double radius) {
  if (bodies.mass) return *bodies.mass;
  return bodies.density.value_or(0.0) * shapeVolume(bodies, radius);
}

double maxBoundingRadius(const BodiesSection& bodies) {
  return shapeBoundingRadius(bodies, bodies.radius * (1.0 + bodies.radius_spread));
}

Quat randomOrientation(unsigned long seed, GlobalId gid) {
  // Shoemake, "Uniform random rotations" (Graphics Gems III): uniform on SO(3).
  std::mt19937_64 rng = makeStream(seed, gid, Stream::Orientation);
  const double u1 = uniform01(rng);
  const double u2 = uniform01(rng);
  const double u3 = uniform01(rng);
  const double two_pi = 2.0 * kPi;
  const double a = std::sqrt(1.0 - u1);
  const double b = std::sqrt(u1);
  return Quat(b * std::cos(two_pi * u3), a * std::sin(two_pi * u2), a * std::cos(two_pi * u2),
              b * std::sin(two_pi * u3))
      .normalized();
}

Quat bodyOrientation(const SimulationConfig& config, GlobalId gid) {
  if (!config.bodies.random_orientation) return Quat::Identity();
  return randomOrientation(config.simulation.seed, gid);
}

namespace {

/// An extra_bodies entry as a Body: `orientation` if given, else the body z
/// axis along `axis`.
Body explicitBody(const ExplicitBody& e, GlobalId gid) {
  const Quat rotation = e.orientation ? e.orientation->normalized()
                                      : Quat::FromTwoVectors(Vec3::UnitZ(), e.axis.normalized());
  ShapeSize size;
  size.radius = e.radius;
  size.half_length = e.half_length;
  size.semi_axes = e.semi_axes;
  size.major_radius = e.major_radius;
  Body b = makeBody(e.shape, size, gid, e.mass, e.position);
  b.orientation = rotation;
  b.velocity = e.velocity;
  b.external_force = e.force;
  return b;
}

}  // namespace

void throwGeneratorError(const SimulationConfig& config, const std::string& key,
                         const std::string& value, const std::string& expected) {
  throw ConfigError(config.source + ": " + key + " = " + value + ": expected " + expected);
}

}  // namespace scenario_detail

std::vector<Body> generateAllBodies(const SimulationConfig& config) {
  using namespace scenario_detail;
  std::vector<Body> bodies;
  switch (config.bodies.generator) {
    case GeneratorKind::Lattice:
      bodies = latticeBodies(config);
      break;
    case GeneratorKind::RandomPacking:
      bodies = randomPackingBodies(config);
      break;
    case GeneratorKind::File:
      bodies = csvBodies(config);
      break;
    case GeneratorKind::Chainmail:
      bodies = chainmailBodies(config);
      break;
  }
  for (const ExplicitBody& e : config.extra_bodies) {
    bodies.push_back(explicitBody(e, static_cast<GlobalId>(bodies.size())));
  }
  // Only rods grow (Palmer et al. (2025) section 4.3); generated and explicit alike.
  for (Body& b : bodies) {
    if (b.shape == ShapeKind::Spherocylinder) b.growth_rate = config.growth.rate;
  }
  try {
    checkInitialOverlaps(bodies, config.walls, periodicBoxOf(config.domain));
  } catch (const ConfigError& e) {
    throw ConfigError(config.source + ": initial configuration: " + e.what());
  }
  return bodies;
}

std::vector<Body> generateBodies(const SimulationConfig& config, int rank, int nranks) {
  if (nranks < 1 || rank < 0 || rank >= nranks) {
    throw std::invalid_argument("generateBodies: rank " + std::to_string(rank) + " of " +
                                std::to_string(nranks) + " ranks; expected 0 <= rank < nranks");
  }
  std::vector<Body> all = generateAllBodies(config);
  const auto n = static_cast<long long>(all.size());
  const long long begin = n * rank / nranks;
  const long long end = n * (rank + 1) / nranks;
  return std::vector<Body>(all.begin() + begin, all.begin() + end);
}

}  // namespace grains
