#include "grains/dynamics/state_check.hpp"

#include <cmath>

namespace grains {
namespace {

template <typename Derived>
bool allFinite(const Eigen::MatrixBase<Derived>& v) {
  return v.array().isFinite().all();
}

/// The first non-finite field of b, or "" if all are finite.
const char* nonFiniteField(const Body& b) {
  if (!allFinite(b.position)) return "position";
  if (!allFinite(b.orientation.coeffs())) return "orientation";
  if (!allFinite(b.velocity)) return "velocity";
  if (!allFinite(b.angular_velocity)) return "angular velocity";
  if (!std::isfinite(b.radius) || !std::isfinite(b.half_length) || !allFinite(b.semi_axes) ||
      !std::isfinite(b.major_radius))
    return "size";
  return "";
}

}  // namespace

std::optional<NonFiniteBody> firstNonFiniteBody(const std::vector<Body>& bodies,
                                                std::size_t count) {
  std::optional<NonFiniteBody> first;
  for (std::size_t i = 0; i < count && i < bodies.size(); ++i) {
    const char* field = nonFiniteField(bodies[i]);
    if (*field == '\0') continue;
    if (!first || bodies[i].gid < first->gid) first = NonFiniteBody{bodies[i].gid, field};
  }
  return first;
}

}  // namespace grains
