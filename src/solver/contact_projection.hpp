#pragma once
// Per-contact projection with the friction model as a compile-time constant
// (internal to src/solver). Solver loops that project one contact at a time
// dispatch on the model once, outside the loop: with Coulomb and frictionless
// inline and no out-of-line call taking the address of the contact's values,
// those stay in registers (an address-taken local array forced them through
// the stack, whose store-to-load round trips cost more than the projection).
#include "grains/solver/cone_set.hpp"

#include <algorithm>
#include <cstddef>
#include <type_traits>

namespace grains::solver_detail {

enum class ProjectionKind { Coulomb, Frictionless, Other };

template <ProjectionKind Kind>
constexpr int kindBlockSize() {
  return Kind == ProjectionKind::Frictionless ? 1 : 3;
}

/// Project contact c's values z (kindBlockSize<Kind>() of them) onto its set.
template <ProjectionKind Kind>
inline void projectContactAs(const ConeSet& set, std::size_t c, double* z) {
  if constexpr (Kind == ProjectionKind::Coulomb) {
    projectCoulombCone(set.mu[c], z[0], z[1], z[2]);
  } else if constexpr (Kind == ProjectionKind::Frictionless) {
    z[0] = std::max(z[0], 0.0);
  } else {
    set.projectContact(c, z);
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
    default:
      return f(std::integral_constant<ProjectionKind, ProjectionKind::Other>{});
  }
}

}  // namespace grains::solver_detail
