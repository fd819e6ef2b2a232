#pragma once
// Row-wise machinery of the Gauss-Seidel solvers (pgs, ngs) on the factored
// operator A = scale * D^T W D + reg * I (internal to src/solver):
//   du = W D gamma                                   (velocity change, Lacoursiere (2013) eq. 30)
//   (A gamma + b)_i = b_i + scale * D^T_i du + reg * gamma_i
//   d_ii = scale * D^T_i W D_i + reg                 (Lacoursiere (2013) eqs. 31-35)
//   du_b <- du_b + W_b (D^T_ib)^T dgamma_i            (Lacoursiere (2013) Alg. 2.1 lines 13-15)
// Parallel scheme: Gauss-Seidel inside a rank, Jacobi between ranks. du is
// recomputed globally at the start of each sweep (RowSweep::velocities); during
// a sweep a rank only sees its own updates of ghost bodies. With mass splitting
// (Tonge et al., ACM TOG 31(4), 2012) a body touched by rows of k ranks gets
// the mobility k W_b inside a sweep (in the diagonals, the contact blocks and
// the du update), so the global recompute is the average of the k copies.
#include "grains/solver/quadratic_program.hpp"

#include <Eigen/Core>

#include <string>
#include <vector>

namespace grains::solver_detail {

using RowIndex = long long;

/// Local CSR arrays of D^T (rows: local constraint unknowns, columns: column-map DOFs).
struct LocalRows {
  const std::size_t* row_ptr = nullptr;
  const int* cols = nullptr;
  const double* vals = nullptr;
};

/// Applies W in place to a column-map vector: 6 entries per body.
void applyMobility(const std::vector<BodyMobility>& mobility, double* du);

/// d_ii = scale * D^T_i (k W) (D^T_i)^T + reg for every local row, k = split[body]
/// (Lacoursiere (2013) eqs. 31-35).
std::vector<double> rowDiagonals(const LocalRows& rows, RowIndex n_rows, const FactoredOperator& F,
                                 const std::vector<double>& split);

/// The 3x3 diagonal block of A of every contact (rows 3c..3c+2), with the
/// mass-splitting factors: scale * D^T_c (k W) D_c + reg * I.
std::vector<Eigen::Matrix3d> contactBlocks(const LocalRows& rows, RowIndex contacts,
                                           const FactoredOperator& F,
                                           const std::vector<double>& split);

/// Mass-splitting factor per column-map body: the number of ranks whose rows
/// touch the body (1 everywhere with one rank or when disabled).
std::vector<double> splitFactors(const CrsMatrix& Dt, const LocalRows& rows, RowIndex n_rows,
                                 bool enabled);

/// D^T_i du for one local row.
inline double rowDot(const LocalRows& rows, RowIndex i, const double* du) {
  double sum = 0.0;
  for (std::size_t j = rows.row_ptr[i]; j < rows.row_ptr[i + 1]; ++j)
    sum += rows.vals[j] * du[rows.cols[j]];
  return sum;
}

/// du_b += k_b W_b (D^T_ib)^T dgamma for the bodies of row i (Lacoursiere (2013) eq. 30;
/// k_b = split[b], the mass-splitting factor).
inline void scatterRow(const LocalRows& rows, RowIndex i, double dgamma,
                       const std::vector<BodyMobility>& mobility, const std::vector<double>& split,
                       double* du) {
  for (std::size_t j = rows.row_ptr[i]; j < rows.row_ptr[i + 1]; ++j) {
    const int col = rows.cols[j];
    const int body = col / 6;
    const int k = col % 6;
    const double v = rows.vals[j] * dgamma * split[static_cast<std::size_t>(body)];
    const BodyMobility& w = mobility[static_cast<std::size_t>(body)];
    if (k < 3) {
      du[col] += w.inverse_mass * v;
    } else {
      double* rot = du + 6 * body + 3;
      for (int a = 0; a < 3; ++a) rot[a] += w.inverse_inertia(a, k - 3) * v;
    }
  }
}

/// Validated setup of one row-wise solve: the local rows of D^T, the
/// mass-splitting factors and the velocity work vectors. Throws
/// std::invalid_argument (messages start with `who`) when the problem has no
/// usable factored operator.
class RowSweep {
 public:
  RowSweep(const QuadraticProgram& qp, const Vector& gamma, const std::string& who,
           bool split_mass);

  const LocalRows& rows() const { return rows_; }
  RowIndex localRows() const { return n_rows_; }
  const FactoredOperator& factored() const { return *F_; }
  const std::vector<double>& split() const { return split_; }

