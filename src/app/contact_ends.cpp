#include "grains/app/contact_ends.hpp"

#include "grains/constraint/contact_system.hpp"
#include "grains/parallel/sparse_exchange.hpp"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace grains {
namespace {

/// A contact end bound for the owner of body `gid`.
struct ContactEndRecord {
  GlobalId gid = kNoBody;
  ContactEnd end;
};

}  // namespace

std::vector<std::vector<ContactEnd>> ownedContactEnds(const std::vector<Contact>& contacts,
                                                      const std::vector<double>& multipliers,
                                                      double to_force, const BodyDomain& domain,
                                                      MPI_Comm comm, int tag) {
  const auto& bodies = domain.bodies();
  const std::size_t owned = domain.numOwned();
  std::vector<std::vector<ContactEnd>> ends(owned);
  std::map<int, std::vector<ContactEndRecord>> outgoing;
  const std::size_t block = contacts.empty() ? 1 : multipliers.size() / contacts.size();
  for (std::size_t ci = 0; ci < contacts.size(); ++ci) {
    const Contact& c = contacts[ci];
    const double* gamma = multipliers.data() + ci * block;
    ContactEnd end;
    end.carrying = gamma[0] > 0.0 ? 1 : 0;
    if (!end.carrying && !(c.geometry.gap <= 0.0)) continue;  // speculative only
    Vec3 directions[kMaxBlockSize];
    contactRowDirections(c.geometry.normal, static_cast<int>(block), directions);
    // Rows 0-2 (normal, sliding tangents) are forces on body b; rolling and
    // spinning rows are couples.
    Vec3 on_b = Vec3::Zero();
    for (std::size_t r = 0; r < std::min<std::size_t>(block, 3); ++r)
      on_b += gamma[r] * directions[r];
    end.key = c.key;
    end.point = 0.5 * (c.geometry.point_a + c.geometry.point_b);
    end.normal = c.geometry.normal;
    end.gap = c.geometry.gap;
    end.wall = c.isWall() ? 1 : 0;
    const auto deliver = [&](int index, const Vec3& force) {
      if (index < 0 || static_cast<std::size_t>(index) >= bodies.size()) return;
      ContactEnd mine = end;
      mine.force = force;
      const auto i = static_cast<std::size_t>(index);
      mine.seen_centre = bodies[i].position;
      if (i < owned)
        ends[i].push_back(mine);
      else
        outgoing[domain.ownerRank(i)].push_back({bodies[i].gid, mine});
    };
    deliver(c.body_b, to_force * on_b);
    if (!c.isWall()) deliver(c.body_a, -to_force * on_b);
  }
  std::unordered_map<GlobalId, std::size_t> index_of;
  index_of.reserve(owned);
  for (std::size_t i = 0; i < owned; ++i) index_of.emplace(bodies[i].gid, i);
  for (const auto& [source, records] : exchangeRecords(comm, outgoing, tag)) {
    (void)source;
    for (const ContactEndRecord& r : records) {
      const auto found = index_of.find(r.gid);
      if (found != index_of.end()) ends[found->second].push_back(r.end);
    }
  }
  // A point seen next to an image moves back by the image's box lengths: a
  // difference of exact multiples, the same bits on any partition (the
  // centre itself may be a ghost's stale copy on the contact's rank).
  const PeriodicBox& box = domain.periodic();
  if (box.any())
    for (std::size_t i = 0; i < owned; ++i)
      for (ContactEnd& e : ends[i]) e.point -= box.imageShift(e.seen_centre, bodies[i].position);
  // One order on any partition: by contact key (both ends of one body pair
  // have distinct keys unless the pair has several constraints, told apart by `sub`).
  for (auto& list : ends)
    std::sort(list.begin(), list.end(),
              [](const ContactEnd& x, const ContactEnd& y) { return x.key < y.key; });
  return ends;
}

}  // namespace grains
