#include "grains/constraint/contact_detection.hpp"

#include "grains/core/parallel_loops.hpp"
#include "grains/geometry/triangle_mesh.hpp"
#include "grains/neighbor/cell_list.hpp"

#include <mpi.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

namespace grains {

bool ownedPairSides(const std::vector<Body>& bodies, std::size_t num_owned, int i, int j, int& a,
                    int& b) {
  // Side a is the lower GID; its owner owns the contact.
  const bool i_first =
      bodies[static_cast<std::size_t>(i)].gid < bodies[static_cast<std::size_t>(j)].gid;
  a = i_first ? i : j;
  b = i_first ? j : i;
  return static_cast<std::size_t>(a) < num_owned;
}

Contact pairContact(const std::vector<Body>& bodies, int a, int b, const ContactGeometry& g,
                    double mu, std::int64_t sub) {
  Contact c;
  c.key = {bodies[static_cast<std::size_t>(a)].gid, bodies[static_cast<std::size_t>(b)].gid, sub};
  c.body_a = a;
  c.body_b = b;
  c.geometry = g;
  c.mu = mu;
  return c;
}

Contact wallContact(const std::vector<Body>& bodies, const std::vector<Wall>& walls, int wall,
                    int body, const ContactGeometry& g, double mu, std::int64_t sub) {
  Contact c;
  const WallVelocity& v = walls[static_cast<std::size_t>(wall)].velocity;
  if (!v.isZero()) {
    c.wall_velocity = v.at(g.point_a);
    c.wall_angular_velocity = v.angular;
  }
  c.key = {-static_cast<GlobalId>(wall) - 1, bodies[static_cast<std::size_t>(body)].gid, sub};
  c.wall = wall;
  c.body_b = body;
  c.geometry = g;
  const WallFriction& own = walls[static_cast<std::size_t>(wall)].friction;
  c.mu = own.mu.value_or(mu);
  c.rolling_friction = own.rolling.value_or(-1.0);
  c.spinning_friction = own.spinning.value_or(-1.0);
  return c;
}

void sortByKey(std::vector<Contact>& contacts) {
  // Sorting the contacts themselves moved their ~170 bytes at every swap,
  // serially (4 % of a 2-thread step of a 50k pile): sort (key, index)
  // instead and gather the contacts in parallel, and only when they are not
  // in order already. Keys are unique; the index breaks ties anyway so the
  // order never depends on the sort.
  if (std::is_sorted(contacts.begin(), contacts.end(),
                     [](const Contact& x, const Contact& y) { return x.key < y.key; }))
    return;
  const std::size_t n = contacts.size();
  std::vector<std::pair<ContactKey, std::size_t>> order(n);
  parallelFor(n, [&](std::size_t i) { order[i] = {contacts[i].key, i}; });
  std::sort(
      order.begin(), order.end(),
      [](const std::pair<ContactKey, std::size_t>& x, const std::pair<ContactKey, std::size_t>& y) {
        return x.first < y.first || (x.first == y.first && x.second < y.second);
      });
  std::vector<Contact> sorted(n);
  parallelFor(n, [&](std::size_t i) { sorted[i] = contacts[order[i].second]; });
  contacts.swap(sorted);
}

std::vector<Contact> detectContacts(const BodyDomain& domain, const std::vector<Wall>& walls,
                                    const DetectionSettings& settings, DetectionTimes* times) {
  DetectionSettings in_body_order = settings;
  in_body_order.key_order = domain.bodyOrder() == BodyOrder::Gid;
  in_body_order.periodic = domain.periodic();
  return detectContacts(domain.bodies(), domain.numOwned(), walls, in_body_order, times);
}

std::vector<Contact> detectContacts(const std::vector<Body>& bodies, std::size_t num_owned,
                                    const std::vector<Wall>& walls,
                                    const DetectionSettings& settings, DetectionTimes* times) {
  const double start = MPI_Wtime();
  const std::vector<Twist>* velocities = settings.horizon > 0.0 ? settings.velocities : nullptr;
  if (velocities != nullptr && velocities->size() < bodies.size())
    throw std::invalid_argument("detectContacts: " + std::to_string(velocities->size()) +
                                " predicting velocities for " + std::to_string(bodies.size()) +
                                " bodies");
  const double horizon = settings.horizon;
  const auto pairs = findNeighbourPairs(
      bodies, num_owned,
      velocities ? std::max(settings.reach, settings.envelope) : settings.envelope);
  // A contact is kept when its gap is within the envelope, or (predicting)
  // when the gap closing at the contact points' velocities gets there within
  // the horizon. Pairs beyond the envelope whose bounding spheres cannot
  // close that far (relative speed bounded by |u_b - u_a| + |w_a| R_a + |w_b| R_b)
  // skip the narrow phase.
  auto predictedGap = [&](const ContactGeometry& g, int a, int b) {
    const auto ib = static_cast<std::size_t>(b);
    double rate = g.normal.dot(pointVelocity((*velocities)[ib], g.point_b - bodies[ib].position));
    if (a >= 0) {
      const auto ia = static_cast<std::size_t>(a);
      rate -= g.normal.dot(pointVelocity((*velocities)[ia], g.point_a - bodies[ia].position));
    }
    return g.gap + horizon * std::min(rate, 0.0);
  };
  auto keep = [&](const ContactGeometry& g, int a, int b) {
    return g.gap <= settings.envelope ||
           (velocities != nullptr && predictedGap(g, a, b) <= settings.envelope);
  };
  auto mayClose = [&](int a, int b) {
    if (velocities == nullptr) return true;
    const auto ia = static_cast<std::size_t>(a);
    const auto ib = static_cast<std::size_t>(b);
    const Body& A = bodies[ia];
    const Body& B = bodies[ib];
    const double ra = boundingRadius(A);
    const double rb = boundingRadius(B);
    const double bound_gap = (B.position - A.position).norm() - ra - rb;
    if (bound_gap <= settings.envelope) return true;
    const Twist& ua = (*velocities)[ia];
    const Twist& ub = (*velocities)[ib];
    const double speed =
        (ub.head<3>() - ua.head<3>()).norm() + ua.tail<3>().norm() * ra + ub.tail<3>().norm() * rb;
    return bound_gap - horizon * speed <= settings.envelope;
  };
  const double searched = MPI_Wtime();

  // Wall contacts, then the narrow phase over the pairs, on all threads. The
  // collection order (walls by decreasing index, bodies within a wall, then
  // pairs by (a, b) indices) is already key order where the owned bodies'
  // indices follow their GIDs (parallel.body_order: gid) and no ghost comes
  // between; the key sort then only checks. With the spatial body order the
  // collection order is kept: it follows the bodies in memory.
  // Two loops, each split evenly between the threads: in one index space
  // the cheap wall tests (one per wall and owned body; a box counts as six
  // walls) had filled the first threads' ranges and left all the pairs to
  // the last.
  const std::size_t wall_items = walls.size() * num_owned;
  std::vector<Contact> wall_contacts = parallelCollect<Contact>(
      wall_items,
      [&](std::size_t k, std::vector<Contact>& out) {
        const std::size_t w = walls.size() - 1 - k / num_owned;
        const std::size_t i = k % num_owned;
        if (walls[w].kind == WallKind::Mesh) {
          // Several contacts per body (a sphere in a fold touches both
          // sides), told apart by their triangle.
          if (bodies[i].shape != ShapeKind::Sphere)
            wallBody(walls[w], bodies[i]);  // throws, naming the wall and the body
          const double search =
              velocities ? std::max(settings.reach, settings.envelope) : settings.envelope;
          for (const MeshContact& m :
               meshSphereContacts(walls[w], bodies[i].position, bodies[i].radius, search))
            if (keep(m.geometry, -1, static_cast<int>(i)))
              out.push_back(wallContact(bodies, walls, static_cast<int>(w), static_cast<int>(i),
                                        m.geometry, settings.mu, m.triangle));
          return;
        }
        const ContactGeometry g = wallBody(walls[w], bodies[i]);
        if (keep(g, -1, static_cast<int>(i)))
          out.push_back(
              wallContact(bodies, walls, static_cast<int>(w), static_cast<int>(i), g, settings.mu));
      },
      num_owned);  // walls touch few bodies
  // The pairs' contacts follow the wall contacts in one list (its head).
  std::vector<Contact> contacts = parallelCollect<Contact>(
      pairs.size(),
      [&](std::size_t k, std::vector<Contact>& out) {
        const BodyPair& pair = pairs[k];
        int a = 0, b = 0;
        if (!ownedPairSides(bodies, num_owned, pair.first, pair.second, a, b)) return;
        if (!nearestImagePair(bodies, a, b, settings.periodic)) return;
        if (!mayClose(a, b)) return;
        const ContactGeometry g =
            bodyBody(bodies[static_cast<std::size_t>(a)], bodies[static_cast<std::size_t>(b)]);
        if (keep(g, a, b)) out.push_back(pairContact(bodies, a, b, g, settings.mu));
      },
      pairs.size(), std::move(wall_contacts));  // at most one per pair
  if (settings.key_order) sortByKey(contacts);
  if (times != nullptr) {
    times->broad += searched - start;
    times->narrow += MPI_Wtime() - searched;
  }
  return contacts;
}

}  // namespace grains
