// Friction models and the exact Euclidean projection onto each contact set.
#include "grains/solver/cone_set.hpp"

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

// Projection onto K = {|t| <= mu n, |r| <= k_r n, |s| <= k_s n} (t = (u, w),
// r = (r1, r2), k_r = mu_r rho, k_s = mu_s rho), the contact set of Tasora &
// Anitescu 2013 (their eqs. 9-11 with the rolling and spinning bounds as
// torques mu_r rho N, mu_s rho N). For a fixed n the closest point of the
// slice is the independent clip of t, r and s to their discs and interval,
// so the squared distance is the convex, C^1 piecewise quadratic
//   f(n) = (n - n0)^2 + sum_i max(a_i - k_i n, 0)^2,
//   (a_i, k_i) = (|t0|, mu), (|r0|, k_r), (|s0|, k_s).
// Term i is active below its breakpoint a_i / k_i. Between consecutive
// breakpoints f is one quadratic with stationary point
//   n*(S) = (n0 + sum_{i in S} k_i a_i) / (1 + sum_{i in S} k_i^2)
// over the active set S. Scanning the pieces from the top (S empty) down,
// the first piece whose n* is not below its lower breakpoint holds the
// minimiser over the real line (f' is increasing and continuous); the
// minimiser over n >= 0 is that n* clamped to 0. Chrono projects the three
// parts one after the other instead, which is not the Euclidean projection.
void projectRollingCone(double mu, double rolling, double spinning, double* g) {
  const double n0 = g[0];
  const double magnitude[3] = {tangentMagnitude(g[1], g[2]), tangentMagnitude(g[3], g[4]),
                               std::abs(g[5])};
  const double coefficient[3] = {std::max(mu, 0.0), std::max(rolling, 0.0),
                                 std::max(spinning, 0.0)};
  // Terms with k_i = 0 do not depend on n (their part is clipped to 0).
  int order[3];
  double breakpoint[3];
  int terms = 0;
  for (int i = 0; i < 3; ++i) {
    if (!(coefficient[i] > 0.0)) continue;
    breakpoint[i] = magnitude[i] / coefficient[i];
    order[terms++] = i;
  }
  // Breakpoints in decreasing order (at most three: insertion sort).
  for (int j = 1; j < terms; ++j)
    for (int k = j; k > 0 && breakpoint[order[k]] > breakpoint[order[k - 1]]; --k)
      std::swap(order[k], order[k - 1]);
  double numerator = n0;
  double denominator = 1.0;
  double n = n0;  // the piece above every breakpoint: nothing active
  for (int j = 0; j <= terms; ++j) {
    const double lower =
        j < terms ? breakpoint[order[j]] : -std::numeric_limits<double>::infinity();
    n = numerator / denominator;
    if (n >= lower) break;
    const int i = order[j];  // below its breakpoint term i becomes active
    numerator += coefficient[i] * magnitude[i];
    denominator += coefficient[i] * coefficient[i];
  }
  n = std::max(n, 0.0);
  g[0] = n;
  const auto clip = [](double bound, double magnitude_i, double& x, double& y) {
    if (magnitude_i > bound) {
      const double factor = bound > 0.0 ? bound / magnitude_i : 0.0;
      x *= factor;
      y *= factor;
    }
  };
  clip(coefficient[0] * n, magnitude[0], g[1], g[2]);
  clip(coefficient[1] * n, magnitude[1], g[3], g[4]);
  const double spin_bound = coefficient[2] * n;
  g[5] = std::clamp(g[5], -spin_bound, spin_bound);
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
