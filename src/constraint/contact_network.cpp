#include "grains/constraint/contact_network.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace grains {
namespace {

/// Centre of the body at `index` if it is still the body `gid`, else `fallback`.
Vec3 centerOf(const std::vector<Body>& bodies, int index, GlobalId gid, const Vec3& fallback) {
  if (index < 0 || static_cast<std::size_t>(index) >= bodies.size()) return fallback;
  const Body& b = bodies[static_cast<std::size_t>(index)];
  return b.gid == gid ? b.position : fallback;
}

}  // namespace

std::vector<NetworkLine> contactNetwork(const std::vector<Contact>& contacts,
                                        const std::vector<double>& impulses,
                                        const std::vector<Body>& bodies, double impulse_to_force) {
  if (contacts.empty()) return {};
  if (impulses.size() % contacts.size() != 0)
    throw std::invalid_argument("contactNetwork: " + std::to_string(impulses.size()) +
                                " impulses for " + std::to_string(contacts.size()) + " contacts");
  if (!(impulse_to_force > 0.0))
    throw std::invalid_argument("contactNetwork: impulse_to_force must be > 0");
  const std::size_t block = impulses.size() / contacts.size();
  std::vector<NetworkLine> lines;
  for (std::size_t k = 0; k < contacts.size(); ++k) {
    const double normal = impulses[k * block] / impulse_to_force;
    if (!(normal > 0.0)) continue;
    const Contact& c = contacts[k];
    NetworkLine line;
    line.wall = c.wall;
    line.gid_a = c.isWall() ? kNoBody : c.key.a;
    line.gid_b = c.key.b;
    line.point = 0.5 * (c.geometry.point_a + c.geometry.point_b);
    line.center_a = c.isWall() ? line.point : centerOf(bodies, c.body_a, c.key.a, line.point);
    line.center_b = centerOf(bodies, c.body_b, c.key.b, line.point);
    line.normal = c.geometry.normal;
    line.normal_force = normal;
    double tangential = 0.0;
    // Rows 1 and 2 are the sliding tangents (rolling and spinning torques,
    // rows 3-5, are not forces).
    for (std::size_t t = 1; t < std::min<std::size_t>(block, 3); ++t)
      tangential += impulses[k * block + t] * impulses[k * block + t];
    line.tangential_force = std::sqrt(tangential) / impulse_to_force;
    line.gap = c.geometry.gap;
    lines.push_back(line);
  }
  return lines;
}

}  // namespace grains
