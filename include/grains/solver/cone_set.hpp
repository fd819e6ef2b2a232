#pragma once
// The feasible set K of the contact QP: a product of one set per contact,
// chosen by the friction model (Preclik et al. (2009) Table 1).
#include "grains/linalg/tpetra_types.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace grains {

enum class FrictionModel : int {
  Frictionless = 0,  ///< one unknown per contact, gamma_n >= 0
  Coulomb = 1,       ///< circular cone |(gamma_u, gamma_w)| <= mu gamma_n ("cone")
  Pyramid = 2,       ///< |gamma_u| <= mu gamma_n and |gamma_w| <= mu gamma_n
  Box = 3,           ///< gamma_n >= 0, |gamma_u|, |gamma_w| <= mu * normal_bound (fixed)
  Cylinder = 4,      ///< gamma_n >= 0, |(gamma_u, gamma_w)| <= mu * normal_bound (fixed)
  /// Coulomb cone plus rolling and spinning resistance (Tasora & Anitescu
  /// 2013): six unknowns (n, u, w, r1, r2, s), |(u, w)| <= mu n,
  /// |(r1, r2)| <= rolling n, |s| <= spinning n.
  CoulombRolling = 5
};

/// The most unknowns any model has per contact (CoulombRolling's six).
constexpr int kMaxBlockSize = 6;

/// Canonical config name: frictionless, coulomb, pyramid, box, cylinder,
/// coulomb_rolling.
std::string frictionModelName(FrictionModel model);
/// Accepts the canonical names and the aliases "none" and "cone"; throws
/// std::invalid_argument naming the accepted values.
FrictionModel parseFrictionModel(const std::string& name);
/// All models, in enum order.
const std::vector<FrictionModel>& allFrictionModels();

/// Unknowns per contact for a friction model (1, 3 or 6).
int unknownsPerContact(FrictionModel model);
/// Box and cylinder: the tangential bound is mu times a given normal impulse
/// estimate instead of mu times the contact's own normal unknown.
bool hasFixedBounds(FrictionModel model);
/// Frictionless and box: every unknown has its own interval [lower, upper].
bool isSeparable(FrictionModel model);

/// |(u, w)|: sqrt(u^2 + w^2), with std::hypot's overflow safety only when the
/// squares overflow (hypot is several times slower and this sits in every
/// projection of every solver iteration).
inline double tangentMagnitude(double u, double w) {
  const double squares = u * u + w * w;
  return std::isfinite(squares) ? std::sqrt(squares) : std::hypot(u, w);
}
/// Exact Euclidean projection of (n, u, w) onto the second-order cone
/// K = {(n, t) : |t| <= mu n}. Its polar cone is K° = {(n, t) : mu |t| <= -n};
/// every point splits uniquely as x = Pi_K(x) + Pi_K°(x) with the two parts
/// orthogonal (Moreau). Three cases:
///   inside K   -> unchanged
///   inside K°  -> 0
///   otherwise  -> onto the boundary ray through t/|t|:
///                 n' = (n + mu |t|) / (1 + mu^2), t' = mu n' t / |t|.
/// Inline, as is ConeSet::projectContact for this model: it runs once or
/// twice per contact in every iteration of every solver.
inline void projectCoulombCone(double mu, double& n, double& u, double& w) {
  if (!(mu > 0.0)) {  // mu = 0 (or invalid negative): the half-line n >= 0
    n = std::max(n, 0.0);
    u = 0.0;
    w = 0.0;
    return;
  }
  // Most contacts stick (inside K) or are speculative and separating (inside
  // K°): decide both on squares first, which needs no square root (only when
  // every square is finite).
  const double limit = mu * n;
  const double squares = u * u + w * w;
  const double limit_squared = limit * limit;
  const double polar_squares = mu * mu * squares;
  const double n_squared = n * n;
  if (std::isfinite(limit_squared) && std::isfinite(polar_squares) && std::isfinite(n_squared)) {
    if (n >= 0.0 && squares <= limit_squared) return;
    if (n <= 0.0 && polar_squares <= n_squared) {
      n = u = w = 0.0;
      return;
    }
  }
  const double t = tangentMagnitude(u, w);
  if (t <= limit) return;
  if (mu * t <= -n) {
    n = u = w = 0.0;
    return;
  }
  // Here t > 0 (t = 0 falls into one of the two cases above).
  const double n_new = (n + mu * t) / (1.0 + mu * mu);
  const double factor = mu * n_new / t;
  n = n_new;
  u *= factor;
  w *= factor;
}

/// Exact Euclidean projection onto {|u| <= mu n, |w| <= mu n} (n >= 0 implied).
void projectPyramid(double mu, double& n, double& u, double& w);

/// Exact Euclidean projection of g = (n, u, w, r1, r2, s) onto
/// {|(u, w)| <= mu n, |(r1, r2)| <= rolling n, |s| <= spinning n} (n >= 0
/// implied; a coefficient 0 forces its part to 0). See cone_set.cpp.
void projectRollingCone(double mu, double rolling, double spinning, double* g);

/// The set of every contact owned by this rank, in the order of the local
/// rows of the constraint map.
struct ConeSet {
  FrictionModel model = FrictionModel::Frictionless;
  std::vector<double> mu;  ///< friction coefficient per local contact
  /// CoulombRolling only, per local contact: the bounds of the rolling and
  /// spinning unknowns per unit normal impulse (mu_r and mu_s; the unknowns
  /// are the torques over the rolling radius, ContactSystem::rolling_radius).
  /// Empty for the other models.
  std::vector<double> rolling;
  std::vector<double> spinning;
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
  void projectContact(std::size_t contact, double* values) const {
    if (model == FrictionModel::Coulomb) {
      projectCoulombCone(mu[contact], values[0], values[1], values[2]);
    } else if (model == FrictionModel::Frictionless) {
      values[0] = std::max(values[0], 0.0);
    } else if (model == FrictionModel::CoulombRolling) {
      projectRollingCone(mu[contact], rolling[contact], spinning[contact], values);
    } else {
      projectOtherModels(contact, values);
    }
  }
  /// Throws std::invalid_argument (naming `who`) when the model's per-contact
  /// data are not one per contact: the fixed bounds of box and cylinder, the
  /// rolling and spinning coefficients of coulomb_rolling.
  void requireBounds(const char* who) const;
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

 private:
  /// projectContact for the pyramid, box and cylinder models.
  void projectOtherModels(std::size_t contact, double* values) const;
};

}  // namespace grains
