#pragma once
// The feasible set K of the contact QP: a product of one cone per contact.
#include "grains/linalg/tpetra_types.hpp"

#include <string>
#include <vector>

namespace grains {

enum class FrictionModel : int {
  Frictionless = 0,  ///< one unknown per contact, gamma_n >= 0
  Coulomb = 1        ///< (gamma_n, gamma_u, gamma_w) in the second-order cone
};

std::string frictionModelName(FrictionModel model);
/// Throws std::invalid_argument naming the accepted values.
FrictionModel parseFrictionModel(const std::string& name);

/// Unknowns per contact for a friction model (1 or 3).
int unknownsPerContact(FrictionModel model);

/// Exact Euclidean projection of (n, u, w) onto {sqrt(u^2 + w^2) <= mu n}.
void projectCoulombCone(double mu, double& n, double& u, double& w);

/// The cone of every contact owned by this rank, in the order of the local
/// rows of the constraint map.
struct ConeSet {
  FrictionModel model = FrictionModel::Frictionless;
  std::vector<double> mu;  ///< friction coefficient per local contact

  int blockSize() const { return unknownsPerContact(model); }
  std::size_t localContacts() const { return mu.size(); }

  /// Project a local array of blockSize()*localContacts() values onto K, in place.
  void project(double* values) const;
  /// Project a distributed vector (this rank's entries) onto K, in place.
  void project(Vector& gamma) const;
};

}  // namespace grains
