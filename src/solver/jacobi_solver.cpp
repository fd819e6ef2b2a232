// Projected Jacobi ("jacobi"), the Chrono::Engine scheme of Heyn et al. (2013) §4.1, eq. 12:
//   gt^{r+1} = g^r - omega B (A g^r + b)
//   gh^{r+1} = Pi_K(gt^{r+1})
//   g^{r+1}  = lambda gh^{r+1} + (1 - lambda) g^r
// with B = diag(eta_1, ..., eta_nc), one eta per contact (the same value for the
// contact's 1 or 3 unknowns): eta_i = 1 / Trace(D_i^T M^-1 D_i), the trace of
// the contact's diagonal block of A (for a frictionless contact its single
// diagonal entry, so omega = 1 is the classical Jacobi step).
// Sign: Heyn et al. (2013) eq. 12 prints "g^r + omega B [N g^r + r]"; the step must go
// down the gradient A g + b of the objective, so we subtract (with "+" the
// iteration climbs and diverges). This is the form Chrono actually uses.
// Because B is a multiple of the identity on each contact block, the Euclidean
// projection onto a contact's set is also the projection in the metric B^-1,
// so eq. 12 is a scaled projected-gradient step: for lambda in (0, 1] the
// objective decreases monotonically whenever omega * lambda * lambda_max(B A) < 2,
// and the iterates converge to a minimiser.
//
// Safeguard (option safeguard = 1, default; not in the paper): omega = 0.3 is
// the paper's choice for large sparse problems, where lambda_max(B A) is a small
// multiple of the number of contacts coupled per body; for small dense
// problems lambda_max(B A) can approach the number of contacts (8 for a dense
// 8x8 A), and the fixed-omega iteration then diverges. After each iteration we
// measure the curvature of the step d = g^{r+1} - g^r in the B^-1 metric,
//   rho = d.A d / d.B^-1 d   (<= lambda_max(B A); A d = A g^{r+1} - A g^r, no extra apply),
// and halve omega when omega * lambda * rho >= 2, i.e. exactly when the
// decrease guarantee above failed for this step. rho never exceeds
// lambda_max(B A), so omega is halved only finitely often and never when the
// paper's omega is already stable; with safeguard = 0 omega stays fixed (pure eq. 12).
// (On the dense 3x3..8x8 test problems of solver_lcp_test.cpp, measured
// 0.3 lambda_max(B A) <= 1.14: the default never halves omega there, and
// tests/unit/solver/jacobi_test.cpp has a problem where it must.)
//
// One iteration = one application of A (to the new iterate). The natural
// residual is checked at every iterate, including the projected warm start.
#include "solver_factories.hpp"
#include "solver_kernels.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <utility>
#include <vector>

namespace grains::solver_detail {
namespace {

using Index = long long;

class JacobiSolver final : public Solver {
 public:
  explicit JacobiSolver(SolverSettings settings)
      : settings_(std::move(settings)),
        omega_(solverOption(settings_, "omega")),
        lambda_(solverOption(settings_, "lambda")),
        safeguard_(solverOption(settings_, "safeguard") != 0.0) {}
  std::string name() const override { return "jacobi"; }
  SolveReport solve(const QuadraticProgram& qp, Vector& gamma) const override;

