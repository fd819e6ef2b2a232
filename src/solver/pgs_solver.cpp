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

/// The options of pgs (see the header).
struct PgsOptions {
  double omega;
  int check_every;
  bool split_mass;
  bool metric;
  int order;  ///< 0 constraint order, 1 reversed, 2 alternating directions
};

class PgsSolver final : public Solver {
 public:
  explicit PgsSolver(SolverSettings settings)
      : settings_(std::move(settings)),
        options_{solverOption(settings_, "omega"),
                 std::max(1, static_cast<int>(solverOption(settings_, "check_every"))),
                 solverOption(settings_, "split_mass") != 0.0,
                 solverOption(settings_, "metric") != 0.0,
                 static_cast<int>(solverOption(settings_, "order"))} {}
  std::string name() const override { return "pgs"; }
  SolveReport solve(const QuadraticProgram& qp, Vector& gamma) const override;

 private:
  SolverSettings settings_;
  PgsOptions options_;
};

/// The state of one solve: the row machinery (du, residual rows, scatter),
/// the step per row, the diagonal metric (metric 1 with friction), the
/// gradient for the residual checks and the best iterate so far.
class PgsRun {
 public:
  PgsRun(const QuadraticProgram& qp, Vector& gamma, const PgsOptions& options)
      : qp_(qp),
        gamma_(gamma),
        omega_(options.omega),
        order_(options.order),
        sweep_(qp, gamma, "pgs", options.split_mass),
        n_rows_(sweep_.localRows()),
        block_(qp.cones.blockSize()),
        blocks_(block_ > 1),
        contacts_(static_cast<Index>(qp.cones.localContacts())),
        metric_step_(blocks_ && options.metric),
        step_(rowDiagonals(sweep_.rows(), n_rows_, sweep_.factored(), sweep_.split())),
        metric_(metric_step_ ? diagonalMetric(qp.cones, step_, *qp.b) : DiagonalMetric{}),
        residual_(gamma),
        b_(readOnly(*qp.b)) {
    stepsFromDiagonals();
  }

  bool converged(double tol, double* du, const double* g);
  void sweep(double* du, double* g);
  double* velocities() { return sweep_.velocities(gamma_); }
  const Vector& best() const { return residual_.best(); }

 private:
  void stepsFromDiagonals();
  void contactSweep(double* du, double* g, bool backward);
  void rowSweep(double* du, double* g, bool backward);
  void projectContact(Index c, double* z) const;

  const QuadraticProgram& qp_;
  Vector& gamma_;
  const double omega_;
  const int order_;
  int sweeps_done_ = 0;
  RowSweep sweep_;
  const Index n_rows_;
  const int block_;
  const bool blocks_;  ///< friction: contact-wise updates
  const Index contacts_;
  const bool metric_step_;
  std::vector<double> step_;
  const DiagonalMetric metric_;
  SweepResidual residual_;
  const double* b_;
};

// Step per row: omega / d_ii, or per contact either omega / mean(d) over its
// rows (metric 0) or the diagonal metric P of diagonal_metric.hpp (metric 1:
// omega / p per row group, the projection onto K taken in P; for a sphere
// contact, whose 3x3 block of A is diagonal, this is the exact minimiser of
// the contact's subproblem). step_ holds the diagonals d_ii on entry.
void PgsRun::stepsFromDiagonals() {
#pragma omp parallel for schedule(static)
  for (Index c = 0; c < contacts_; ++c) {
    if (metric_step_) {
      for (int k = 0; k < block_; ++k) {
        const std::size_t i = static_cast<std::size_t>(block_ * c + k);
        step_[i] = omega_ * metric_.scale[i] * metric_.scale[i];
      }
    } else if (blocks_) {
      double* d = step_.data() + block_ * c;
      double sum = 0.0;
      for (int k = 0; k < block_; ++k) sum += d[k];
      const double mean = sum / block_;
      const double h = mean > 0.0 ? omega_ / mean : 0.0;
      for (int k = 0; k < block_; ++k) d[k] = h;
    } else {
      double& d = step_[static_cast<std::size_t>(c)];
      d = d > 0.0 ? omega_ / d : 0.0;  // a zero row of A cannot be updated
    }
  }
}

