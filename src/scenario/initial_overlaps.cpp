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

void checkInitialOverlaps(const std::vector<Body>& all, const std::vector<Wall>& walls) {
  constexpr double kRelTol = 1e-9;
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
  for (std::size_t i = 0; i < all.size(); ++i) {
    const Body& a = all[i];
    grid.forNeighbours(a.position, [&](std::size_t j) {
      const Body& b = all[j];
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
    });
    grid.insert(i, a.position);
  }
}

}  // namespace grains
