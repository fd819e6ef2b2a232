#include "grains/solver/sliding_lift.hpp"

#include <algorithm>
#include <cmath>

namespace grains {

bool liftsWhenSliding(FrictionModel model) {
  return model == FrictionModel::Coulomb || model == FrictionModel::Pyramid ||
         model == FrictionModel::CoulombRolling;
}

double slidingLift(const ConeSet& cones, std::size_t contact, const double* w, double dead_zone) {
  const double mu = cones.mu[contact];
  const auto beyond = [dead_zone](double slip) { return std::max(0.0, slip - dead_zone); };
  switch (cones.model) {
    case FrictionModel::Coulomb:
      return mu * beyond(tangentMagnitude(w[1], w[2]));
    case FrictionModel::Pyramid:
      return mu * (beyond(std::abs(w[1])) + beyond(std::abs(w[2])));
    case FrictionModel::CoulombRolling:
      return mu * beyond(tangentMagnitude(w[1], w[2])) +
             cones.rolling[contact] * beyond(tangentMagnitude(w[3], w[4])) +
             cones.spinning[contact] * beyond(std::abs(w[5]));
    case FrictionModel::Frictionless:
    case FrictionModel::Box:
    case FrictionModel::Cylinder:
      return 0.0;
  }
  return 0.0;
}

}  // namespace grains