// The natural residual at the start of a sweep (du is the global one, so the
// gradient costs one local pass); keeps the best iterate so far.
bool PgsRun::converged(double tol, double* du, const double* g) {
  return residual_.converged(sweep_, qp_.cones, tol, du, g, b_, gamma_);
}

// One Gauss-Seidel sweep over this rank's rows (sequential by nature), in
// constraint order, reversed, or alternating (symmetric Gauss-Seidel).
void PgsRun::sweep(double* du, double* g) {
  const bool backward = order_ == 1 || (order_ == 2 && sweeps_done_ % 2 == 1);
  ++sweeps_done_;
  if (blocks_) {
    contactSweep(du, g, backward);
  } else {
    rowSweep(du, g, backward);
  }
}

// Friction: the rows of a contact stepped together, then projected onto its
// cone (Alg. 2.2; the exact cone instead of the box clamp of eq. 36).
void PgsRun::contactSweep(double* du, double* g, bool backward) {
  for (Index k_c = 0; k_c < contacts_; ++k_c) {
    const Index c = backward ? contacts_ - 1 - k_c : k_c;
    const Index i0 = block_ * c;
    double z[kMaxBlockSize];
    for (int k = 0; k < block_; ++k) {
      const Index i = i0 + k;
      const double r = sweep_.residual(i, du, g, b_);
      z[k] = g[i] - step_[static_cast<std::size_t>(i)] * r;
    }
    projectContact(c, z);
    for (int k = 0; k < block_; ++k) sweep_.setRow(i0 + k, z[k], du, g);
  }
}

// Frictionless: gamma_i <- max(0, gamma_i - omega r_i / d_ii) (Alg. 2.1 lines 10-12).
void PgsRun::rowSweep(double* du, double* g, bool backward) {
  for (Index k_i = 0; k_i < n_rows_; ++k_i) {
    const Index i = backward ? n_rows_ - 1 - k_i : k_i;
    const double r = sweep_.residual(i, du, g, b_);
    sweep_.setRow(i, std::max(0.0, g[i] - step_[static_cast<std::size_t>(i)] * r), du, g);
  }
}

// z <- Pi_K(z), in the metric P with metric 1.
void PgsRun::projectContact(Index c, double* z) const {
  if (metric_step_) {
    // Pi^P_K(z) = S Pi_{S^-1 K}(S^-1 z)
    const double* sc = metric_.scale.data() + block_ * c;
    const double* inv = metric_.inverse.data() + block_ * c;
    for (int k = 0; k < block_; ++k) z[k] *= inv[k];
    metric_.cones.projectContact(static_cast<std::size_t>(c), z);
    for (int k = 0; k < block_; ++k) z[k] *= sc[k];
  } else {
    qp_.cones.projectContact(static_cast<std::size_t>(c), z);
  }
}

SolveReport PgsSolver::solve(const QuadraticProgram& qp, Vector& gamma) const {
  checkLayout(qp, gamma, "pgs");
  PgsRun run(qp, gamma, options_);
  const double tol = scaledTolerance(settings_.tolerance);
  qp.cones.project(gamma);  // warm start onto K
  const int sweeps = sweepUntilConverged(run, gamma, settings_.max_iterations, options_.check_every,
                                         tol, [&](int sweep) { observe(sweep, gamma); });
  return finishReport(name(), qp, run.best(), gamma, sweeps, sweeps, tol);
}

}  // namespace

std::unique_ptr<Solver> makePgsSolver(const SolverSettings& settings) {
  return std::make_unique<PgsSolver>(settings);
}

}  // namespace grains::solver_detail