 private:
  SolverSettings settings_;
  double omega_;
  double lambda_;
  bool safeguard_;
};

/// eta per local contact: 1 / Trace of the contact's diagonal block of A
/// (Heyn et al. (2013) §4.1). A block with zero trace (a contact that touches nothing,
/// A's rows are zero there) gets the smallest step of the problem.
std::vector<double> contactEtas(const QuadraticProgram& qp, const Vector& like) {
  const std::vector<double> diagonal = localDiagonal(qp);
  const int block = qp.cones.blockSize();
  const Index contacts = static_cast<Index>(qp.cones.localContacts());
  std::vector<double> trace(static_cast<std::size_t>(contacts), 0.0);
  double largest = 0.0;
  for (Index c = 0; c < contacts; ++c) {
    double t = 0.0;
    for (int k = 0; k < block; ++k) t += diagonal[static_cast<std::size_t>(block * c + k)];
    trace[static_cast<std::size_t>(c)] = t;
    if (std::isfinite(t)) largest = std::max(largest, t);
  }
  largest = globalMax(like, largest);
  const double fallback = largest > 0.0 ? largest : 1.0;
  std::vector<double> eta(trace.size());
  for (std::size_t c = 0; c < trace.size(); ++c)
    eta[c] = 1.0 / (trace[c] > 0.0 && std::isfinite(trace[c]) ? trace[c] : fallback);
  return eta;
}

/// out = lambda Pi_K(x - omega B (Ax + b)) + (1 - lambda) x  (eq. 12), local entries.
void jacobiStep(const ConeSet& cones, const std::vector<double>& eta, double omega, double lambda,
                const Vector& x, const Vector& Ax, const Vector& b, Vector& out) {
  const double* px = readOnly(x);
  const double* pAx = readOnly(Ax);
  const double* pb = readOnly(b);
  double* po = out.getLocalViewHost(Tpetra::Access::OverwriteAll).data();
  const int block = cones.blockSize();
  const Index contacts = static_cast<Index>(cones.localContacts());
#pragma omp parallel for schedule(static)
  for (Index c = 0; c < contacts; ++c) {
    const double step = omega * eta[static_cast<std::size_t>(c)];
    double z[kMaxBlockSize];
    for (int k = 0; k < block; ++k) {
      const Index i = block * c + k;
      z[k] = px[i] - step * (pAx[i] + pb[i]);  // minus: descent (see header)
    }
    cones.projectContact(static_cast<std::size_t>(c), z);
    for (int k = 0; k < block; ++k) {
      const Index i = block * c + k;
      po[i] = lambda * z[k] + (1.0 - lambda) * px[i];
    }
  }
}

/// Global ( d.A d, d.B^-1 d ) with d = x1 - x0, A d = Ax1 - Ax0, summed
/// reproducibly (the safeguard's decision is the same on any rank count).
std::array<double, 2> stepCurvature(const std::vector<double>& eta, int block, const Vector& x1,
                                    const Vector& x0, const Vector& Ax1, const Vector& Ax0) {
  const double* p1 = readOnly(x1);
  const double* p0 = readOnly(x0);
  const double* pA1 = readOnly(Ax1);
  const double* pA0 = readOnly(Ax0);
  const double* peta = eta.data();
  return reproducibleSums<2>(x1, [=](long long i) -> std::array<double, 2> {
    const double d = p1[i] - p0[i];
    return {d * (pA1[i] - pA0[i]), d * d / peta[i / block]};
  });
}

SolveReport JacobiSolver::solve(const QuadraticProgram& qp, Vector& gamma) const {
  checkLayout(qp, gamma, "jacobi");
  const double tol = scaledTolerance(settings_.tolerance);
  const Vector& b = *qp.b;
  const auto map = gamma.getMap();
  const std::vector<double> eta = contactEtas(qp, gamma);
  const int block = qp.cones.blockSize();
  // x_r lives in gamma's storage or in `other`; the pointers are swapped.
  Vector other(map, false), Ax_a(map, false), Ax_b(map, false);
  Vector* x = &gamma;
  Vector* xn = &other;
  Vector* Ax = &Ax_a;
  Vector* Axn = &Ax_b;

  qp.cones.project(gamma);  // warm start onto K
  qp.A->apply(*x, *Ax);
  int applies = 1;
  double residual = naturalResidual(qp.cones, *x, *Ax, &b);
  double omega = omega_;
  int iterations = 0;
  while (!(residual <= tol) && iterations < settings_.max_iterations) {
    ++iterations;
    jacobiStep(qp.cones, eta, omega, lambda_, *x, *Ax, b, *xn);
    qp.A->apply(*xn, *Axn);
    ++applies;
    if (safeguard_) {
      const auto [dAd, dBd] = stepCurvature(eta, block, *xn, *x, *Axn, *Ax);
      if (dBd > 0.0 && omega * lambda_ * dAd >= 2.0 * dBd) omega *= 0.5;
    }
    std::swap(x, xn);
    std::swap(Ax, Axn);
    residual = naturalResidual(qp.cones, *x, *Ax, &b);
    observe(iterations, *x);
  }
  return finishReport(name(), qp, *x, gamma, iterations, applies, tol);
}

}  // namespace

std::unique_ptr<Solver> makeJacobiSolver(const SolverSettings& settings) {
  return std::make_unique<JacobiSolver>(settings);
}

}  // namespace grains::solver_detail
