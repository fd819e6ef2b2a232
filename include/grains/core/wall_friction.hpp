#pragma once
// A wall's own friction coefficients (walls.N.friction): they replace the
// run's contact.mu, rolling_friction and spinning_friction for the contacts
// of that wall only, so a floor can be rough while the grains slide on each
// other (docs/boundaries.md#friction-of-a-wall).
#include <optional>

namespace grains {

struct WallFriction {
  std::optional<double> mu;        ///< sliding (Coulomb) coefficient
  std::optional<double> rolling;   ///< rolling resistance, dimensionless
  std::optional<double> spinning;  ///< spinning resistance, dimensionless

  bool any() const { return mu || rolling || spinning; }
  /// The wall asks for rolling or spinning resistance the run may not have.
  bool resistsRolling() const {
    return rolling.value_or(0.0) > 0.0 || spinning.value_or(0.0) > 0.0;
  }
};

}  // namespace grains
