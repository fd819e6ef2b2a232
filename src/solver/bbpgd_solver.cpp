// Barzilai-Borwein projected gradient ("bbpgd"), DESIGN.md algorithm notes
// (Dai & Fletcher 2005 style, no line search):
//   x_1 = Pi(x_0 - a_0 g_0),  a_0 = 1 / || x_0 - Pi(x_0 - g_0) ||_inf,
//   s = x_{k+1} - x_k,  y = g_{k+1} - g_k = A s  (the only A-apply per iteration),
//   alternating BB1 a = s.s / s.y and BB2 a = s.y / y.y.
// The iteration is non-monotone, so the best-residual iterate is kept and returned.
#include "solver_factories.hpp"
#include "solver_kernels.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace grains::solver_detail {
namespace {

class BbpgdSolver final : public Solver {
 public:
  explicit BbpgdSolver(SolverSettings settings) : settings_(std::move(settings)) {}
  std::string name() const override { return "bbpgd"; }
  SolveReport solve(const QuadraticProgram& qp, Vector& gamma) const override;

 private:
  SolverSettings settings_;
};

SolveReport BbpgdSolver::solve(const QuadraticProgram& qp, Vector& gamma) const {
  checkLayout(qp, gamma, "bbpgd");
  const double tol = scaledTolerance(settings_.tolerance);
  const Vector* b = qp.b.get();
  const auto map = gamma.getMap();
  // Work vectors, allocated once per solve: A x (kept up to date by A s), the
  // step s, y = A s and the best iterate.
  Vector Ax(map, false), s(map, false), y(map, false), best(map, false);

  qp.cones.project(gamma);  // warm start onto K
  qp.A->apply(gamma, Ax);
  int applies = 1;
  double residual = naturalResidual(qp.cones, gamma, Ax, b);
  double best_residual = residual;
  Tpetra::deep_copy(best, gamma);

  // The projected gradient of unit step is x - Pi(x - g), whose inf-norm is the residual.
  auto fallback_step = [](double r) { return r > 0.0 && std::isfinite(r) ? 1.0 / r : 1.0; };
  double alpha = fallback_step(residual);
  constexpr double kAlphaMin = 1e-30;
  constexpr double kAlphaMax = 1e30;
  int iterations = 0;
  while (!(best_residual <= tol) && iterations < settings_.max_iterations) {
    ++iterations;
    projectedStep(qp.cones, gamma, Ax, b, alpha, s);  // s = x_{k+1}
    s.update(-1.0, gamma, 1.0);                       // s = x_{k+1} - x_k
    qp.A->apply(s, y);                                // y = A s = g_{k+1} - g_k
    ++applies;
    gamma.update(1.0, s, 1.0);
    Ax.update(1.0, y, 1.0);

    residual = naturalResidual(qp.cones, gamma, Ax, b);
    observe(iterations, gamma);
    if (residual < best_residual) {
      best_residual = residual;
      Tpetra::deep_copy(best, gamma);
    }
    if (residual <= tol) break;

    const auto [ss, sy, yy] = stepDots(s, y);
    // Guard: no move, or (near-)zero / negative curvature along s (A is only
    // PSD): restart from the scale-free initial step.
    if (!(ss > 0.0) || !(sy > 1e-14 * std::sqrt(ss * yy)) || !(yy > 0.0)) {
      alpha = fallback_step(residual);
    } else {
      alpha = (iterations % 2 == 1) ? ss / sy : sy / yy;  // BB1 / BB2 alternation
    }
    if (!std::isfinite(alpha)) alpha = fallback_step(residual);
    alpha = std::min(std::max(alpha, kAlphaMin), kAlphaMax);
  }
  return finishReport(name(), qp, best, gamma, iterations, applies, tol);
}

}  // namespace

std::unique_ptr<Solver> makeBbpgdSolver(const SolverSettings& settings) {
  return std::make_unique<BbpgdSolver>(settings);
}

}  // namespace grains::solver_detail
