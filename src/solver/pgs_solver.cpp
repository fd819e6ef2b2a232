// Projected Gauss-Seidel with compliance ("pgs"), after Lacoursière's notes
// (seeds/000, Algorithm 2.1 and its contact specialisation Algorithm 2.2),
// written for the factored operator A = scale * D^T W D + reg * I:
//   du = W D gamma                                   (velocity change, eq. 30)
//   r_i = b_i + scale * (D^T_i du) + reg * gamma_i   (local residual, eqs. 27-28,
//                                                     = (A gamma + b)_i)
//   d_ii = scale * D^T_i W D_i + reg                 (diagonal, eqs. 31-35)
//   gamma_i <- max(0, gamma_i - omega r_i / d_ii)    (Alg. 2.1 lines 10-12)
//   du_b <- du_b + W_b (D^T_ib)^T dgamma_i            (Alg. 2.1 lines 13-15)
// For the Coulomb cone the three rows of a contact are updated together with
// the step omega / mean(d_nn, d_uu, d_ww) followed by the exact cone projection
// (instead of the box clamp of eq. 36, which is not the cone).
//
// The row machinery (du, residual rows, diagonals, mass splitting) is shared
// with ngs in row_sweep_kernels.hpp.
// Parallel: Gauss-Seidel inside a rank, Jacobi between ranks. At the start of
// each sweep du is recomputed globally (D gamma summed over all ranks, imported
// to the ghost columns); during the sweep a rank only sees its own updates of
// ghost bodies. With one rank this is plain Gauss-Seidel.
// Plain Jacobi between ranks can diverge when several ranks push on the same
// body (observed on small Coulomb problems). Option split_mass = 1 (default)
// uses mass splitting (Tonge, Benevolenski, Voroshilov, "Mass splitting for
// jitter-free parallel rigid body simulation", ACM TOG 31(4), 2012): inside a
// sweep, a body touched by rows of k ranks is given the mobility k W_b (in the
// diagonal and in the du update). The global recompute of du at the next sweep
// (with the true W) is then exactly the average of the k copies, which is the
// consensus step of that method. For bodies seen by one rank k = 1, so with
// one rank nothing changes.
//
// The residual at the start of a sweep costs one local pass over D^T (the
// global du is already there), so it is checked every `check_every` sweeps
// (default 1: stop as soon as possible). operator_applies counts one per sweep
// (a sweep touches D^T about as often as one application of A) plus the
// final evaluation of the measures with A.
#include "diagonal_metric.hpp"
#include "row_sweep_kernels.hpp"
#include "solver_factories.hpp"
#include "solver_kernels.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace grains::solver_detail {
namespace {

using Index = long long;

class PgsSolver final : public Solver {
 public:
  explicit PgsSolver(SolverSettings settings)
      : settings_(std::move(settings)),
        omega_(solverOption(settings_, "omega")),
        check_every_(std::max(1, static_cast<int>(solverOption(settings_, "check_every")))),
        split_mass_(solverOption(settings_, "split_mass") != 0.0),
        metric_(solverOption(settings_, "metric") != 0.0) {}
  std::string name() const override { return "pgs"; }
  SolveReport solve(const QuadraticProgram& qp, Vector& gamma) const override;

