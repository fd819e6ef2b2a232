// Friction models and the exact Euclidean projection onto each contact set.
#include "grains/solver/cone_set.hpp"

#include "rolling_cone_projection.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace grains {

std::string frictionModelName(FrictionModel model) {
  switch (model) {
    case FrictionModel::Frictionless:
      return "frictionless";
    case FrictionModel::Coulomb:
      return "coulomb";
    case FrictionModel::Pyramid:
      return "pyramid";
    case FrictionModel::Box:
      return "box";
    case FrictionModel::Cylinder:
      return "cylinder";
    case FrictionModel::CoulombRolling:
      return "coulomb_rolling";
  }
  throw std::invalid_argument("frictionModelName: unknown FrictionModel value " +
                              std::to_string(static_cast<int>(model)));
}

FrictionModel parseFrictionModel(const std::string& name) {
  if (name == "frictionless" || name == "none") return FrictionModel::Frictionless;
  if (name == "coulomb" || name == "cone") return FrictionModel::Coulomb;
  if (name == "pyramid") return FrictionModel::Pyramid;
  if (name == "box") return FrictionModel::Box;
  if (name == "cylinder") return FrictionModel::Cylinder;
  if (name == "coulomb_rolling") return FrictionModel::CoulombRolling;
  throw std::invalid_argument("unknown friction model '" + name +
                              "'; accepted values: frictionless (or none), coulomb (or cone), "
                              "pyramid, box, cylinder, coulomb_rolling");
}

const std::vector<FrictionModel>& allFrictionModels() {
  static const std::vector<FrictionModel> models = {
      FrictionModel::Frictionless, FrictionModel::Coulomb,  FrictionModel::Pyramid,
      FrictionModel::Box,          FrictionModel::Cylinder, FrictionModel::CoulombRolling};
  return models;
}

int unknownsPerContact(FrictionModel model) {
  switch (model) {
    case FrictionModel::Frictionless:
      return 1;
    case FrictionModel::Coulomb:
    case FrictionModel::Pyramid:
    case FrictionModel::Box:
    case FrictionModel::Cylinder:
      return 3;
    case FrictionModel::CoulombRolling:
      return 6;
  }
  throw std::invalid_argument("unknownsPerContact: unknown FrictionModel value " +
                              std::to_string(static_cast<int>(model)));
}

bool hasFixedBounds(FrictionModel model) {
  return model == FrictionModel::Box || model == FrictionModel::Cylinder;
}

bool isSeparable(FrictionModel model) {
  return model == FrictionModel::Frictionless || model == FrictionModel::Box;
}

// Projection onto the pyramid P = {|u| <= mu n, |w| <= mu n}. For a fixed
// n >= 0 the closest tangential point is the clamp of (u, w) to [-mu n, mu n]^2,
// so the squared distance is the convex piecewise quadratic
//   f(n) = (n - n0)^2 + sum_{t in {|u0|, |w0|}} max(t - mu n, 0)^2.
// Its unconstrained minimiser lies in the piece where it is consistent:
// both tangents clamped, only the larger one, or none; then n is clamped to 0.
void projectPyramid(double mu, double& n, double& u, double& w) {
  if (!(mu > 0.0)) {
    n = std::max(n, 0.0);
    u = 0.0;
    w = 0.0;
    return;
  }
  const double a = std::max(std::abs(u), std::abs(w));  // larger tangential magnitude
  const double b = std::min(std::abs(u), std::abs(w));
  double n_new = n;
  if (mu * n < a) {
    const double both = (n + mu * (a + b)) / (1.0 + 2.0 * mu * mu);
    const double one = (n + mu * a) / (1.0 + mu * mu);
    n_new = mu * both <= b ? both : one;  // f'(n) is monotone: the first consistent piece
  }
  n_new = std::max(n_new, 0.0);
  const double r = mu * n_new;
  n = n_new;
  u = std::clamp(u, -r, r);
  w = std::clamp(w, -r, r);
}

