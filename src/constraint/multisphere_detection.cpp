#include "grains/constraint/multisphere_detection.hpp"

#include "grains/neighbor/cell_list.hpp"

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
                                               const DetectionSettings& settings, int count) {
  const auto& bodies = domain.bodies();
  const std::size_t num_owned = domain.numOwned();
  std::vector<std::vector<WorldSphere>> spheres(bodies.size());
  for (std::size_t i = 0; i < bodies.size(); ++i) spheres[i] = worldSpheres(bodies[i], count);

  std::vector<Contact> contacts;
  for (const auto& [i, j] : findNeighbourPairs(bodies, num_owned, settings.envelope)) {
    const bool i_first =
        bodies[static_cast<std::size_t>(i)].gid < bodies[static_cast<std::size_t>(j)].gid;
    const int a = i_first ? i : j;
    const int b = i_first ? j : i;
    if (static_cast<std::size_t>(a) >= num_owned) continue;
    const auto& sa = spheres[static_cast<std::size_t>(a)];
    const auto& sb = spheres[static_cast<std::size_t>(b)];
    for (std::size_t p = 0; p < sa.size(); ++p) {
      for (std::size_t q = 0; q < sb.size(); ++q) {
        const ContactGeometry g =
            sphereSphere(sa[p].center, sa[p].radius, sb[q].center, sb[q].radius);
        if (g.gap > settings.envelope) continue;
        Contact c;
        c.key = {bodies[static_cast<std::size_t>(a)].gid, bodies[static_cast<std::size_t>(b)].gid,
                 subSpherePairIndex(static_cast<int>(p), static_cast<int>(q))};
        c.body_a = a;
        c.body_b = b;
        c.geometry = g;
        c.mu = settings.mu;
        contacts.push_back(c);
      }
    }
  }
  for (std::size_t i = 0; i < num_owned; ++i) {
    for (std::size_t w = 0; w < walls.size(); ++w) {
      for (std::size_t p = 0; p < spheres[i].size(); ++p) {
        const ContactGeometry g = wallSphere(walls[w], spheres[i][p].center, spheres[i][p].radius);
        if (g.gap > settings.envelope) continue;
        Contact c;
        c.key = {-static_cast<GlobalId>(w) - 1, bodies[i].gid, static_cast<std::int64_t>(p)};
        c.wall = static_cast<int>(w);
        c.body_b = static_cast<int>(i);
        c.geometry = g;
        c.mu = settings.mu;
        contacts.push_back(c);
      }
    }
  }
  std::sort(contacts.begin(), contacts.end(),
            [](const Contact& x, const Contact& y) { return x.key < y.key; });
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
