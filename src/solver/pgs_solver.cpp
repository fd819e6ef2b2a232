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
        split_mass_(solverOption(settings_, "split_mass") != 0.0) {}
  std::string name() const override { return "pgs"; }
  SolveReport solve(const QuadraticProgram& qp, Vector& gamma) const override;

 private:
  SolverSettings settings_;
  double omega_;
  int check_every_;
  bool split_mass_;
};

/// Local CSR arrays of D^T (rows: local constraint unknowns, columns: column-map DOFs).
struct LocalRows {
  const std::size_t* row_ptr = nullptr;
  const int* cols = nullptr;
  const double* vals = nullptr;
};

/// Applies W in place to a column-map vector: 6 entries per body.
void applyMobility(const std::vector<BodyMobility>& mobility, double* du) {
  const Index bodies = static_cast<Index>(mobility.size());
#pragma omp parallel for schedule(static)
  for (Index k = 0; k < bodies; ++k) {
    const BodyMobility& w = mobility[static_cast<std::size_t>(k)];
    double* v = du + 6 * k;
    for (int a = 0; a < 3; ++a) v[a] *= w.inverse_mass;
    const Vec3 rot = w.inverse_inertia * Vec3(v[3], v[4], v[5]);
    v[3] = rot[0];
    v[4] = rot[1];
    v[5] = rot[2];
  }
}

/// d_ii = scale * D^T_i W (D^T_i)^T + reg for every local row (seed 000 eqs. 31-35).
/// Entries of one body need not be contiguous, so each row first gathers a
/// dense 6-vector per body it touches.
std::vector<double> rowDiagonals(const LocalRows& rows, Index n_rows, const FactoredOperator& F,
                                 const std::vector<double>& split) {
  std::vector<double> diag(static_cast<std::size_t>(n_rows));
#pragma omp parallel
  {
    std::vector<std::pair<int, Eigen::Matrix<double, 6, 1>>> blocks;
#pragma omp for schedule(static)
    for (Index i = 0; i < n_rows; ++i) {
      blocks.clear();
      for (std::size_t j = rows.row_ptr[i]; j < rows.row_ptr[i + 1]; ++j) {
        const int body = rows.cols[j] / 6;
        auto it = std::find_if(blocks.begin(), blocks.end(),
                               [body](const auto& blk) { return blk.first == body; });
        if (it == blocks.end()) {
          blocks.emplace_back(body, Eigen::Matrix<double, 6, 1>::Zero());
          it = blocks.end() - 1;
        }
        it->second[rows.cols[j] % 6] += rows.vals[j];
      }
      double d = 0.0;
      for (const auto& [body, v] : blocks) {
        const BodyMobility& w = F.mobility[static_cast<std::size_t>(body)];
        const Vec3 lin = v.head<3>();
        const Vec3 ang = v.tail<3>();
        d += split[static_cast<std::size_t>(body)] *
             (w.inverse_mass * lin.squaredNorm() + ang.dot(w.inverse_inertia * ang));
      }
      diag[static_cast<std::size_t>(i)] = F.scale * d + F.regularisation;
    }
  }
  return diag;
}

/// Mass-splitting factor per column-map body: the number of ranks whose rows
/// touch the body (1 everywhere with one rank or when disabled).
std::vector<double> splitFactors(const CrsMatrix& Dt, const LocalRows& rows, Index n_rows,
                                 bool enabled) {
  const std::size_t n_cols = Dt.getColMap()->getNodeNumElements();
  std::vector<double> split(n_cols / 6, 1.0);
  const auto importer = Dt.getGraph()->getImporter();
  if (!enabled || importer.is_null()) return split;
  // Mark the bodies this rank's rows touch, sum the marks on the owners
  // (export with ADD), and bring the totals back to the column map.
  Vector touched(Dt.getColMap(), true);
  {
    double* t = touched.getLocalViewHost(Tpetra::Access::ReadWrite).data();
    for (Index i = 0; i < n_rows; ++i) {
      for (std::size_t j = rows.row_ptr[i]; j < rows.row_ptr[i + 1]; ++j) {
        if (rows.vals[j] != 0.0) t[6 * (rows.cols[j] / 6)] = 1.0;
      }
    }
  }
  Vector owners(Dt.getDomainMap(), true);
  owners.doExport(touched, *importer, Tpetra::ADD);
  touched.doImport(owners, *importer, Tpetra::INSERT);
  const double* t = touched.getLocalViewHost(Tpetra::Access::ReadOnly).data();
  for (std::size_t k = 0; k < split.size(); ++k) split[k] = std::max(1.0, t[6 * k]);
  return split;
}

/// D^T_i du for one local row.
inline double rowDot(const LocalRows& rows, Index i, const double* du) {
  double sum = 0.0;
  for (std::size_t j = rows.row_ptr[i]; j < rows.row_ptr[i + 1]; ++j)
    sum += rows.vals[j] * du[rows.cols[j]];
  return sum;
}

