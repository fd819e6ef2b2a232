#include "grains/constraint/multisphere_detection.hpp"

#include "grains/core/parallel_loops.hpp"
#include "grains/neighbor/cell_list.hpp"

#include <mpi.h>

#include <algorithm>

namespace grains {
namespace {

struct WorldSphere {
  Vec3 center;
  double radius;
};

std::vector<WorldSphere> worldSpheres(const Body& b, int count) {
  std::vector<WorldSphere> out;
  for (const SubSphere& s : subSpheres(b, count)) out.push_back({subSphereCenter(b, s), s.radius});
  return out;
}

}  // namespace

std::vector<Contact> detectMultisphereContacts(const BodyDomain& domain,
                                               const std::vector<Wall>& walls,
                                               const DetectionSettings& settings,
                                               const MultisphereSettings& multisphere,
                                               DetectionTimes* times) {
  const double start = MPI_Wtime();  // sub-sphere placement counts as narrow phase
  const auto& bodies = domain.bodies();
  const std::size_t num_owned = domain.numOwned();
  std::vector<std::vector<WorldSphere>> spheres(bodies.size());
  parallelFor(bodies.size(),
              [&](std::size_t i) { spheres[i] = worldSpheres(bodies[i], multisphere.count); });
  // A sub-sphere pair within the buffer has r_i + r_j <= 2 x the largest
  // sub-sphere radius of the bodies this rank sees (both bodies are among them).
  double largest = 0.0;
  for (const auto& body_spheres : spheres)
    for (const WorldSphere& s : body_spheres) largest = std::max(largest, s.radius);
  const double buffer = multisphere.buffer;
  auto within = [&](double gap, double radii) {
    return gap <= std::max(settings.envelope, buffer * radii);
  };

  const double search_start = MPI_Wtime();
  const auto pairs =
      findNeighbourPairs(bodies, num_owned, std::max(settings.envelope, 2.0 * buffer * largest));
  const double searched = MPI_Wtime();
  std::vector<Contact> contacts =
      parallelCollect<Contact>(pairs.size(), [&](std::size_t k, std::vector<Contact>& out) {
        int a = 0, b = 0;
        if (!ownedPairSides(bodies, num_owned, pairs[k].first, pairs[k].second, a, b)) return;
        if (!nearestImagePair(bodies, a, b, domain.periodic())) return;
        const auto& sa = spheres[static_cast<std::size_t>(a)];
        const auto& sb = spheres[static_cast<std::size_t>(b)];
        for (std::size_t p = 0; p < sa.size(); ++p) {
          for (std::size_t q = 0; q < sb.size(); ++q) {
            const ContactGeometry g =
                sphereSphere(sa[p].center, sa[p].radius, sb[q].center, sb[q].radius);
            if (!within(g.gap, sa[p].radius + sb[q].radius)) continue;
            out.push_back(
                pairContact(bodies, a, b, g, settings.mu,
                            subSpherePairIndex(static_cast<int>(p), static_cast<int>(q))));
          }
        }
      });
  const std::vector<Contact> wall_contacts =
      parallelCollect<Contact>(num_owned, [&](std::size_t i, std::vector<Contact>& out) {
        for (std::size_t w = 0; w < walls.size(); ++w) {
          for (std::size_t p = 0; p < spheres[i].size(); ++p) {
            const ContactGeometry g =
                wallSphere(walls[w], spheres[i][p].center, spheres[i][p].radius);
            if (!within(g.gap, 2.0 * spheres[i][p].radius)) continue;
            out.push_back(wallContact(bodies, walls, static_cast<int>(w), static_cast<int>(i), g,
                                      settings.mu, static_cast<std::int64_t>(p)));
          }
        }
      });
  contacts.insert(contacts.end(), wall_contacts.begin(), wall_contacts.end());
  if (domain.bodyOrder() == BodyOrder::Gid) sortByKey(contacts);
  if (times != nullptr) {
    times->broad += searched - search_start;
    times->narrow += (search_start - start) + (MPI_Wtime() - searched);
  }
  return contacts;
}

double multisphereGap(const Contact& c, const Body* a, const std::vector<SubSphere>* spheres_a,
                      const Body& b, const std::vector<SubSphere>& spheres_b,
                      const std::vector<Wall>& walls) {
  if (a == nullptr || spheres_a == nullptr) {
    const SubSphere& s = spheres_b[static_cast<std::size_t>(c.key.sub)];
    return wallSphere(walls[static_cast<std::size_t>(c.wall)], subSphereCenter(b, s), s.radius).gap;
  }
  const SubSphere& s = (*spheres_a)[static_cast<std::size_t>(c.key.sub / 65536)];
  const SubSphere& t = spheres_b[static_cast<std::size_t>(c.key.sub % 65536)];
  return sphereSphere(subSphereCenter(*a, s), s.radius, subSphereCenter(b, t), t.radius).gap;
}

}  // namespace grains
