#pragma once
// Detection of non-finite (NaN/Inf) body state, the first sign of a blown-up
// step, so the run can stop at once and name the body.
#include "grains/core/body.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace grains {

struct NonFiniteBody {
  GlobalId gid = kNoBody;
  std::string field;  ///< "position", "orientation", "velocity", ...
};

/// The body of smallest GID among bodies[0, count) with a non-finite
/// position, orientation, velocity, angular velocity or size.
std::optional<NonFiniteBody> firstNonFiniteBody(const std::vector<Body>& bodies, std::size_t count);

}  // namespace grains
