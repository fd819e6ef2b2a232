#pragma once
// One unilateral contact constraint owned by this rank.
#include "grains/geometry/contact_geometry.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>

namespace grains {

/// Identifies a contact across steps (for warm starting): two body GIDs with
/// a < b, or for a wall contact a = -(wall index + 1) and b the body's GID;
/// `sub` tells apart several constraints of one pair (multisphere: the
/// sub-sphere pair; ReLCP: the recursion that generated it).
struct ContactKey {
  GlobalId a = kNoBody;
  GlobalId b = kNoBody;
  std::int64_t sub = 0;
  bool operator==(const ContactKey& o) const { return a == o.a && b == o.b && sub == o.sub; }
  bool operator<(const ContactKey& o) const {
    return a < o.a || (a == o.a && (b < o.b || (b == o.b && sub < o.sub)));
  }
};

struct ContactKeyHash {
  std::size_t operator()(const ContactKey& k) const {
    const auto ha = std::hash<GlobalId>{}(k.a);
    const auto hb = std::hash<GlobalId>{}(k.b) ^ (std::hash<std::int64_t>{}(k.sub) << 1);
    return ha ^ (hb + 0x9e3779b97f4a7c15ULL + (ha << 6) + (ha >> 2));
  }
};

struct Contact {
  ContactKey key;
  int wall = -1;    ///< wall index for a wall contact, else -1
  int body_a = -1;  ///< index into the domain's body array (-1 for a wall)
  int body_b = -1;  ///< index into the domain's body array
  ContactGeometry geometry;
  double mu = 0.0;
  /// A wall's own rolling and spinning resistance coefficients
  /// (walls.N.friction); negative: the run's (contact.rolling_friction,
  /// contact.spinning_friction).
  double rolling_friction = -1.0;
  double spinning_friction = -1.0;
  /// 0: found at the start of the step; i > 0: appended by ReLCP recursion i,
  /// with geometry pulled back to the start configuration (Palmer et al. (2025) eq. 22).
  int generation = 0;
  /// A moving wall's surface velocity at the contact point and its angular
  /// velocity [m/s, rad/s]: the constraint measures the body's velocity
  /// relative to them (zero for bodies and resting walls).
  Vec3 wall_velocity = Vec3::Zero();
  Vec3 wall_angular_velocity = Vec3::Zero();

  bool isWall() const { return wall >= 0; }
};

}  // namespace grains
