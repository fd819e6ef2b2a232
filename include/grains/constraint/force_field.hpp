#pragma once
// The body-force field of the force_field: section of the config.
#include "grains/core/types.hpp"

namespace grains {

/// A smooth body-force field F(x) on every body's centre (Palmer et al. (2025) sections
/// 4.2 and 4.4): compaction F = -s x (|x| - sin|x|) / |x|^2, extension its
/// negative, with x measured from `center`.
enum class ForceFieldKind : int { None = 0, RadialCompaction = 1, RadialExtension = 2 };
struct ForceFieldSection {
  ForceFieldKind kind = ForceFieldKind::None;
  double strength = 1.0;  ///< s [N] (>= 0)
  Vec3 center = Vec3::Zero();
};

}  // namespace grains