/// du_b += k_b W_b (D^T_ib)^T dgamma for the bodies of row i (seed 000 eq. 30;
/// k_b = split[b], the mass-splitting factor).
inline void scatterRow(const LocalRows& rows, Index i, double dgamma,
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

SolveReport PgsSolver::solve(const QuadraticProgram& qp, Vector& gamma) const {
  checkLayout(qp, gamma, "pgs");
  if (qp.factored.is_null() || qp.factored->Dt.is_null()) {
    throw std::invalid_argument(
        "pgs: the quadratic program has no factored operator (QuadraticProgram::factored, "
        "A = scale * D^T W D + reg * I); projected Gauss-Seidel needs the rows of D^T. Use a "
        "matrix-free solver (bbpgd, apgd) for this problem");
  }
  const FactoredOperator& F = *qp.factored;
  const CrsMatrix& Dt = *F.Dt;
  if (!Dt.isFillComplete()) throw std::invalid_argument("pgs: D^T must be fill-complete");
  const Index n_rows = static_cast<Index>(gamma.getLocalLength());
  if (static_cast<Index>(Dt.getRowMap()->getNodeNumElements()) != n_rows) {
    throw std::invalid_argument("pgs: D^T has " +
                                std::to_string(Dt.getRowMap()->getNodeNumElements()) +
                                " local rows, gamma has " + std::to_string(n_rows));
  }
  const std::size_t n_cols = Dt.getColMap()->getNodeNumElements();
  if (n_cols != 6 * F.mobility.size()) {
    throw std::invalid_argument(
        "pgs: D^T has " + std::to_string(n_cols) + " local columns but the mobility has " +
        std::to_string(F.mobility.size()) + " bodies (6 columns per body expected)");
  }

  const double tol = settings_.tolerance;
  const bool blocks = qp.cones.blockSize() == 3;  // friction: contact-wise updates
  const auto local = Dt.getLocalMatrixHost();
  LocalRows rows;
  rows.row_ptr = local.graph.row_map.data();
  rows.cols = local.graph.entries.data();
  rows.vals = local.values.data();

  const auto importer = Dt.getGraph()->getImporter();
  const std::vector<double> split = splitFactors(Dt, rows, n_rows, split_mass_);

  // Step per row: omega / d_ii, or omega / mean(d) over a contact's 3 rows.
  std::vector<double> step = rowDiagonals(rows, n_rows, F, split);
  const Index contacts = static_cast<Index>(qp.cones.localContacts());
#pragma omp parallel for schedule(static)
  for (Index c = 0; c < contacts; ++c) {
    if (blocks) {
      double* d = step.data() + 3 * c;
      const double mean = (d[0] + d[1] + d[2]) / 3.0;
      const double h = mean > 0.0 ? omega_ / mean : 0.0;
      d[0] = d[1] = d[2] = h;
    } else {
      double& d = step[static_cast<std::size_t>(c)];
      d = d > 0.0 ? omega_ / d : 0.0;  // a zero row of A cannot be updated
    }
  }

  // Work vectors, allocated once per solve.
  Vector u_owned(Dt.getDomainMap(), false);
  RCP<Vector> u_col = importer.is_null() ? Teuchos::null : rcp(new Vector(Dt.getColMap(), false));
  Vector& du_vec = importer.is_null() ? u_owned : *u_col;
  Vector gradient(gamma.getMap(), false);
  Vector best(gamma.getMap(), false);
  const double* b = qp.b->getLocalViewHost(Tpetra::Access::ReadOnly).data();

  qp.cones.project(gamma);  // warm start onto K
  double best_residual = -1.0;
  int sweeps = 0;
  for (;;) {
    // Global du = W D gamma on the column map (Jacobi between ranks).
    Dt.apply(gamma, u_owned, Teuchos::TRANS);
    if (!importer.is_null()) u_col->doImport(u_owned, *importer, Tpetra::INSERT);
    double* du = du_vec.getLocalViewHost(Tpetra::Access::ReadWrite).data();
    applyMobility(F.mobility, du);
    double* g = gamma.getLocalViewHost(Tpetra::Access::ReadWrite).data();

    const bool last = sweeps >= settings_.max_iterations;
    if (last || sweeps % check_every_ == 0) {
      double* grad = gradient.getLocalViewHost(Tpetra::Access::OverwriteAll).data();
#pragma omp parallel for schedule(static)
      for (Index i = 0; i < n_rows; ++i)
        grad[i] = b[i] + F.scale * rowDot(rows, i, du) + F.regularisation * g[i];
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
        const Index i0 = 3 * c;
        double z[3];
        for (int k = 0; k < 3; ++k) {
          const Index i = i0 + k;
          const double r = b[i] + F.scale * rowDot(rows, i, du) + F.regularisation * g[i];
          z[k] = g[i] - step[static_cast<std::size_t>(i)] * r;
        }
        qp.cones.projectContact(static_cast<std::size_t>(c), z);
        for (int k = 0; k < 3; ++k) {
          const Index i = i0 + k;
          const double dg = z[k] - g[i];
          g[i] = z[k];
          if (dg != 0.0) scatterRow(rows, i, dg, F.mobility, split, du);
        }
      }
    } else {
      for (Index i = 0; i < n_rows; ++i) {
        const double r = b[i] + F.scale * rowDot(rows, i, du) + F.regularisation * g[i];
        const double z = std::max(0.0, g[i] - step[static_cast<std::size_t>(i)] * r);
        const double dg = z - g[i];
        g[i] = z;
        if (dg != 0.0) scatterRow(rows, i, dg, F.mobility, split, du);
      }
    }
    ++sweeps;
  }
  return finishReport(name(), qp, best, gamma, sweeps, sweeps, tol);
}

}  // namespace

std::unique_ptr<Solver> makePgsSolver(const SolverSettings& settings) {
  return std::make_unique<PgsSolver>(settings);
}

}  // namespace grains::solver_detail
