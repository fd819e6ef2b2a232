#pragma once
// Box and cylinder problems (fixed friction bounds mu * normal_bound, Preclik et al. (2009)
// Table 1) with a known solution, for the tests of the cpg, newton and ngs solvers.
#include "solver_test_support.hpp"

#include <Eigen/Dense>

#include <cmath>
#include <random>
#include <vector>

namespace grains::test {

/// Fills qp.cones.normal_bound for this rank's contacts from a global list.
inline void setNormalBounds(QuadraticProgram& qp, const std::vector<double>& global_bounds) {
  const int block = qp.cones.blockSize();
  const auto map = qp.map();
  qp.cones.normal_bound.clear();
  for (std::size_t k = 0; k < map->getNodeNumElements(); k += static_cast<std::size_t>(block)) {
    const GlobalOrdinal c = map->getGlobalElement(static_cast<LocalOrdinal>(k)) / block;
    qp.cones.normal_bound.push_back(global_bounds[static_cast<std::size_t>(c)]);
  }
}

/// A solution x* of min 1/2 x^T A x + b^T x over the box or cylinder set with
/// radii R_c = mu_c * bound_c, and the b that makes it optimal (b = g* - A x*
/// with g* in -N_K(x*)). Per contact: the normal is positive (g_n = 0) or zero
/// (g_n > 0) alternately; the tangential pair is interior (g_t = 0), on the
/// boundary (g_t = -s * outward normal, s > 0) or, for the box, at a corner,
/// cycling with the contact index. Contacts with R = 0 have t = 0 and any g_t.
inline Eigen::VectorXd knownFixedBoundsRhs(std::mt19937& rng, const Eigen::MatrixXd& A,
                                           FrictionModel model, const std::vector<double>& mu,
                                           const std::vector<double>& bound,
                                           Eigen::VectorXd& solution) {
  std::uniform_real_distribution<double> u(0.2, 1.0);
  std::uniform_real_distribution<double> sym(-1.0, 1.0);
  const int contacts = static_cast<int>(A.rows()) / 3;
  solution = Eigen::VectorXd::Zero(A.rows());
  Eigen::VectorXd gradient = Eigen::VectorXd::Zero(A.rows());
  for (int c = 0; c < contacts; ++c) {
    const double R = mu[static_cast<std::size_t>(c)] * bound[static_cast<std::size_t>(c)];
    if (c % 2 == 0) {
      solution[3 * c] = u(rng);
    } else {
      gradient[3 * c] = u(rng);
    }
    if (!(R > 0.0)) {
      gradient.segment<2>(3 * c + 1) << sym(rng), sym(rng);
      continue;
    }
    const int kind = (c / 2) % 3;  // 0 interior, 1 boundary, 2 corner (box) / boundary
    if (kind == 0) {
      solution.segment<2>(3 * c + 1) << 0.5 * R * sym(rng), 0.5 * R * sym(rng);
      continue;
    }
    if (model == FrictionModel::Cylinder) {
      Eigen::Vector2d e(sym(rng), sym(rng));
      e.normalize();
      solution.segment<2>(3 * c + 1) = R * e;
      gradient.segment<2>(3 * c + 1) = -u(rng) * e;
    } else {
      const double s1 = sym(rng) < 0.0 ? -1.0 : 1.0;
      solution[3 * c + 1] = s1 * R;
      gradient[3 * c + 1] = -s1 * u(rng);
      if (kind == 2) {
        const double s2 = sym(rng) < 0.0 ? -1.0 : 1.0;
        solution[3 * c + 2] = s2 * R;
        gradient[3 * c + 2] = -s2 * u(rng);
      } else {
        solution[3 * c + 2] = 0.5 * R * sym(rng);
      }
    }
  }
  return gradient - A * solution;
}

/// Natural residual |x - Pi_K(x - (A x + b))|_inf of a dense fixed-bounds problem.
inline double denseResidual(const Eigen::MatrixXd& A, const Eigen::VectorXd& b,
                            const Eigen::VectorXd& x, FrictionModel model,
                            const std::vector<double>& mu, const std::vector<double>& bound) {
  ConeSet cones;
  cones.model = model;
  cones.mu = mu;
  cones.normal_bound = bound;
  Eigen::VectorXd z = x - (A * x + b);
  cones.project(z.data());
  return (x - z).cwiseAbs().maxCoeff();
}

}  // namespace grains::test