// The algorithm, inline for the solvers' loops: rolling_cone_projection.hpp.
void projectRollingCone(double mu, double rolling, double spinning, double* g) {
  solver_detail::projectRollingConeInline(mu, rolling, spinning, g);
}

namespace {

void projectBoxContact(double radius, double* g) {
  g[0] = std::max(g[0], 0.0);
  g[1] = std::clamp(g[1], -radius, radius);
  g[2] = std::clamp(g[2], -radius, radius);
}

void projectCylinderContact(double radius, double* g) {
  g[0] = std::max(g[0], 0.0);
  const double t = tangentMagnitude(g[1], g[2]);
  if (t > radius) {
    const double factor = radius > 0.0 ? radius / t : 0.0;
    g[1] *= factor;
    g[2] *= factor;
  }
}

}  // namespace

void ConeSet::projectOtherModels(std::size_t c, double* g) const {
  switch (model) {
    case FrictionModel::Frictionless:
    case FrictionModel::Coulomb:
    case FrictionModel::CoulombRolling:
      projectContact(c, g);
      return;
    case FrictionModel::Pyramid:
      projectPyramid(mu[c], g[0], g[1], g[2]);
      return;
    case FrictionModel::Box:
      projectBoxContact(mu[c] * normal_bound[c], g);
      return;
    case FrictionModel::Cylinder:
      projectCylinderContact(mu[c] * normal_bound[c], g);
      return;
  }
}

void ConeSet::requireBounds(const char* who) const {
  if (hasFixedBounds(model) && normal_bound.size() != mu.size()) {
    throw std::invalid_argument(std::string(who) + ": friction model '" + frictionModelName(model) +
                                "' needs " + std::to_string(mu.size()) +
                                " normal bounds (one per contact), got " +
                                std::to_string(normal_bound.size()));
  }
  if (model == FrictionModel::CoulombRolling &&
      (rolling.size() != mu.size() || spinning.size() != mu.size())) {
    throw std::invalid_argument(
        std::string(who) + ": friction model 'coulomb_rolling' needs " + std::to_string(mu.size()) +
        " rolling and spinning coefficients (one per contact), got " +
        std::to_string(rolling.size()) + " and " + std::to_string(spinning.size()));
  }
}

void ConeSet::project(double* values) const {
  requireBounds("ConeSet::project");
  const long long contacts = static_cast<long long>(mu.size());
  const int block = blockSize();
#pragma omp parallel for schedule(static)
  for (long long c = 0; c < contacts; ++c)
    projectContact(static_cast<std::size_t>(c), values + block * c);
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

void ConeSet::bounds(double* lower, double* upper) const {
  const double inf = std::numeric_limits<double>::infinity();
  if (model == FrictionModel::Frictionless) {
    for (std::size_t c = 0; c < mu.size(); ++c) {
      lower[c] = 0.0;
      upper[c] = inf;
    }
    return;
  }
  if (model != FrictionModel::Box) {
    throw std::invalid_argument("ConeSet::bounds: friction model '" + frictionModelName(model) +
                                "' is not a set of independent intervals (frictionless or box)");
  }
  requireBounds("ConeSet::bounds");
  for (std::size_t c = 0; c < mu.size(); ++c) {
    const double r = mu[c] * normal_bound[c];
    lower[3 * c] = 0.0;
    upper[3 * c] = inf;
    lower[3 * c + 1] = lower[3 * c + 2] = -r;
    upper[3 * c + 1] = upper[3 * c + 2] = r;
  }
}

ConeSet ConeSet::withBoundsFrom(const double* gamma) const {
  ConeSet copy = *this;
  if (!hasFixedBounds(model)) return copy;
  copy.normal_bound.resize(mu.size());
  for (std::size_t c = 0; c < mu.size(); ++c) copy.normal_bound[c] = std::max(gamma[3 * c], 0.0);
  return copy;
}

}  // namespace grains
