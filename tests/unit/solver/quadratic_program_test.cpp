// evaluateMeasures and evaluateResidualSpread: natural-map residual, its
// spread over the contacts and the objective on hand-computed cases.
#include "grains/solver/quadratic_program.hpp"

#include "solver_test_support.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>

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

TEST(EvaluateResidualSpread, QuantileIsTheUpperEdgeOfItsEighthOfAnOctave) {
  // gamma = 0 and b_i = -i: contact i's residual is |0 - max(0, i)| = i.
  Eigen::VectorXd b(10), diag = Eigen::VectorXd::Ones(10);
  for (int i = 0; i < 10; ++i) b[i] = -(i + 1.0);
  const QuadraticProgram qp = diagonalQp(FrictionModel::Frictionless, diag, b);
  const auto gamma = test::makeVector(qp.map(), Eigen::VectorXd::Zero(10));
  // Half the contacts have residuals <= 5, which lies in [5, 5.5): 1.25 x 4
  // to 1.375 x 4, eight bins per octave.
  ResidualSpread spread = evaluateResidualSpread(qp, *gamma, 0.5);
  EXPECT_DOUBLE_EQ(spread.worst, 10.0);
  EXPECT_DOUBLE_EQ(spread.quantile, 5.5);
  EXPECT_DOUBLE_EQ(evaluateResidualSpread(qp, *gamma, 0.55).quantile, 6.5);   // 6 in [6, 6.5)
  EXPECT_DOUBLE_EQ(evaluateResidualSpread(qp, *gamma, 0.1).quantile, 1.125);  // 1 in [1, 1.125)
  // The top bin's edge (11) is capped at the worst residual itself.
  EXPECT_DOUBLE_EQ(evaluateResidualSpread(qp, *gamma, 0.999).quantile, 10.0);
  spread = evaluateResidualSpread(qp, *gamma, 1.0);
  EXPECT_DOUBLE_EQ(spread.quantile, 10.0);
  EXPECT_EQ(spread.worst, evaluateMeasures(qp, *gamma).residual);
  EXPECT_THROW(evaluateResidualSpread(qp, *gamma, 0.0), std::invalid_argument);
  EXPECT_THROW(evaluateResidualSpread(qp, *gamma, 1.5), std::invalid_argument);
}

TEST(EvaluateResidualSpread, ContactsAtTheSolutionCountAsZero) {
  // Contacts 0-7 solved exactly, 8 and 9 off by 1e-3 and 2e-3: up to 80 % the
  // quantile is the lowest bin's edge (1.125 x 2^-100), beyond it the stray contacts'.
  Eigen::VectorXd b = Eigen::VectorXd::Ones(10), diag = Eigen::VectorXd::Ones(10);
  b[8] = -1e-3;
  b[9] = -2e-3;
  const QuadraticProgram qp = diagonalQp(FrictionModel::Frictionless, diag, b);
  const auto gamma = test::makeVector(qp.map(), Eigen::VectorXd::Zero(10));
  EXPECT_DOUBLE_EQ(evaluateResidualSpread(qp, *gamma, 0.8).quantile, std::ldexp(1.125, -100));
  const double ninth = evaluateResidualSpread(qp, *gamma, 0.9).quantile;
  EXPECT_GT(ninth, 1e-3);
  EXPECT_LT(ninth, 1e-3 * 1.125);
  EXPECT_DOUBLE_EQ(evaluateResidualSpread(qp, *gamma, 0.95).worst, 2e-3);
}

}  // namespace
}  // namespace grains
