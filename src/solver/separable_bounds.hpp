#pragma once
// Per-unknown intervals [lower, upper] of the separable friction models
// (frictionless: [0, inf); box with given bounds: [0, inf) for the normal and
// [-mu nb, mu nb] for the tangential unknowns), and the small global
// reductions the active-set solvers (gpminres, kucera) need. Internal to src/solver.
#include "grains/solver/quadratic_program.hpp"
#include "solver_kernels.hpp"  // globalSums, readOnly

#include <Teuchos_CommHelpers.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace grains::solver_detail {

struct SeparableBounds {
  std::vector<double> lower;
  std::vector<double> upper;

  /// The bounds of qp's cone set; throws std::invalid_argument naming `who`
  /// for a model that is not a product of intervals (or box without bounds).
  static SeparableBounds of(const QuadraticProgram& qp, const char* who) {
    const FrictionModel model = qp.cones.model;
    if (!isSeparable(model) || (hasFixedBounds(model) && !qp.cones.boundsFixed())) {
      throw std::invalid_argument(
          std::string(who) + ": friction model '" + frictionModelName(model) +
          "' is not a set of independent intervals; this solver handles "
          "frictionless and box with given normal bounds (the registry "
          "adds the Tresca fixed point for box without bounds and pyramid)");
    }
    SeparableBounds b;
    const std::size_t n = qp.b->getLocalLength();
    b.lower.resize(n);
    b.upper.resize(n);
    qp.cones.bounds(b.lower.data(), b.upper.data());
    return b;
  }

  double clamp(std::size_t i, double v) const { return std::min(std::max(v, lower[i]), upper[i]); }
  /// Free unknown: strictly inside its interval (an interval of length 0 is never free).
  bool isFree(std::size_t i, double v) const { return v > lower[i] && v < upper[i]; }
  /// Binding (More & Toraldo): at a bound with the gradient pushing against it.
  bool isBinding(std::size_t i, double v, double gradient) const {
    if (lower[i] == upper[i]) return true;
    if (v <= lower[i]) return gradient >= 0.0;
    if (v >= upper[i]) return gradient <= 0.0;
    return false;
  }
  /// Projected gradient of Heyn et al. (2013) eq. (14), extended to upper bounds.
  double projectedGradient(std::size_t i, double v, double gradient) const {
    if (lower[i] == upper[i]) return 0.0;
    if (v <= lower[i]) return std::min(gradient, 0.0);
    if (v >= upper[i]) return std::max(gradient, 0.0);
    return gradient;
  }
};

inline double globalMinimum(const Vector& v, double local) {
  double global = 0.0;
  Teuchos::reduceAll(*v.getMap()->getComm(), Teuchos::REDUCE_MIN, local, Teuchos::outArg(global));
  return global;
}

/// True on every rank iff `local` is true on every rank.
inline bool globalAll(const Vector& v, bool local) {
  const int mine = local ? 1 : 0;
  int global = 0;
  Teuchos::reduceAll(*v.getMap()->getComm(), Teuchos::REDUCE_MIN, mine, Teuchos::outArg(global));
  return global == 1;
}

}  // namespace grains::solver_detail
