// Chainmail (Palmer et al. (2025) section 4.4, Fig. 6a): a 2D lattice of interlaced rings.
// Flat rings (axis z) sit at (2.9 i, 2.9 j, 0) R; each pair of x-neighbours is
// linked by a standing ring in the x-z plane (axis y) centred at their
// midpoint, each pair of y-neighbours by one in the y-z plane (axis x). A
// standing ring crosses the plane z = 0 at 0.45 R from the centres of the two
// flat rings it links, i.e. through their holes; for R = 1 and tube radius
// 0.1 the tubes keep a clearance (unit-tested) and the initial state is
// overlap-free.
#include "generators.hpp"

namespace grains::scenario_detail {

namespace {

constexpr double kRingSpacing = 2.9;  ///< centre distance of flat rings, in units of R

}  // namespace

std::vector<Body> chainmailBodies(const SimulationConfig& config) {
  const BodiesSection& b = config.bodies;
  const double R = b.major_radius;
  const double r = b.radius;
  const double step = kRingSpacing * R;
  const long nx = b.rings_x;
  const long ny = b.rings_y;
  // Centre of the lattice (midway between its extreme flat rings) on the region's centre.
  const Vec3 centre = 0.5 * (b.region.min_corner + b.region.max_corner);
  const Vec3 offset = centre - Vec3(0.5 * (nx - 1) * step, 0.5 * (ny - 1) * step, 0.0);
  const double mass = bodyMass(b, r);
  const Quat flat = Quat::Identity();
  const Quat axis_y = Quat::FromTwoVectors(Vec3::UnitZ(), Vec3::UnitY());  // ring in x-z
  const Quat axis_x = Quat::FromTwoVectors(Vec3::UnitZ(), Vec3::UnitX());  // ring in y-z

  std::vector<Body> bodies;
  bodies.reserve(static_cast<std::size_t>(nx * ny + (nx - 1) * ny + nx * (ny - 1)));
  auto add = [&](double x, double y, const Quat& orientation) {
    const auto gid = static_cast<GlobalId>(bodies.size());
    Body ring = makeTorus(gid, R, r, mass, offset + Vec3(x, y, 0.0), orientation);
    ring.velocity = b.initial_velocity;
    bodies.push_back(ring);
  };
  for (long j = 0; j < ny; ++j) {
    for (long i = 0; i < nx; ++i) add(i * step, j * step, flat);
  }
  for (long j = 0; j < ny; ++j) {
    for (long i = 0; i + 1 < nx; ++i) add((i + 0.5) * step, j * step, axis_y);
  }
  for (long j = 0; j + 1 < ny; ++j) {
    for (long i = 0; i < nx; ++i) add(i * step, (j + 0.5) * step, axis_x);
  }
  return bodies;
}

}  // namespace grains::scenario_detail
