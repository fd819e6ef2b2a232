// Friction models and the exact Euclidean projection onto the contact cones.
#include "grains/solver/cone_set.hpp"

#include <cmath>
#include <stdexcept>

namespace grains {

std::string frictionModelName(FrictionModel model) {
  switch (model) {
    case FrictionModel::Frictionless:
      return "frictionless";
    case FrictionModel::Coulomb:
      return "coulomb";
  }
  throw std::invalid_argument("frictionModelName: unknown FrictionModel value " +
                              std::to_string(static_cast<int>(model)));
}

FrictionModel parseFrictionModel(const std::string& name) {
  if (name == "frictionless") return FrictionModel::Frictionless;
  if (name == "coulomb") return FrictionModel::Coulomb;
  throw std::invalid_argument("unknown friction model '" + name +
                              "'; accepted values: frictionless, coulomb");
}

int unknownsPerContact(FrictionModel model) {
  switch (model) {
    case FrictionModel::Frictionless:
      return 1;
    case FrictionModel::Coulomb:
      return 3;
  }
  throw std::invalid_argument("unknownsPerContact: unknown FrictionModel value " +
                              std::to_string(static_cast<int>(model)));
}

// Projection onto the second-order cone K = {(n, t) : |t| <= mu n}. Its polar
// cone is K° = {(n, t) : mu |t| <= -n}; every point splits uniquely as
// x = Pi_K(x) + Pi_K°(x) with the two parts orthogonal (Moreau). Three cases:
//   inside K            -> unchanged
//   inside K°           -> 0
//   otherwise           -> onto the boundary ray through t/|t|:
//                          n' = (n + mu |t|) / (1 + mu^2), t' = mu n' t / |t|.
void projectCoulombCone(double mu, double& n, double& u, double& w) {
  if (!(mu > 0.0)) {  // mu = 0 (or invalid negative): the half-line n >= 0
    n = std::max(n, 0.0);
    u = 0.0;
    w = 0.0;
    return;
  }
  const double t = std::hypot(u, w);
  if (t <= mu * n) return;
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

void ConeSet::project(double* values) const {
  const long long contacts = static_cast<long long>(mu.size());
  if (model == FrictionModel::Frictionless) {
#pragma omp parallel for schedule(static)
    for (long long c = 0; c < contacts; ++c) values[c] = std::max(values[c], 0.0);
  } else {
#pragma omp parallel for schedule(static)
    for (long long c = 0; c < contacts; ++c) {
      double* g = values + 3 * c;
      projectCoulombCone(mu[static_cast<std::size_t>(c)], g[0], g[1], g[2]);
    }
  }
}

void ConeSet::project(Vector& gamma) const {
  const std::size_t expected = static_cast<std::size_t>(blockSize()) * localContacts();
  if (gamma.getLocalLength() != expected) {
    throw std::invalid_argument(
        "ConeSet::project: vector has " + std::to_string(gamma.getLocalLength()) +
        " local entries, expected " + std::to_string(expected) + " (" +
        std::to_string(localContacts()) + " contacts, " + frictionModelName(model) + ")");
  }
  auto view = gamma.getLocalViewHost(Tpetra::Access::ReadWrite);
  project(view.data());
}

}  // namespace grains
