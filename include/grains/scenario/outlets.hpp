#pragma once
// Outlets (docs/boundaries.md#outlets): bodies whose centre is inside an
// outlet box, or behind an outlet plane, are removed and counted.
#include "grains/config/simulation_config.hpp"
#include "grains/parallel/body_domain.hpp"

#include <vector>

namespace grains {

/// What one outlet took in one step (all ranks).
struct OutletDischarge {
  long count = 0;
  double mass = 0.0;  ///< [kg], summed reproducibly (the same bits on any rank count)
};

/// True if a body centred at `x` has reached `outlet`.
bool insideOutlet(const OutletSpec& outlet, const Vec3& x);

/// Collective: removes this rank's owned bodies that reached an outlet (the
/// first listed that holds them) and returns what each outlet took.
std::vector<OutletDischarge> dischargeOutlets(BodyDomain& domain,
                                              const std::vector<OutletSpec>& outlets);

}  // namespace grains
