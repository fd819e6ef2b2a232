#include "grains/constraint/wall_loads.hpp"

#include "grains/constraint/contact_system.hpp"

namespace grains {

std::vector<WallLoadTerm> wallLoadTerms(const std::vector<Contact>& contacts,
                                        const std::vector<double>& multipliers, int block,
                                        const std::vector<Wall>& walls,
                                        double to_impulse_per_force) {
  std::vector<WallLoadTerm> terms;
  const double scale = 1.0 / to_impulse_per_force;
  for (std::size_t ci = 0; ci < contacts.size(); ++ci) {
    const Contact& c = contacts[ci];
    if (!c.isWall()) continue;
    Vec3 directions[kMaxBlockSize];
    contactRowDirections(c.geometry.normal, block, directions);
    Vec3 on_body = Vec3::Zero(), couple = Vec3::Zero();
    const double* gamma = multipliers.data() + ci * static_cast<std::size_t>(block);
    for (int r = 0; r < block; ++r) (r < 3 ? on_body : couple) += gamma[r] * directions[r];
    const Wall& w = walls[static_cast<std::size_t>(c.wall)];
    WallLoadTerm term;
    term.wall = c.wall;
    term.load.force = -scale * on_body;
    term.load.torque = (c.geometry.point_a - w.pivotNow()).cross(term.load.force) - scale * couple;
    terms.push_back(term);
  }
  return terms;
}

std::vector<WallLoad> wallLoads(const std::vector<Contact>& contacts,
                                const std::vector<double>& multipliers, int block,
                                const std::vector<Wall>& walls, double to_impulse_per_force) {
  std::vector<WallLoad> loads(walls.size());
  for (const WallLoadTerm& t :
       wallLoadTerms(contacts, multipliers, block, walls, to_impulse_per_force)) {
    WallLoad& load = loads[static_cast<std::size_t>(t.wall)];
    load.force += t.load.force;
    load.torque += t.load.torque;
  }
  return loads;
}

}  // namespace grains
