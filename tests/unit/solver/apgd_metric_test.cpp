// APGD in the diagonal metric (src/solver/diagonal_metric.hpp): the scaled
// step is the projection in the metric, and both metrics solve the same
// problems, the diagonal one in fewer iterations where diag(A) is uneven.
#include "../../../src/solver/diagonal_metric.hpp"

#include "grains/solver/solver.hpp"

#include "solver_test_support.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace grains {
namespace {

using solver_detail::DiagonalMetric;
using solver_detail::diagonalMetric;
using solver_detail::scaledProjectedStep;

// The scales are diag(A)^-1/2 of the normal row and of the mean of the two
// tangential rows; the projection in the metric P = S^-2 satisfies its
// optimality conditions: p in K, v = P (z - p) in the polar cone K°
// (mu |v_t| <= -v_n), p.v = 0 (Moreau in the P inner product).
TEST(DiagonalMetric, StepIsTheProjectionInTheMetric) {
  std::mt19937 rng(5);
  const int contacts = 40;
  const test::DenseFactored f = test::randomContactProblem(rng, 12, contacts, 3, 0.7, 0.0);
  std::uniform_real_distribution<double> mu_dist(0.1, 1.2);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::vector<double> mu(contacts);
  for (auto& m : mu) m = mu_dist(rng);
  Eigen::VectorXd b(3 * contacts), z(3 * contacts);
  for (int i = 0; i < 3 * contacts; ++i) {
    b[i] = normal(rng);
    z[i] = normal(rng);
  }
  const QuadraticProgram qp = test::makeQp(f, b, FrictionModel::Coulomb, mu);
  const DiagonalMetric metric = diagonalMetric(qp);
  if (qp.map()->getComm()->getSize() != 1) GTEST_SKIP() << "serial test";
  const Eigen::MatrixXd A = f.A();
  for (int c = 0; c < contacts; ++c) {
    const double s_n = 1.0 / std::sqrt(A(3 * c, 3 * c));
    const double s_t = 1.0 / std::sqrt(0.5 * (A(3 * c + 1, 3 * c + 1) + A(3 * c + 2, 3 * c + 2)));
    EXPECT_NEAR(metric.scale[3 * c], s_n, 1e-14 * s_n);
    EXPECT_NEAR(metric.scale[3 * c + 1], s_t, 1e-14 * s_t);
    EXPECT_NEAR(metric.scale[3 * c + 2], s_t, 1e-14 * s_t);
    EXPECT_NEAR(metric.cones.mu[c], mu[c] * s_n / s_t, 1e-14 * mu[c] * s_n / s_t);
  }
  // x = z, Ax = 0, b = none: the step is the projection of z itself.
  const auto x = test::makeVector(qp.map(), z);
  const auto zeros = test::makeVector(qp.map(), Eigen::VectorXd::Zero(3 * contacts));
  Vector out(qp.map());
  scaledProjectedStep(metric, *x, *zeros, nullptr, 1.0, out);
  const Eigen::VectorXd p = test::gather(out);
  int interior = 0, origin = 0, boundary = 0;
  for (int c = 0; c < contacts; ++c) {
    SCOPED_TRACE("contact " + std::to_string(c));
    const Eigen::Vector3d pc = p.segment<3>(3 * c);
    Eigen::Vector3d v;
    for (int k = 0; k < 3; ++k) {
      const double s = metric.scale[3 * c + k];
      v[k] = (z[3 * c + k] - pc[k]) / (s * s);
    }
    const double scale =
        1.0 + z.segment<3>(3 * c).norm() / (metric.scale[3 * c] * metric.scale[3 * c]);
    EXPECT_LE(pc.tail<2>().norm(), mu[c] * pc[0] + 1e-13);           // p in K
    EXPECT_LE(mu[c] * v.tail<2>().norm(), -v[0] + 1e-12 * scale);    // v in K°
    EXPECT_NEAR(pc.dot(v), 0.0, 1e-12 * scale * (1.0 + pc.norm()));  // p . v = 0
    if (v.norm() == 0.0)
      ++interior;
    else if (pc.norm() == 0.0)
      ++origin;
    else
      ++boundary;
  }
  EXPECT_GT(interior, 0);
  EXPECT_GT(origin, 0);
  EXPECT_GT(boundary, 0);
}

// A column of n spheres (radius r, mass m) resting on the floor, pushed
// sideways at the top: the normal impulses are the weights above each contact
// (the normal rows do not couple to the tangential ones, whose lever arms are
// along the normal), the tangential ones need friction. Tangential rows of
// diag(A) are 3.5 times the normal ones (1/m + r^2/I, I = 2/5 m r^2): the
// diagonal metric must reach the same solution in fewer iterations.
TEST(ApgdMetric, SphereColumnSameSolutionFewerIterations) {
  const int n = 24;
  const double r = 0.1, m = 6.28, g = 9.81, dt = 0.01, mu = 0.5, push = 0.02;
  test::DenseFactored f;
  f.scale = dt;
  BodyMobility w;
  w.inverse_mass = 1.0 / m;
  w.inverse_inertia = Mat3::Identity() / (0.4 * m * r * r);
  f.mobility.assign(n, w);
  f.Dt = Eigen::MatrixXd::Zero(3 * n, 6 * n);
  const Vec3 dirs[3] = {Vec3::UnitZ(), Vec3::UnitX(), Vec3::UnitY()};
  const Vec3 below_arm(0.0, 0.0, r), above_arm(0.0, 0.0, -r);
  for (int c = 0; c < n; ++c) {  // contact c: floor or sphere c - 1 below, sphere c above
    for (int k = 0; k < 3; ++k) {
      const int row = 3 * c + k;
      f.Dt.block<1, 3>(row, 6 * c) = dirs[k].transpose();
      f.Dt.block<1, 3>(row, 6 * c + 3) = above_arm.cross(dirs[k]).transpose();
      if (c > 0) {
        f.Dt.block<1, 3>(row, 6 * (c - 1)) = -dirs[k].transpose();
        f.Dt.block<1, 3>(row, 6 * (c - 1) + 3) = -below_arm.cross(dirs[k]).transpose();
      }
    }
  }
  // b = dt D^T u_free: gravity on every sphere, a sideways velocity on the top one.
  Eigen::VectorXd u_free = Eigen::VectorXd::Zero(6 * n);
  for (int i = 0; i < n; ++i) u_free[6 * i + 2] = -g * dt;
  u_free[6 * (n - 1)] = push;
  const Eigen::VectorXd b = dt * f.Dt * u_free;
  const QuadraticProgram qp =
      test::makeQp(f, b, FrictionModel::Coulomb, std::vector<double>(n, mu));
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(3 * n);
  const test::RunResult euclidean =
      test::run("apgd", qp, zero, 1e-12, 200000, {{"preconditioned", 0.0}});
  const test::RunResult metric =
      test::run("apgd", qp, zero, 1e-12, 200000, {{"preconditioned", 1.0}});
  ASSERT_TRUE(euclidean.report.converged) << euclidean.report.residual;
  ASSERT_TRUE(metric.report.converged) << metric.report.residual;
  for (int c = 0; c < n; ++c) {
    const double weight = (n - c) * m * g * dt;  // impulse over the step
    EXPECT_NEAR(metric.gamma[3 * c], weight, 1e-5) << "contact " << c;
    EXPECT_NEAR(euclidean.gamma[3 * c], weight, 1e-5) << "contact " << c;
  }
  EXPECT_LE((metric.gamma - euclidean.gamma).cwiseAbs().maxCoeff(), 1e-5);
  double friction = 0.0;
  for (int c = 0; c < n; ++c)
    friction = std::max(friction, metric.gamma.segment<2>(3 * c + 1).norm());
  EXPECT_GT(friction, 1e-3);  // the push is resisted by friction somewhere
  EXPECT_LT(2 * metric.report.iterations, euclidean.report.iterations)
      << "diagonal metric " << metric.report.iterations << ", euclidean "
      << euclidean.report.iterations;
}

}  // namespace
}  // namespace grains
