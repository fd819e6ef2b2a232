// Convergence measures shared by every solver (DESIGN.md "Math conventions").
#include "grains/solver/quadratic_program.hpp"

#include "solver_kernels.hpp"

namespace grains {

QpMeasures evaluateMeasures(const QuadraticProgram& qp, const Vector& gamma) {
  solver_detail::checkLayout(qp, gamma, "evaluateMeasures");
  Vector Ag(gamma.getMap(), false);
  qp.A->apply(gamma, Ag);
  QpMeasures m;
  m.residual = solver_detail::naturalResidual(qp.cones, gamma, Ag, qp.b.get());
  m.objective = solver_detail::objectiveValue(gamma, Ag, qp.b.get());
  return m;
}

QpMeasures evaluateMeasures(const QuadraticProgram& qp, const Vector& gamma,
                            const Vector& gradient) {
  solver_detail::checkLayout(qp, gamma, "evaluateMeasures");
  QpMeasures m;
  m.residual = solver_detail::naturalResidual(qp.cones, gamma, gradient, nullptr);
  // With g = A gamma + b: 1/2 gamma^T A gamma + b^T gamma = 1/2 gamma^T (g + b).
  const double* pg = solver_detail::readOnly(gamma);
  const double* pgrad = solver_detail::readOnly(gradient);
  const double* pb = solver_detail::readOnly(*qp.b);
  m.objective = 0.5 * solver_detail::reproducibleSums<1>(gamma, [=](long long i) {
                  return std::array<double, 1>{pg[i] * (pgrad[i] + pb[i])};
                })[0];
  return m;
}

ResidualSpread evaluateResidualSpread(const QuadraticProgram& qp, const Vector& gamma,
                                      double quantile) {
  Vector Ag(gamma.getMap(), false);
  return evaluateResidualSpreadKeepingImage(qp, gamma, quantile, Ag);
}

ResidualSpread evaluateResidualSpreadKeepingImage(const QuadraticProgram& qp, const Vector& gamma,
                                                  double quantile, Vector& image) {
  solver_detail::checkLayout(qp, gamma, "evaluateResidualSpread");
  qp.A->apply(gamma, image);
  return solver_detail::naturalResidualSpread(qp.cones, gamma, image, qp.b.get(), quantile);
}

ResidualSpread evaluateResidualSpread(const QuadraticProgram& qp, const Vector& gamma,
                                      const Vector& gradient, double quantile) {
  solver_detail::checkLayout(qp, gamma, "evaluateResidualSpread");
  return solver_detail::naturalResidualSpread(qp.cones, gamma, gradient, nullptr, quantile);
}

}  // namespace grains