 private:
  SolverSettings settings_;
  double omega_;
  int check_every_;
  bool split_mass_;
  bool metric_;
};

SolveReport PgsSolver::solve(const QuadraticProgram& qp, Vector& gamma) const {
  checkLayout(qp, gamma, "pgs");
  RowSweep sweep(qp, gamma, "pgs", split_mass_);
  const FactoredOperator& F = sweep.factored();
  const Index n_rows = sweep.localRows();
  const double tol = scaledTolerance(settings_.tolerance);
  const int block = qp.cones.blockSize();
  const bool blocks = block > 1;  // friction: contact-wise updates

  // Step per row: omega / d_ii, or per contact either omega / mean(d) over its
  // rows (metric 0) or the diagonal metric P of diagonal_metric.hpp (metric 1:
  // omega / p per row group, the projection onto K taken in P; for a sphere
  // contact, whose 3x3 block of A is diagonal, this is the exact minimiser of
  // the contact's subproblem).
  std::vector<double> step = rowDiagonals(sweep.rows(), n_rows, F, sweep.split());
  const Index contacts = static_cast<Index>(qp.cones.localContacts());
  const bool metric_step = blocks && metric_;
  const DiagonalMetric metric =
      metric_step ? diagonalMetric(qp.cones, step, *qp.b) : DiagonalMetric{};
#pragma omp parallel for schedule(static)
  for (Index c = 0; c < contacts; ++c) {
    if (metric_step) {
      for (int k = 0; k < block; ++k) {
        const std::size_t i = static_cast<std::size_t>(block * c + k);
        step[i] = omega_ * metric.scale[i] * metric.scale[i];
      }
    } else if (blocks) {
      double* d = step.data() + block * c;
      double sum = 0.0;
      for (int k = 0; k < block; ++k) sum += d[k];
      const double mean = sum / block;
      const double h = mean > 0.0 ? omega_ / mean : 0.0;
      for (int k = 0; k < block; ++k) d[k] = h;
    } else {
      double& d = step[static_cast<std::size_t>(c)];
      d = d > 0.0 ? omega_ / d : 0.0;  // a zero row of A cannot be updated
    }
  }

  // Work vectors, allocated once per solve.
  Vector gradient(gamma.getMap(), false);
  Vector best(gamma.getMap(), false);
  const double* b = qp.b->getLocalViewHost(Tpetra::Access::ReadOnly).data();

  qp.cones.project(gamma);  // warm start onto K
  double best_residual = -1.0;
  int sweeps = 0;
  for (;;) {
    // Global du = W D gamma on the column map (Jacobi between ranks).
    double* du = sweep.velocities(gamma);
    double* g = gamma.getLocalViewHost(Tpetra::Access::ReadWrite).data();

    const bool last = sweeps >= settings_.max_iterations;
    if (last || sweeps % check_every_ == 0) {
      sweep.gradient(du, g, b, gradient);
      const double residual = naturalResidual(qp.cones, gamma, gradient, nullptr);
      if (best_residual < 0.0 || residual < best_residual) {
        best_residual = residual;
        Tpetra::deep_copy(best, gamma);
      }
      if (residual <= tol) break;
    }
    if (last) break;

    // One Gauss-Seidel sweep over this rank's rows (sequential by nature).
    if (blocks) {
      for (Index c = 0; c < contacts; ++c) {
        const Index i0 = block * c;
        double z[kMaxBlockSize];
        for (int k = 0; k < block; ++k) {
          const Index i = i0 + k;
          const double r = sweep.residual(i, du, g, b);
          z[k] = g[i] - step[static_cast<std::size_t>(i)] * r;
        }
        if (metric_step) {
          // Pi^P_K(z) = S Pi_{S^-1 K}(S^-1 z)
          const double* sc = metric.scale.data() + i0;
          const double* inv = metric.inverse.data() + i0;
          for (int k = 0; k < block; ++k) z[k] *= inv[k];
          metric.cones.projectContact(static_cast<std::size_t>(c), z);
          for (int k = 0; k < block; ++k) z[k] *= sc[k];
        } else {
          qp.cones.projectContact(static_cast<std::size_t>(c), z);
        }
        for (int k = 0; k < block; ++k) {
          const Index i = i0 + k;
          const double dg = z[k] - g[i];
          g[i] = z[k];
          if (dg != 0.0) sweep.scatter(i, dg, du);
        }
      }
    } else {
      for (Index i = 0; i < n_rows; ++i) {
        const double r = sweep.residual(i, du, g, b);
        const double z = std::max(0.0, g[i] - step[static_cast<std::size_t>(i)] * r);
        const double dg = z - g[i];
        g[i] = z;
        if (dg != 0.0) sweep.scatter(i, dg, du);
      }
    }
    ++sweeps;
    observe(sweeps, gamma);
  }
  return finishReport(name(), qp, best, gamma, sweeps, sweeps, tol);
}

}  // namespace

std::unique_ptr<Solver> makePgsSolver(const SolverSettings& settings) {
  return std::make_unique<PgsSolver>(settings);
}

}  // namespace grains::solver_detail
