#pragma once
// The strategies of the registered constraint methods, one file each.
#include "grains/dynamics/constraint_strategy.hpp"

#include <memory>

namespace grains {

struct StepperSettings;

std::unique_ptr<ConstraintStrategy> makeSingleConstraints(const StepperSettings& settings);
std::unique_ptr<ConstraintStrategy> makeMultisphereConstraints(const StepperSettings& settings);
std::unique_ptr<ConstraintStrategy> makeRelcpConstraints(const StepperSettings& settings);

}  // namespace grains
