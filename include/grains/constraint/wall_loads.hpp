#pragma once
// The force and torque the bodies exert on each wall in one step, from the
// contact multipliers: a wall contact's impulse acts on the body (side b),
// so the wall takes its opposite at the contact point on the wall.
#include "grains/constraint/contact.hpp"
#include "grains/core/wall.hpp"

#include <vector>

namespace grains {

struct WallLoad {
  Vec3 force = Vec3::Zero();   ///< [N]
  Vec3 torque = Vec3::Zero();  ///< about the wall's pivot [N m]
};

/// One wall contact's share of its wall's load.
struct WallLoadTerm {
  int wall = 0;  ///< index into the walls
  WallLoad load;
};

/// The load each of this rank's wall contacts puts on its wall (arguments as
/// for wallLoads), in contact order: the terms of the sums, for summing them
/// reproducibly over the ranks.
std::vector<WallLoadTerm> wallLoadTerms(const std::vector<Contact>& contacts,
                                        const std::vector<double>& multipliers, int block,
                                        const std::vector<Wall>& walls,
                                        double to_impulse_per_force);

/// Per wall (index into `walls`, as placed for the step), the load of this
/// rank's contacts: `multipliers` holds `block` values per contact (normal,
/// tangents, rolling, spinning), divided by `to_impulse_per_force` (dt for
/// impulses, 1 for forces). The torque is about each wall's pivot at the
/// step's start (Wall::pivotNow).
std::vector<WallLoad> wallLoads(const std::vector<Contact>& contacts,
                                const std::vector<double>& multipliers, int block,
                                const std::vector<Wall>& walls, double to_impulse_per_force);

}  // namespace grains
