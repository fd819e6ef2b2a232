#pragma once
// Broad + narrow phase: the contacts this rank owns. Ownership rule (DESIGN.md):
// a body-body contact belongs to the rank owning the lower-GID body, a wall
// contact to the body's owner.
#include "grains/constraint/body_motion.hpp"
#include "grains/constraint/contact.hpp"
#include "grains/core/periodic_box.hpp"
#include "grains/core/wall.hpp"
#include "grains/parallel/body_domain.hpp"

#include <vector>

namespace grains {

struct DetectionSettings {
  double envelope = 0.0;  ///< speculative contacts are kept up to this gap
  double mu = 0.0;
  /// Predicted contacts: with velocities given (one twist per body of the
  /// searched array, owned then ghosts), a contact farther apart than the
  /// envelope is kept too when its gap, closing at the rate those velocities
  /// give at the contact points, would reach the envelope within `horizon`
  /// seconds. Pairs are searched up to `reach` (>= envelope) apart.
  const std::vector<Twist>* velocities = nullptr;
  double horizon = 0.0;  ///< [s]
  double reach = 0.0;    ///< [m] broad-phase distance, at least the envelope
  /// Sort the contacts by key. Off, they stay in collection order (walls,
  /// then pairs by body index), which follows the bodies in memory; the
  /// domain overload turns it off for parallel.body_order: spatial.
  bool key_order = true;
  /// Periodic axes: a pair is kept only as its nearest image (the body
  /// array's images carry shifted centres); the domain overload sets it.
  PeriodicBox periodic{};
};

/// Where detection spends its time (the run's timing table): the neighbour
/// search (cell lists) and the rest, the narrow phase.
struct DetectionTimes {
  double broad = 0.0;   ///< [s] added by each call
  double narrow = 0.0;  ///< [s]
};

/// Contacts with gap <= envelope (and the predicted ones, see
/// DetectionSettings), sorted by key (deterministic for any thread
/// or rank count) for parallel.body_order: gid, in body order (deterministic
/// for any thread count) for spatial.
std::vector<Contact> detectContacts(const BodyDomain& domain, const std::vector<Wall>& walls,
                                    const DetectionSettings& settings,
                                    DetectionTimes* times = nullptr);

// Building blocks shared by every constraint generator.
/// Orders a neighbour pair (i, j) as side a = lower GID, side b; false when
/// side a is a ghost (another rank owns the contact).
bool ownedPairSides(const std::vector<Body>& bodies, std::size_t num_owned, int i, int j, int& a,
                    int& b);
/// Minimum image convention: false when bodies a and b (side a the lower
/// GID) are images farther apart than another image of the pair along a
/// periodic axis, or a body and its own image.
inline bool nearestImagePair(const std::vector<Body>& bodies, int a, int b,
                             const PeriodicBox& periodic) {
  return !periodic.any() || periodic.isNearestImage(bodies[static_cast<std::size_t>(a)].position,
                                                    bodies[static_cast<std::size_t>(b)].position);
}
/// Contact between local bodies a and b (a the lower GID) with key sub-index `sub`.
Contact pairContact(const std::vector<Body>& bodies, int a, int b, const ContactGeometry& g,
                    double mu, std::int64_t sub = 0);
/// Contact of wall `wall` (index into `walls`) with local body `body`; a
/// moving wall's surface velocity at the contact point goes with it. `mu` is
/// the run's coefficient; the wall's own friction (Wall::friction) replaces it.
Contact wallContact(const std::vector<Body>& bodies, const std::vector<Wall>& walls, int wall,
                    int body, const ContactGeometry& g, double mu, std::int64_t sub = 0);
/// Sorts by key: the order is the same for any thread or rank count.
void sortByKey(std::vector<Contact>& contacts);

/// The same on any body array laid out like a domain's (the first num_owned
/// owned, then ghosts), e.g. bodies moved to an intermediate configuration.
std::vector<Contact> detectContacts(const std::vector<Body>& bodies, std::size_t num_owned,
                                    const std::vector<Wall>& walls,
                                    const DetectionSettings& settings,
                                    DetectionTimes* times = nullptr);

}  // namespace grains
