// Simple cubic lattice filling the region bottom-up (z layers, then y rows,
// then x), optionally jittered per body. Sites are spaced by the bodies'
// bounding spheres, so any orientation is overlap-free.
#include <cmath>
#include <sstream>

#include "generators.hpp"

namespace grains::scenario_detail {

namespace {

/// Lattice sites of one horizontal layer (x, y), in row-major order.
std::vector<Eigen::Vector2d> layerSites(const Region& region, double margin, double spacing) {
  std::vector<Eigen::Vector2d> sites;
  constexpr double kSlack = 1e-9;
  if (region.kind == Region::Kind::Box) {
    const double x0 = region.min_corner.x() + margin;
    const double y0 = region.min_corner.y() + margin;
    const double x1 = region.max_corner.x() - margin;
    const double y1 = region.max_corner.y() - margin;
    if (x1 < x0 || y1 < y0) return sites;
    const long nx = static_cast<long>(std::floor((x1 - x0) / spacing + kSlack)) + 1;
    const long ny = static_cast<long>(std::floor((y1 - y0) / spacing + kSlack)) + 1;
    for (long j = 0; j < ny; ++j) {
      for (long i = 0; i < nx; ++i) sites.emplace_back(x0 + i * spacing, y0 + j * spacing);
    }
    return sites;
  }
  // Cylinder: sites centred on the axis, within radius - margin of it.
  const double reach = region.radius - margin;
  if (reach < 0.0) return sites;
  const long n = static_cast<long>(std::floor(reach / spacing + kSlack));
  const double limit = reach * reach * (1.0 + kSlack);
  for (long j = -n; j <= n; ++j) {
    for (long i = -n; i <= n; ++i) {
      const double dx = i * spacing;
      const double dy = j * spacing;
      if (dx * dx + dy * dy <= limit) {
        sites.emplace_back(region.center.x() + dx, region.center.y() + dy);
      }
    }
  }
  return sites;
}

}  // namespace

std::vector<Body> latticeBodies(const SimulationConfig& config) {
  const BodiesSection& b = config.bodies;
  const double r_max = maxBoundingRadius(b);
  const double spacing = b.spacing > 0.0 ? b.spacing : 2.5 * r_max;
  // Each coordinate moves by at most half the gap times jitter, so neighbours never overlap.
  const double max_shift = b.jitter * 0.5 * (spacing - 2.0 * r_max);
  const double margin = r_max + max_shift;

  const std::vector<Eigen::Vector2d> sites = layerSites(b.region, margin, spacing);
  const double z0 = b.region.min_corner.z() + margin;
  const double z1 = b.region.max_corner.z() - margin;
  const long layers = z1 < z0 ? 0 : static_cast<long>(std::floor((z1 - z0) / spacing + 1e-9)) + 1;
  const long capacity = static_cast<long>(sites.size()) * layers;
  if (b.count > capacity) {
    std::ostringstream expected;
    expected << "at most " << capacity << " bodies: the region holds " << sites.size()
             << " lattice sites per layer x " << layers << " layers at spacing " << spacing
             << " (use a larger bodies.generator.region or a smaller spacing)";
    throwGeneratorError(config, "bodies.generator.count", std::to_string(b.count), expected.str());
  }

  std::vector<Body> bodies;
  bodies.reserve(static_cast<std::size_t>(b.count));
  for (GlobalId gid = 0; gid < b.count; ++gid) {
    const long layer = static_cast<long>(gid / static_cast<GlobalId>(sites.size()));
    const Eigen::Vector2d& site = sites[static_cast<std::size_t>(gid) % sites.size()];
    Vec3 position(site.x(), site.y(), z0 + layer * spacing);
    if (max_shift > 0.0) {
      std::mt19937_64 rng = makeStream(config.simulation.seed, gid, Stream::Jitter);
      for (int k = 0; k < 3; ++k) position[k] += max_shift * (2.0 * uniform01(rng) - 1.0);
    }
    const double radius = bodyRadius(b, config.simulation.seed, gid);
    Body body =
        makeShapeBody(b, gid, radius, bodyMass(b, radius), position, bodyOrientation(config, gid));
    body.velocity = b.initial_velocity;
    bodies.push_back(body);
  }
  return bodies;
}

}  // namespace grains::scenario_detail
