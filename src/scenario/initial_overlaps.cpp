// Rejects initial configurations in which bodies overlap each other or a wall.
#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "cell_grid.hpp"
#include "grains/geometry/contact_geometry.hpp"
#include "grains/scenario/body_generator.hpp"

namespace grains {

namespace {

std::string vecText(const Vec3& v) {
  std::ostringstream out;
  out << "[" << v.x() << ", " << v.y() << ", " << v.z() << "]";
  return out.str();
}

/// Signed distance of a body's surface to the wall (negative: penetration).
double wallGap(const Body& b, const Wall& w) {
  try {
    return wallBody(w, b).gap;
  } catch (const std::invalid_argument& e) {
    throw ConfigError(e.what());
  }
}

}  // namespace

void checkInitialOverlaps(const std::vector<Body>& given, const std::vector<Wall>& walls,
                          const PeriodicBox& periodic) {
  constexpr double kRelTol = 1e-9;
  // Periodic axes: the run wraps the centres (BodyDomain), so compare there.
  std::vector<Body> wrapped;
  if (periodic.any()) {
    wrapped = given;
    for (Body& b : wrapped) periodic.wrap(b.position);
  }
  const std::vector<Body>& all = periodic.any() ? wrapped : given;
  for (const Body& b : all) {
    for (const Wall& w : walls) {
      const double gap = wallGap(b, w);
      if (gap < -kRelTol * b.radius) {
        std::ostringstream msg;
        msg << "body " << b.gid << " (centre " << vecText(b.position) << ", radius " << b.radius
            << ") penetrates wall '" << w.name << "' (" << wallKindName(w.kind) << ") by " << -gap
            << " m; expected no initial penetration";
        throw ConfigError(msg.str());
      }
    }
  }
  if (all.empty()) return;
  double max_radius = 0.0;
  for (const Body& b : all) max_radius = std::max(max_radius, boundingRadius(b));
  scenario_detail::CellGrid grid(2.0 * max_radius);
  // Body a (at `at`: its centre, or an image's) against body j.
  auto checkPair = [&](const Body& a_body, const Vec3& at, std::size_t j) {
    const Body& b = all[j];
    if (b.gid == a_body.gid) return;
    Body shifted;
    const Body* image = &a_body;
    if (at != a_body.position) {
      shifted = a_body;
      shifted.position = at;
      image = &shifted;
    }
    const Body& a = *image;
    {
      const double reach = boundingRadius(a) + boundingRadius(b);
      if ((a.position - b.position).norm() >= reach) return;
      double gap = 0.0;
      try {
        gap = a.gid < b.gid ? bodyBody(a, b).gap : bodyBody(b, a).gap;
      } catch (const std::invalid_argument& e) {
        throw ConfigError(e.what());
      }
      if (gap < -kRelTol * std::min(a.radius, b.radius)) {
        std::ostringstream msg;
        msg << "bodies " << std::min(a.gid, b.gid) << " and " << std::max(a.gid, b.gid)
            << " overlap by " << -gap << " m (centres "
            << vecText(a.gid < b.gid ? a.position : b.position) << " and "
            << vecText(a.gid < b.gid ? b.position : a.position) << ", radii "
            << (a.gid < b.gid ? a.radius : b.radius) << " and "
            << (a.gid < b.gid ? b.radius : a.radius) << "); expected no initial overlap";
        throw ConfigError(msg.str());
      }
    }
  };
  for (std::size_t i = 0; i < all.size(); ++i) {
    grid.forNeighbours(all[i].position,
                       [&](std::size_t j) { checkPair(all[i], all[i].position, j); });
    grid.insert(i, all[i].position);
  }
  // Through the periodic faces: the images of the bodies near a face
  // against every body (the grid now holds all of them).
  const std::vector<Vec3> shifts = periodic.imageShifts();
  for (const Body& a : all)
    for (const Vec3& shift : shifts) {
      const Vec3 image = a.position + shift;
      if (!periodic.withinReach(image, 2.0 * max_radius)) continue;
      grid.forNeighbours(image, [&](std::size_t j) { checkPair(a, image, j); });
    }
}

}  // namespace grains
