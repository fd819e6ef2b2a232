#include "grains/dynamics/relcp_constraints.hpp"

#include "grains/constraint/body_motion.hpp"

namespace grains {

std::vector<Contact> pulledBackConstraints(const std::vector<Contact>& overlaps,
                                           const std::vector<Body>& start_bodies,
                                           const IntermediateConfiguration& config, double dt,
                                           int generation) {
  const auto& moved = config.bodies();
  std::vector<Contact> out;
  out.reserve(overlaps.size());
  for (Contact c : overlaps) {
    ContactGeometry& g = c.geometry;
    const auto ib = static_cast<std::size_t>(c.body_b);
    const Vec3 arm_b = g.point_b - moved[ib].position;
    double approach = g.normal.dot(pointVelocity(config.twist(ib), arm_b));
    g.point_b = start_bodies[ib].position + arm_b;
    if (c.body_a >= 0) {
      const auto ia = static_cast<std::size_t>(c.body_a);
      const Vec3 arm_a = g.point_a - moved[ia].position;
      approach -= g.normal.dot(pointVelocity(config.twist(ia), arm_a));
      g.point_a = start_bodies[ia].position + arm_a;
    }
    g.gap -= dt * approach;
    c.generation = generation;
    c.key.sub = generation;
    out.push_back(c);
  }
  return out;
}

}  // namespace grains
