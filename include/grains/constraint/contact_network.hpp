#pragma once
// The contact-force network of a step for output (docs/visualisation.md):
// one line per contact that carries a positive normal force, from the centre
// of body a through the contact point to the centre of body b (a wall
// contact starts at the contact point). Each contact is owned by exactly one
// rank (the owner of its lower-GID body), so the ranks' lines never repeat.
#include "grains/constraint/contact.hpp"
#include "grains/core/body.hpp"

#include <vector>

namespace grains {

struct NetworkLine {
  GlobalId gid_a = kNoBody;  ///< kNoBody for a wall contact
  GlobalId gid_b = kNoBody;
  int wall = -1;                 ///< wall index, or -1
  Vec3 center_a = Vec3::Zero();  ///< body a's centre (wall contact: the contact point)
  Vec3 point = Vec3::Zero();     ///< midpoint of the two surface points
  Vec3 center_b = Vec3::Zero();
  Vec3 normal = Vec3::UnitZ();    ///< from a to b
  double normal_force = 0.0;      ///< [N], > 0
  double tangential_force = 0.0;  ///< magnitude of the friction force [N]
  double gap = 0.0;               ///< at detection [m]
};

/// The lines of `contacts` with impulses `impulses` (block values per
/// contact: normal, then tangents, then with rolling resistance the rolling
/// and spinning torques; as TimeStepper::lastImpulses()), divided
/// by `impulse_to_force` (dt for impulses, 1 for overdamped forces). Body
/// indices refer to `bodies`; an index that no longer names the contact's
/// body (e.g. after cell division) puts that end at the contact point.
std::vector<NetworkLine> contactNetwork(const std::vector<Contact>& contacts,
                                        const std::vector<double>& impulses,
                                        const std::vector<Body>& bodies, double impulse_to_force);

}  // namespace grains
