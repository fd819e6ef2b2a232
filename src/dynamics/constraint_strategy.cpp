#include "grains/dynamics/constraint_strategy.hpp"

#include "grains/core/parallel_loops.hpp"
#include "grains/geometry/contact_geometry.hpp"
#include "grains/geometry/triangle_mesh.hpp"
#include "grains/parallel/mpi_utils.hpp"

#include <algorithm>

namespace grains {

std::vector<Contact> ConstraintStrategy::generate(const BodyDomain& domain,
                                                  const std::vector<Wall>& walls,
                                                  const DetectionSettings& detection,
                                                  DetectionTimes* times) const {
  return detectContacts(domain, walls, detection, times);
}

Refinement ConstraintStrategy::refine(const BodyDomain& domain, const std::vector<Wall>& walls,
                                      const IntermediateConfiguration& reached, double dt,
                                      int solves) const {
  (void)domain, (void)walls, (void)reached, (void)dt, (void)solves;
  return {};
}

std::vector<double> ConstraintStrategy::constraintGaps(const std::vector<Contact>& contacts,
                                                       const std::vector<Body>& moved,
                                                       const std::vector<Wall>& walls) const {
  std::vector<double> gaps(contacts.size());
  parallelFor(contacts.size(), [&](std::size_t ci) {
    const Contact& c = contacts[ci];
    const Body& b = moved[static_cast<std::size_t>(c.body_b)];
    if (c.isWall() && walls[static_cast<std::size_t>(c.wall)].kind == WallKind::Mesh) {
      // A mesh contact is with one triangle (its key's sub).
      gaps[ci] = meshTriangleSphere(walls[static_cast<std::size_t>(c.wall)],
                                    static_cast<std::size_t>(c.key.sub), b.position, b.radius)
                     .gap;
      return;
    }
    gaps[ci] = c.isWall() ? wallBody(walls[static_cast<std::size_t>(c.wall)], b).gap
                          : bodyBody(moved[static_cast<std::size_t>(c.body_a)], b).gap;
  });
  return gaps;
}

std::vector<Contact> findOverlaps(const BodyDomain& domain, const std::vector<Body>& bodies,
                                  const std::vector<Wall>& walls, double mu, double tolerance,
                                  double& max_overlap) {
  DetectionSettings touch;
  touch.mu = mu;
  touch.periodic = domain.periodic();  // the recursion, too, takes nearest images
  const std::vector<Contact> touching = detectContacts(bodies, domain.numOwned(), walls, touch);
  std::vector<Contact> deep;
  double worst = 0.0;
  for (const Contact& c : touching) {
    worst = std::max(worst, -c.geometry.gap);
    if (c.geometry.gap < -tolerance) deep.push_back(c);
  }
  max_overlap = globalMax(domain.comm(), worst);
  return deep;
}

}  // namespace grains
