// single: one constraint per pair within the detection envelope, at the
// pair's deepest point (or closest points when apart). The constrained pairs
// are all the pairs that can touch, so the constraints' overlap after the
// step is the true one.
#include "constraint_method_factories.hpp"

namespace grains {

std::unique_ptr<ConstraintStrategy> makeSingleConstraints(const StepperSettings& settings) {
  (void)settings;
  return std::make_unique<ConstraintStrategy>();
}

}  // namespace grains
