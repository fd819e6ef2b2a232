#pragma once
// Per-contact projection with the friction model as a compile-time constant
// (internal to src/solver). Solver loops that project one contact at a time
// dispatch on the model once, outside the loop: with Coulomb and frictionless
// inline and no out-of-line call taking the address of the contact's values,
// those stay in registers (an address-taken local array forced them through
// the stack, whose store-to-load round trips cost more than the projection).
#include "grains/solver/cone_set.hpp"
#include "rolling_cone_projection.hpp"

#include <algorithm>
#include <cstddef>
#include <type_traits>

namespace grains::solver_detail {

enum class ProjectionKind { Coulomb, Frictionless, Rolling, Other };

template <ProjectionKind Kind>
constexpr int kindBlockSize() {
  if constexpr (Kind == ProjectionKind::Frictionless) return 1;
  if constexpr (Kind == ProjectionKind::Rolling) return 6;
  return 3;
}

/// Project contact c's values z (kindBlockSize<Kind>() of them) onto its set.
template <ProjectionKind Kind>
inline void projectContactAs(const ConeSet& set, std::size_t c, double* z) {
  if constexpr (Kind == ProjectionKind::Coulomb) {
    projectCoulombCone(set.mu[c], z[0], z[1], z[2]);
  } else if constexpr (Kind == ProjectionKind::Frictionless) {
    z[0] = std::max(z[0], 0.0);
  } else if constexpr (Kind == ProjectionKind::Rolling) {
    projectRollingConeInline(set.mu[c], set.rolling[c], set.spinning[c], z);
  } else {
    set.projectContact(c, z);
  }
}

/// out = Pi_K(y - alpha (Ay + b)) per contact in one pass (b may be null), y
/// and A y read through `from` (extrapolated_point.hpp);
/// Scaled: with scale s and inverse 1/s per unknown, the step in the diagonal
/// metric, out = S Pi_{S^-1 K}(S^-1 y - alpha S (Ay + b)), the cones then
/// being the already rescaled set (diagonal_metric.hpp).
template <ProjectionKind Kind, bool Scaled, typename Entries>
void projectedStepLoop(const ConeSet& cones, Entries from, const double* pb, double alpha,
                       const double* scale, const double* inverse, double* po) {
  constexpr int block = kindBlockSize<Kind>();
  const auto contacts = static_cast<long long>(cones.localContacts());
  // `from` private to each thread: a shared copy would be read through a
  // pointer, and every store to po could then alias its coefficients.
#pragma omp parallel for schedule(static) firstprivate(from)
  for (long long c = 0; c < contacts; ++c) {
    double z[block];
    for (int k = 0; k < block; ++k) {
      const long long i = block * c + k;
      const double gradient = from.Ay(i) + (pb ? pb[i] : 0.0);
      if constexpr (Scaled) {
        z[k] = from.y(i) * inverse[i] - alpha * scale[i] * gradient;
      } else {
        z[k] = from.y(i) - alpha * gradient;
      }
    }
    projectContactAs<Kind>(cones, static_cast<std::size_t>(c), z);
    for (int k = 0; k < block; ++k) {
      if constexpr (Scaled) {
        po[block * c + k] = scale[block * c + k] * z[k];
      } else {
        po[block * c + k] = z[k];
      }
    }
  }
}

/// f(std::integral_constant<ProjectionKind, K>{}) for the kind of set.model.
template <typename F>
decltype(auto) withProjectionKind(const ConeSet& set, F&& f) {
  switch (set.model) {
    case FrictionModel::Coulomb:
      return f(std::integral_constant<ProjectionKind, ProjectionKind::Coulomb>{});
    case FrictionModel::Frictionless:
      return f(std::integral_constant<ProjectionKind, ProjectionKind::Frictionless>{});
    case FrictionModel::CoulombRolling:
      return f(std::integral_constant<ProjectionKind, ProjectionKind::Rolling>{});
    default:
      return f(std::integral_constant<ProjectionKind, ProjectionKind::Other>{});
  }
}

}  // namespace grains::solver_detail
