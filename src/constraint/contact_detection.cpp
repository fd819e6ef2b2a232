#include "grains/constraint/contact_detection.hpp"

#include "grains/neighbor/cell_list.hpp"

#include <algorithm>

namespace grains {

std::vector<Contact> detectContacts(const BodyDomain& domain, const std::vector<Wall>& walls,
                                    const DetectionSettings& settings) {
  return detectContacts(domain.bodies(), domain.numOwned(), walls, settings);
}

std::vector<Contact> detectContacts(const std::vector<Body>& bodies, std::size_t num_owned,
                                    const std::vector<Wall>& walls,
                                    const DetectionSettings& settings) {
  const auto pairs = findNeighbourPairs(bodies, num_owned, settings.envelope);

  std::vector<Contact> contacts;
  contacts.reserve(pairs.size() + num_owned);
  for (const auto& [i, j] : pairs) {
    // Side a is the lower GID; its owner owns the contact.
    const bool i_first =
        bodies[static_cast<std::size_t>(i)].gid < bodies[static_cast<std::size_t>(j)].gid;
    const int a = i_first ? i : j;
    const int b = i_first ? j : i;
    if (static_cast<std::size_t>(a) >= num_owned) continue;
    const ContactGeometry g =
        bodyBody(bodies[static_cast<std::size_t>(a)], bodies[static_cast<std::size_t>(b)]);
    if (g.gap > settings.envelope) continue;
    Contact c;
    c.key = {bodies[static_cast<std::size_t>(a)].gid, bodies[static_cast<std::size_t>(b)].gid};
    c.body_a = a;
    c.body_b = b;
    c.geometry = g;
    c.mu = settings.mu;
    contacts.push_back(c);
  }
  for (std::size_t i = 0; i < num_owned; ++i) {
    for (std::size_t w = 0; w < walls.size(); ++w) {
      const ContactGeometry g = wallBody(walls[w], bodies[i]);
      if (g.gap > settings.envelope) continue;
      Contact c;
      c.key = {-static_cast<GlobalId>(w) - 1, bodies[i].gid};
      c.wall = static_cast<int>(w);
      c.body_b = static_cast<int>(i);
      c.geometry = g;
      c.mu = settings.mu;
      contacts.push_back(c);
    }
  }
  std::sort(contacts.begin(), contacts.end(),
            [](const Contact& x, const Contact& y) { return x.key < y.key; });
  return contacts;
}

}  // namespace grains