  /// Global du = W D gamma on the column map (sums over all ranks, imported to
  /// the ghost columns). The returned host array stays valid until the next call.
  double* velocities(const Vector& gamma);

  /// (A gamma + b)_i from the velocities du.
  double residual(RowIndex i, const double* du, const double* gamma, const double* b) const {
    return b[i] + F_->scale * rowDot(rows_, i, du) + F_->regularisation * gamma[i];
  }
  /// gradient = A gamma + b for every local row (du must be the global velocities).
  void gradient(const double* du, const double* gamma, const double* b, Vector& gradient) const;
  /// du += k W D_i dgamma (the sweep's own update of the velocities).
  void scatter(RowIndex i, double dgamma, double* du) const {
    scatterRow(rows_, i, dgamma, F_->mobility, split_, du);
  }
  /// gamma_i <- z, and du follows the change (Lacoursiere Alg. 2.1 lines 13-15).
  void setRow(RowIndex i, double z, double* du, double* gamma) const {
    const double dgamma = z - gamma[i];
    gamma[i] = z;
    if (dgamma != 0.0) scatter(i, dgamma, du);
  }

 private:
  using HostMatrix = CrsMatrix::local_matrix_host_type;

  const FactoredOperator* F_ = nullptr;
  HostMatrix local_;  ///< keeps the arrays behind rows_ alive
  LocalRows rows_;
  RowIndex n_rows_ = 0;
  std::vector<double> split_;
  RCP<const Tpetra::Import<LocalOrdinal, GlobalOrdinal, Node>> importer_;
  RCP<Vector> u_owned_;
  RCP<Vector> u_col_;
};

/// The natural residual at the start of a sweep (du the global velocities,
/// so the gradient costs one local pass), and the best iterate so far.
class SweepResidual {
 public:
  explicit SweepResidual(const Vector& gamma)
      : gradient_(gamma.getMap(), false), best_(gamma.getMap(), false) {}
  /// Residual of gamma (whose local entries are g) against `cones` <= tol;
  /// keeps gamma when it is the best so far.
  bool converged(const RowSweep& sweep, const ConeSet& cones, double tol, const double* du,
                 const double* g, const double* b, const Vector& gamma);
  const Vector& best() const { return best_; }

 private:
  Vector gradient_, best_;
  double best_residual_ = -1.0;
};

/// The sweep loop of pgs and ngs: the residual checked every `check_every`
/// sweeps and at the cap (run.converged, with du the global velocities), one
/// sweep in between (run.sweep), observe(sweeps) after each. Returns the
/// number of sweeps.
template <class Run, class Observe>
int sweepUntilConverged(Run& run, Vector& gamma, int max_sweeps, int check_every, double tol,
                        Observe observe) {
  int sweeps = 0;
  for (;;) {
    // Global du = W D gamma on the column map (Jacobi between ranks).
    double* du = run.velocities();
    double* g = gamma.getLocalViewHost(Tpetra::Access::ReadWrite).data();
    const bool last = sweeps >= max_sweeps;
    if ((last || sweeps % check_every == 0) && run.converged(tol, du, g)) break;
    if (last) break;
    run.sweep(du, g);
    ++sweeps;
    observe(sweeps);
  }
  return sweeps;
}

/// Result of the disc subproblem of Preclik et al. (2009) eq. 14.
struct DiscSolution {
  Eigen::Vector2d x = Eigen::Vector2d::Zero();
  bool interior = false;  ///< the unconstrained minimiser lies in the disc (static contact)
  int newton_iterations = 0;
  /// The Newton iteration on the angle did not converge to the minimiser
  /// within the allowed iterations (or converged to a stationary point on the
  /// circle that is not the minimiser over the disc), so the secular equation
  /// of the disc problem was solved instead.
  bool fallback = false;
};

/// argmin_{|x| <= radius} 1/2 x^T A x + b^T x for a symmetric positive
/// semi-definite 2x2 A (Preclik et al. (2009) eqs. 14-16): the unconstrained solution by
/// Cramer's rule; if it lies outside the disc, Newton's method on the polar
/// angle (eq. 16), started at the projection of the unconstrained solution,
/// with at most max_newton iterations; a safeguarded solve of the secular
/// equation |(A + lambda I)^-1 b| = radius when that fails.
DiscSolution solveDiscProblem(const Eigen::Matrix2d& A, const Eigen::Vector2d& b, double radius,
                              int max_newton);

}  // namespace grains::solver_detail
