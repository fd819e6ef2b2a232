// Random sequential addition: bodies are dropped one by one at uniformly
// random positions inside the region and kept if their bounding spheres
// overlap nothing (so any orientation is overlap-free). With
// bodies.volume_fraction the region is a cube sized to that volume fraction.
#include <cmath>
#include <sstream>

#include "cell_grid.hpp"
#include "generators.hpp"

namespace grains::scenario_detail {

namespace {

constexpr long kMaxAttemptsPerBody = 20000;
/// Random sequential addition of equal spheres jams near 38% volume fraction.
constexpr double kMaxVolumeFraction = 0.38;

double regionVolume(const Region& region) {
  const double height = region.max_corner.z() - region.min_corner.z();
  if (region.kind == Region::Kind::Cylinder) return kPi * region.radius * region.radius * height;
  const Vec3 extent = region.max_corner - region.min_corner;
  return extent.x() * extent.y() * extent.z();
}

/// Uniform random centre for a sphere of radius r lying entirely inside the region.
Vec3 samplePosition(const Region& region, double r, std::mt19937_64& rng) {
  const double z = region.min_corner.z() + r +
                   (region.max_corner.z() - region.min_corner.z() - 2.0 * r) * uniform01(rng);
  if (region.kind == Region::Kind::Box) {
    const double x = region.min_corner.x() + r +
                     (region.max_corner.x() - region.min_corner.x() - 2.0 * r) * uniform01(rng);
    const double y = region.min_corner.y() + r +
                     (region.max_corner.y() - region.min_corner.y() - 2.0 * r) * uniform01(rng);
    return Vec3(x, y, z);
  }
  const double reach = region.radius - r;
  for (;;) {  // rejection from the square: accepts with probability pi/4
    const double dx = reach * (2.0 * uniform01(rng) - 1.0);
    const double dy = reach * (2.0 * uniform01(rng) - 1.0);
    if (dx * dx + dy * dy <= reach * reach) {
      return Vec3(region.center.x() + dx, region.center.y() + dy, z);
    }
  }
}

bool fits(const Region& region, double r) {
  const Vec3 extent = region.max_corner - region.min_corner;
  if (extent.z() < 2.0 * r) return false;
  if (region.kind == Region::Kind::Cylinder) return region.radius >= r;
  return extent.x() >= 2.0 * r && extent.y() >= 2.0 * r;
}

/// The cube centred on the region's centre in which `count` bodies of solid
/// volume `volume` each fill the fraction phi: side (count V / phi)^(1/3).
Region volumeFractionCube(const Region& region, long count, double volume, double phi) {
  const double side = std::cbrt(static_cast<double>(count) * volume / phi);
  const Vec3 centre = 0.5 * (region.min_corner + region.max_corner);
  Region cube;
  cube.kind = Region::Kind::Box;
  cube.min_corner = centre - Vec3::Constant(0.5 * side);
  cube.max_corner = centre + Vec3::Constant(0.5 * side);
  return cube;
}

}  // namespace

std::vector<Body> randomPackingBodies(const SimulationConfig& config) {
  const BodiesSection& b = config.bodies;
  const unsigned long seed = config.simulation.seed;
  const double r_max = maxBoundingRadius(b);
  const Region region =
      b.volume_fraction
          ? volumeFractionCube(b.region, b.count, shapeVolume(b, b.radius), *b.volume_fraction)
          : b.region;
  const std::string region_name =
      b.volume_fraction ? "the volume_fraction cube" : "bodies.generator.region";
  if (!fits(region, r_max)) {
    std::ostringstream value;
    std::ostringstream expected;
    value << b.radius;
    expected << "bodies (bounding radius up to " << r_max << ") that fit inside " << region_name;
    throwGeneratorError(config, "bodies.radius", value.str(), expected.str());
  }

  // Bodies are placed by their bounding spheres: those must stay below the
  // random sequential addition jamming limit.
  std::vector<double> radii(static_cast<std::size_t>(b.count));
  double bounding_volume = 0.0;
  for (GlobalId gid = 0; gid < b.count; ++gid) {
    const double r = bodyRadius(b, seed, gid);
    radii[static_cast<std::size_t>(gid)] = r;
    const double reach = shapeBoundingRadius(b, r);
    bounding_volume += 4.0 / 3.0 * kPi * reach * reach * reach;
  }
  const double fraction = bounding_volume / regionVolume(region);
  if (fraction > kMaxVolumeFraction) {
    std::ostringstream expected;
    expected << "a value whose volume fraction of bounding spheres is <= " << kMaxVolumeFraction
             << " in " << region_name << " for random packing (they fill " << fraction << ")";
    if (b.volume_fraction) {
      std::ostringstream value;
      value << *b.volume_fraction;
      throwGeneratorError(config, "bodies.volume_fraction", value.str(), expected.str());
    }
    throwGeneratorError(config, "bodies.generator.count", std::to_string(b.count), expected.str());
  }

  std::vector<Body> bodies;
  bodies.reserve(radii.size());
  CellGrid grid(2.0 * r_max);
  std::mt19937_64 rng = makeStream(seed, 0, Stream::Packing);
  for (GlobalId gid = 0; gid < b.count; ++gid) {
    const double r = radii[static_cast<std::size_t>(gid)];
    const double bound = shapeBoundingRadius(b, r);
    bool placed = false;
    for (long attempt = 0; attempt < kMaxAttemptsPerBody && !placed; ++attempt) {
      const Vec3 p = samplePosition(region, bound, rng);
      bool free = true;
      grid.forNeighbours(p, [&](std::size_t j) {
        const Body& other = bodies[j];
        const double reach = bound + shapeBoundingRadius(b, other.radius);
        if ((other.position - p).squaredNorm() < reach * reach) free = false;
      });
      if (!free) continue;
      Body body = makeShapeBody(b, gid, r, bodyMass(b, r), p, bodyOrientation(config, gid));
      body.velocity = b.initial_velocity;
      grid.insert(bodies.size(), p);
      bodies.push_back(body);
      placed = true;
    }
    if (!placed) {
      std::ostringstream expected;
      expected << "a count that random packing can place: body " << gid << " found no free spot in "
               << kMaxAttemptsPerBody << " attempts in " << region_name
               << " (use fewer bodies or a larger region)";
      throwGeneratorError(config, "bodies.generator.count", std::to_string(b.count),
                          expected.str());
    }
  }
  return bodies;
}

}  // namespace grains::scenario_detail
