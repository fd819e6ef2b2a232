#pragma once
// The feasible set K of the contact QP: a product of one set per contact,
// chosen by the friction model (seed 002 Table 1).
#include "grains/linalg/tpetra_types.hpp"

#include <cmath>
#include <string>
#include <vector>

namespace grains {

enum class FrictionModel : int {
  Frictionless = 0,  ///< one unknown per contact, gamma_n >= 0
  Coulomb = 1,       ///< circular cone |(gamma_u, gamma_w)| <= mu gamma_n ("cone")
  Pyramid = 2,       ///< |gamma_u| <= mu gamma_n and |gamma_w| <= mu gamma_n
  Box = 3,           ///< gamma_n >= 0, |gamma_u|, |gamma_w| <= mu * normal_bound (fixed)
  Cylinder = 4       ///< gamma_n >= 0, |(gamma_u, gamma_w)| <= mu * normal_bound (fixed)
};

/// Canonical config name: frictionless, coulomb, pyramid, box, cylinder.
std::string frictionModelName(FrictionModel model);
/// Accepts the canonical names and the aliases "none" and "cone"; throws
/// std::invalid_argument naming the accepted values.
FrictionModel parseFrictionModel(const std::string& name);
/// All models, in enum order.
const std::vector<FrictionModel>& allFrictionModels();

/// Unknowns per contact for a friction model (1 or 3).
int unknownsPerContact(FrictionModel model);
/// Box and cylinder: the tangential bound is mu times a given normal impulse
/// estimate instead of mu times the contact's own normal unknown.
bool hasFixedBounds(FrictionModel model);
/// Frictionless and box: every unknown has its own interval [lower, upper].
bool isSeparable(FrictionModel model);

/// Exact Euclidean projection of (n, u, w) onto {sqrt(u^2 + w^2) <= mu n}.
void projectCoulombCone(double mu, double& n, double& u, double& w);

/// |(u, w)|: sqrt(u^2 + w^2), with std::hypot's overflow safety only when the
/// squares overflow (hypot is several times slower and this sits in every
/// projection of every solver iteration).
inline double tangentMagnitude(double u, double w) {
  const double squares = u * u + w * w;
  return std::isfinite(squares) ? std::sqrt(squares) : std::hypot(u, w);
}
/// Exact Euclidean projection onto {|u| <= mu n, |w| <= mu n} (n >= 0 implied).
void projectPyramid(double mu, double& n, double& u, double& w);

/// The set of every contact owned by this rank, in the order of the local
/// rows of the constraint map.
struct ConeSet {
  FrictionModel model = FrictionModel::Frictionless;
  std::vector<double> mu;  ///< friction coefficient per local contact
  /// Box and cylinder only: the normal impulse estimate per local contact
  /// (tangential bound = mu * normal_bound). Empty means "not fixed yet": the
  /// registry then wraps the solver in the Tresca-to-Coulomb fixed point, and
  /// measures use the bounds of the evaluated iterate itself.
  std::vector<double> normal_bound;

  int blockSize() const { return unknownsPerContact(model); }
  std::size_t localContacts() const { return mu.size(); }
  /// True when the model has fixed bounds and they are present.
  bool boundsFixed() const { return hasFixedBounds(model) && !normal_bound.empty(); }

  /// Project one contact's block (blockSize() values) onto its set, in place.
  void projectContact(std::size_t contact, double* values) const;
  /// Project a local array of blockSize()*localContacts() values onto K, in place.
  void project(double* values) const;
  /// Project a distributed vector (this rank's entries) onto K, in place.
  void project(Vector& gamma) const;
  /// Separable models only (frictionless, box with bounds): per local unknown
  /// the interval [lower, upper] (upper may be +inf). Throws otherwise.
  void bounds(double* lower, double* upper) const;
  /// A copy whose fixed bounds are taken from gamma's normal components
  /// (max(gamma_n, 0)); for other models an unchanged copy.
  ConeSet withBoundsFrom(const double* gamma) const;
};

}  // namespace grains
