#pragma once
// How a step turns bodies into constraints (docs/relcp.md): a named method
// from the registry (constraint_method_registry.cpp), implemented by a
// ConstraintStrategy. A new method is one file with its strategy and one row
// in the registry.
#include <memory>
#include <string>
#include <vector>

namespace grains {

class ConstraintStrategy;
struct StepperSettings;

/// The name of a registered constraint method: single (one deepest-point
/// constraint per pair), multisphere (LCP-MS: each body a union of
/// sub-spheres) or relcp (constraints generated recursively during the step,
/// Palmer et al. (2025), eqs. 24/26).
class ConstraintMethod {
 public:
  /// Throws std::invalid_argument naming the registered methods when `name`
  /// is not one of them.
  explicit ConstraintMethod(std::string name);
  const std::string& name() const { return name_; }
  friend bool operator==(const ConstraintMethod& a, const ConstraintMethod& b) {
    return a.name_ == b.name_;
  }
  friend bool operator!=(const ConstraintMethod& a, const ConstraintMethod& b) { return !(a == b); }

  static const ConstraintMethod Single;
  static const ConstraintMethod Multisphere;
  static const ConstraintMethod Relcp;

 private:
  std::string name_;
};

/// One row of the registry.
struct ConstraintMethodInfo {
  const char* name;
  /// The method finds the contacts a step creates beyond the detection
  /// envelope itself, so it may run with a fixed envelope
  /// (contact.adaptive_envelope false) and predicted contacts.
  bool finds_new_contacts;
  std::unique_ptr<ConstraintStrategy> (*make)(const StepperSettings& settings);
};

/// Every registered method, in the order the docs list them.
const std::vector<ConstraintMethodInfo>& constraintMethods();
/// The registry row of `method`.
const ConstraintMethodInfo& constraintMethodInfo(const ConstraintMethod& method);
/// The registered names, in registry order.
std::vector<std::string> constraintMethodNames();
/// The strategy of `settings.method`, configured by `settings`.
std::unique_ptr<ConstraintStrategy> makeConstraintStrategy(const StepperSettings& settings);

inline const ConstraintMethod ConstraintMethod::Single{"single"};
inline const ConstraintMethod ConstraintMethod::Multisphere{"multisphere"};
inline const ConstraintMethod ConstraintMethod::Relcp{"relcp"};

}  // namespace grains
