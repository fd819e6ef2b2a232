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
  const double g_dot = gamma.dot(gradient);
  const double b_dot = gamma.dot(*qp.b);
  m.objective = 0.5 * (g_dot + b_dot);
  return m;
}

}  // namespace grains
