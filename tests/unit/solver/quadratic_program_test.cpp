// evaluateMeasures: natural-map residual and objective on hand-computed cases.
#include "grains/solver/quadratic_program.hpp"

#include "solver_test_support.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace grains {
namespace {

QuadraticProgram diagonalQp(FrictionModel model, const Eigen::VectorXd& diag,
                            const Eigen::VectorXd& b, std::vector<double> mu = {}) {
  return test::makeQp(Eigen::MatrixXd(diag.asDiagonal()), b, model, mu);
}

TEST(EvaluateMeasures, FrictionlessHandComputedValues) {
  const Eigen::Vector2d diag(2.0, 4.0), b(-2.0, 1.0);
  const QuadraticProgram qp = diagonalQp(FrictionModel::Frictionless, diag, b);
  // gamma = (3, 0.5): g = (4, 3), Pi(gamma - g) = (0, 0), residual = 3,
  // objective = 1/2 (18 + 1) + (-6 + 0.5) = 4.
  auto gamma = test::makeVector(qp.map(), Eigen::Vector2d(3.0, 0.5));
  QpMeasures m = evaluateMeasures(qp, *gamma);
  EXPECT_DOUBLE_EQ(m.residual, 3.0);
  EXPECT_DOUBLE_EQ(m.objective, 4.0);
  // Same through the precomputed-gradient overload.
  auto gradient = test::makeVector(qp.map(), Eigen::Vector2d(4.0, 3.0));
  m = evaluateMeasures(qp, *gamma, *gradient);
  EXPECT_DOUBLE_EQ(m.residual, 3.0);
  EXPECT_DOUBLE_EQ(m.objective, 4.0);
  // The solution (1, 0): g = (0, 1) -> residual 0, objective -1.
  gamma = test::makeVector(qp.map(), Eigen::Vector2d(1.0, 0.0));
  m = evaluateMeasures(qp, *gamma);
  EXPECT_DOUBLE_EQ(m.residual, 0.0);
  EXPECT_DOUBLE_EQ(m.objective, -1.0);
}

TEST(EvaluateMeasures, CoulombResidualUsesTheConeProjection) {
  // A = I, b = (-1, -3, -4), mu = 0.5: the solution is Pi_K(-b) = (2.8, 0.84, 1.12).
  const QuadraticProgram qp = diagonalQp(FrictionModel::Coulomb, Eigen::Vector3d::Ones(),
                                         Eigen::Vector3d(-1.0, -3.0, -4.0), {0.5});
  auto gamma = test::makeVector(qp.map(), Eigen::Vector3d(2.8, 0.84, 1.12));
  EXPECT_NEAR(evaluateMeasures(qp, *gamma).residual, 0.0, 1e-14);
  // At gamma = 0: g = b, Pi_K(-b) = (2.8, 0.84, 1.12), residual = 2.8, objective 0.
  gamma->putScalar(0.0);
  const QpMeasures m = evaluateMeasures(qp, *gamma);
  EXPECT_NEAR(m.residual, 2.8, 1e-14);
  EXPECT_EQ(m.objective, 0.0);
}

TEST(EvaluateMeasures, NanIsNeverSmall) {
  const QuadraticProgram qp =
      diagonalQp(FrictionModel::Frictionless, Eigen::Vector2d(1.0, 1.0), Eigen::Vector2d(0.0, 0.0));
  auto gamma = test::makeVector(qp.map(), Eigen::Vector2d(std::nan(""), 0.0));
  EXPECT_EQ(evaluateMeasures(qp, *gamma).residual, std::numeric_limits<double>::infinity());
}

}  // namespace
}  // namespace grains
