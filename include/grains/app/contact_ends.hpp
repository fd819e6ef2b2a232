#pragma once
// The contacts of the last step as seen by each body (docs/measurements.md):
// a contact lives on one rank, but its force acts on two bodies that other
// ranks may own. Each end of a contact travels to its body's owner, so every
// per-body quantity (contact count, stress, fabric) is formed on the owner,
// with the owner's position, in the same order on any rank count. A contact
// point travels as the rank holding the contact sees it, with the centre of
// the body's copy there: a periodic image's point is moved back by the
// image's whole box lengths on the owner.
#include "grains/constraint/contact.hpp"
#include "grains/parallel/body_domain.hpp"

#include <mpi.h>

#include <vector>

namespace grains {

/// One contact seen from one of its bodies.
struct ContactEnd {
  ContactKey key;
  Vec3 force = Vec3::Zero();  ///< the contact's force on this body [N] (couples excluded)
  Vec3 point = Vec3::Zero();  ///< contact point: mid-point of the two surface points [m]
  /// Where the rank holding the contact sees the body's centre (an image's
  /// is shifted by box lengths) [m].
  Vec3 seen_centre = Vec3::Zero();
  Vec3 normal = Vec3::Zero();  ///< unit contact normal (its sign is irrelevant to n x n)
  double gap = 0.0;            ///< [m] at the step's start
  int wall = 0;                ///< 1 for a wall contact
  int carrying = 0;            ///< 1 if its normal impulse is > 0
};

/// Collective over `comm` (a communicator of its own, not used by any other
/// exchange in flight; `tag` alternates between calls). For each owned body
/// of `domain` (by index), the ends of the last step's contacts that carry
/// a force or touch (gap <= 0), sorted by contact key. `multipliers` holds
/// `block` values per contact, `to_force` turns them into forces [N per unit].
std::vector<std::vector<ContactEnd>> ownedContactEnds(const std::vector<Contact>& contacts,
                                                      const std::vector<double>& multipliers,
                                                      double to_force, const BodyDomain& domain,
                                                      MPI_Comm comm, int tag);

}  // namespace grains
