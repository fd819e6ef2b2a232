#include "grains/dynamics/growth.hpp"
#include "grains/geometry/shape_traits.hpp"

#include <Eigen/Geometry>

#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace grains {
namespace {

/// A well-mixed 64-bit value of (seed, key): the random turn of a daughter
/// depends on its id only, so it is the same on any number of ranks.
std::uint64_t mixBits(std::uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  x ^= x >> 31;
  return x;
}

/// Uniform in [0, 1) from (seed, key, stream).
double uniformOf(std::uint64_t seed, std::uint64_t key, std::uint64_t stream) {
  const std::uint64_t bits = mixBits(mixBits(seed ^ 0x9e3779b97f4a7c15ULL) + key * 4 + stream);
  return static_cast<double>(bits >> 11) * 0x1.0p-53;
}

Vec3 axisOf(const Body& b) { return b.orientation * Vec3::UnitZ(); }

}  // namespace

double tipToTipLength(const Body& b) { return 2.0 * (b.half_length + b.radius); }

Body resizedSpherocylinder(const Body& b, double length) {
  auto volume = [](double r, double h) {
    return kPi * r * r * (2.0 * h) + 4.0 / 3.0 * kPi * r * r * r;
  };
  const double half_length = 0.5 * length - b.radius;
  if (!(half_length >= 0.0)) {
    std::ostringstream msg;
    msg << "spherocylinder " << b.gid << " of radius " << b.radius
        << " cannot have tip-to-tip length " << length << " (needs at least the diameter "
        << 2.0 * b.radius << ")";
    throw std::invalid_argument(msg.str());
  }
  const double density = b.mass / volume(b.radius, b.half_length);
  Body out = makeSpherocylinder(b.gid, b.radius, half_length,
                                density * volume(b.radius, half_length), b.position);
  // Keep everything else of the state (orientation, velocities, growth, ...).
  Body resized = b;
  resized.half_length = out.half_length;
  resized.mass = out.mass;
  resized.inertia = out.inertia;
  return resized;
}

void growBodies(std::vector<Body>& bodies, std::size_t count, double dt) {
  for (std::size_t i = 0; i < count; ++i) {
    Body& b = bodies[i];
    if (b.growth_rate <= 0.0 || b.shape != ShapeKind::Spherocylinder) continue;
    b = resizedSpherocylinder(b, tipToTipLength(b) * std::exp(b.growth_rate * dt));
  }
}

GlobalId daughterId(GlobalId parent, int which, GlobalId roots) {
  if (roots < 1 || parent < 0 || (which != 0 && which != 1))
    throw std::invalid_argument("daughterId: needs roots >= 1, parent >= 0 and which 0 or 1");
  const GlobalId root = parent % roots;
  const GlobalId code = parent / roots;
  const GlobalId max_code = (std::numeric_limits<GlobalId>::max() - root) / roots;
  if (code > (max_code - 2) / 2) {
    std::ostringstream msg;
    msg << "body ids exhausted: cell " << parent << " (descendant of initial body " << root
        << " of " << roots << ") cannot divide again; ids are root + N * heap index and the "
        << "heap index doubles with every generation";
    throw std::overflow_error(msg.str());
  }
  return root + roots * (2 * code + 1 + which);
}

Body daughterCell(const Body& parent, int which, const GrowthSettings& settings) {
  const double length = tipToTipLength(parent);
  const Vec3 axis = axisOf(parent);
  Body d = resizedSpherocylinder(parent, 0.5 * length);
  d.gid = daughterId(parent.gid, which, settings.roots);
  d.generation = parent.generation + 1;
  d.position = parent.position + (which == 0 ? -0.25 : 0.25) * length * axis;
  // Monolayer: the axis is in the plane up to quaternion round-off; keep z exact.
  if (settings.planar) d.position.z() = parent.position.z();
  d.contact_force = Vec3::Zero();
  d.contact_torque = Vec3::Zero();
  d.num_contacts = 0;
  if (settings.reorientation > 0.0) {
    const auto key = static_cast<std::uint64_t>(d.gid);
    const double angle = settings.reorientation * (2.0 * uniformOf(settings.seed, key, 0) - 1.0);
    Vec3 turn_axis = Vec3::UnitZ();
    if (!settings.planar) {
      // A uniformly random direction perpendicular to the cell's axis.
      const Vec3 e1 = axis.unitOrthogonal();
      const Vec3 e2 = axis.cross(e1);
      const double phi = 2.0 * kPi * uniformOf(settings.seed, key, 1);
      turn_axis = std::cos(phi) * e1 + std::sin(phi) * e2;
    }
    d.orientation = (Quat(Eigen::AngleAxisd(angle, turn_axis)) * parent.orientation).normalized();
  }
  return d;
}

long divideCells(std::vector<Body>& bodies, const GrowthSettings& settings) {
  long divisions = 0;
  for (const Body& b : bodies)
    if (b.growth_rate > 0.0 && tipToTipLength(b) >= settings.division_length) ++divisions;
  if (divisions == 0) return 0;
  std::vector<Body> next;
  next.reserve(bodies.size() + static_cast<std::size_t>(divisions));
  for (const Body& b : bodies) {
    if (b.growth_rate > 0.0 && tipToTipLength(b) >= settings.division_length) {
      next.push_back(daughterCell(b, 0, settings));
      next.push_back(daughterCell(b, 1, settings));
    } else {
      next.push_back(b);
    }
  }
  bodies = std::move(next);
  return divisions;
}

}  // namespace grains
