#include "constraint_method_factories.hpp"
#include "grains/core/text.hpp"
#include "grains/dynamics/constraint_method.hpp"
#include "grains/dynamics/time_stepper.hpp"

#include <stdexcept>

namespace grains {

const std::vector<ConstraintMethodInfo>& constraintMethods() {
  static const std::vector<ConstraintMethodInfo> table = {
      {"single", false, &makeSingleConstraints},
      {"multisphere", false, &makeMultisphereConstraints},
      {"relcp", true, &makeRelcpConstraints},
  };
  return table;
}

std::vector<std::string> constraintMethodNames() {
  std::vector<std::string> names;
  for (const ConstraintMethodInfo& info : constraintMethods()) names.emplace_back(info.name);
  return names;
}

ConstraintMethod::ConstraintMethod(std::string name) : name_(std::move(name)) {
  for (const ConstraintMethodInfo& info : constraintMethods())
    if (name_ == info.name) return;
  throw std::invalid_argument("unknown constraint method '" + name_ + "' (expected one of " +
                              joined(constraintMethodNames(), ", ") + ")");
}

const ConstraintMethodInfo& constraintMethodInfo(const ConstraintMethod& method) {
  for (const ConstraintMethodInfo& info : constraintMethods())
    if (method.name() == info.name) return info;
  throw std::logic_error("constraint method '" + method.name() + "' left the registry");
}

std::unique_ptr<ConstraintStrategy> makeConstraintStrategy(const StepperSettings& settings) {
  return constraintMethodInfo(settings.method).make(settings);
}

}  // namespace grains
