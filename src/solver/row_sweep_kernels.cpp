// Row-wise machinery of the Gauss-Seidel solvers; see row_sweep_kernels.hpp.
#include "row_sweep_kernels.hpp"

#include "solver_kernels.hpp"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>

namespace grains::solver_detail {
namespace {

using Vec6 = Eigen::Matrix<double, 6, 1>;

/// The entries of row i of D^T gathered into one dense 6-vector per body
/// (entries of one body need not be contiguous in the row).
void gatherRow(const LocalRows& rows, RowIndex i, std::vector<std::pair<int, Vec6>>& blocks) {
  blocks.clear();
  for (std::size_t j = rows.row_ptr[i]; j < rows.row_ptr[i + 1]; ++j) {
    const int body = rows.cols[j] / 6;
    auto it = std::find_if(blocks.begin(), blocks.end(),
                           [body](const auto& blk) { return blk.first == body; });
    if (it == blocks.end()) {
      blocks.emplace_back(body, Vec6::Zero());
      it = blocks.end() - 1;
    }
    it->second[rows.cols[j] % 6] += rows.vals[j];
  }
}

/// v^T W_b w for two 6-vectors of one body.
inline double mobilityProduct(const BodyMobility& w, const Vec6& v, const Vec6& u) {
  const Vec3 v_ang = v.tail<3>();
  const Vec3 u_ang = u.tail<3>();
  return w.inverse_mass * v.head<3>().dot(u.head<3>()) + v_ang.dot(w.inverse_inertia * u_ang);
}

}  // namespace

void applyMobility(const std::vector<BodyMobility>& mobility, double* du) {
  const RowIndex bodies = static_cast<RowIndex>(mobility.size());
#pragma omp parallel for schedule(static)
  for (RowIndex k = 0; k < bodies; ++k) {
    const BodyMobility& w = mobility[static_cast<std::size_t>(k)];
    double* v = du + 6 * k;
    for (int a = 0; a < 3; ++a) v[a] *= w.inverse_mass;
    const Vec3 rot = w.inverse_inertia * Vec3(v[3], v[4], v[5]);
    v[3] = rot[0];
    v[4] = rot[1];
    v[5] = rot[2];
  }
}

std::vector<double> rowDiagonals(const LocalRows& rows, RowIndex n_rows, const FactoredOperator& F,
                                 const std::vector<double>& split) {
  std::vector<double> diag(static_cast<std::size_t>(n_rows));
#pragma omp parallel
  {
    std::vector<std::pair<int, Vec6>> blocks;
#pragma omp for schedule(static)
    for (RowIndex i = 0; i < n_rows; ++i) {
      gatherRow(rows, i, blocks);
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

std::vector<Eigen::Matrix3d> contactBlocks(const LocalRows& rows, RowIndex contacts,
                                           const FactoredOperator& F,
                                           const std::vector<double>& split) {
  std::vector<Eigen::Matrix3d> result(static_cast<std::size_t>(contacts));
#pragma omp parallel
  {
    std::array<std::vector<std::pair<int, Vec6>>, 3> blocks;
#pragma omp for schedule(static)
    for (RowIndex c = 0; c < contacts; ++c) {
      for (int k = 0; k < 3; ++k) gatherRow(rows, 3 * c + k, blocks[static_cast<std::size_t>(k)]);
      Eigen::Matrix3d M = Eigen::Matrix3d::Zero();
      for (int k = 0; k < 3; ++k) {
        for (int l = k; l < 3; ++l) {
          double sum = 0.0;
          for (const auto& [body, v] : blocks[static_cast<std::size_t>(k)]) {
            for (const auto& [other, u] : blocks[static_cast<std::size_t>(l)]) {
              if (other != body) continue;
              sum += split[static_cast<std::size_t>(body)] *
                     mobilityProduct(F.mobility[static_cast<std::size_t>(body)], v, u);
            }
          }
          M(k, l) = M(l, k) = F.scale * sum;
        }
        M(k, k) += F.regularisation;
      }
      result[static_cast<std::size_t>(c)] = M;
    }
  }
  return result;
}

std::vector<double> splitFactors(const CrsMatrix& Dt, const LocalRows& rows, RowIndex n_rows,
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
    for (RowIndex i = 0; i < n_rows; ++i) {
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

RowSweep::RowSweep(const QuadraticProgram& qp, const Vector& gamma, const std::string& who,
                   bool split_mass) {
  if (qp.factored.is_null() || qp.factored->Dt.is_null()) {
    throw std::invalid_argument(
        who +
        ": the quadratic program has no factored operator (QuadraticProgram::factored, "
        "A = scale * D^T W D + reg * I); a row-wise Gauss-Seidel method needs the rows of D^T. "
        "Use a matrix-free solver (bbpgd, apgd) for this problem");
  }
  F_ = qp.factored.get();
  const CrsMatrix& Dt = *F_->Dt;
  if (!Dt.isFillComplete()) throw std::invalid_argument(who + ": D^T must be fill-complete");
  n_rows_ = static_cast<RowIndex>(gamma.getLocalLength());
  if (static_cast<RowIndex>(Dt.getRowMap()->getNodeNumElements()) != n_rows_) {
    throw std::invalid_argument(who + ": D^T has " +
                                std::to_string(Dt.getRowMap()->getNodeNumElements()) +
                                " local rows, gamma has " + std::to_string(n_rows_));
  }
  const std::size_t n_cols = Dt.getColMap()->getNodeNumElements();
  if (n_cols != 6 * F_->mobility.size()) {
    throw std::invalid_argument(
        who + ": D^T has " + std::to_string(n_cols) + " local columns but the mobility has " +
        std::to_string(F_->mobility.size()) + " bodies (6 columns per body expected)");
  }
  local_ = Dt.getLocalMatrixHost();
  rows_.row_ptr = local_.graph.row_map.data();
  rows_.cols = local_.graph.entries.data();
  rows_.vals = local_.values.data();
  importer_ = Dt.getGraph()->getImporter();
  split_ = splitFactors(Dt, rows_, n_rows_, split_mass);
  u_owned_ = rcp(new Vector(Dt.getDomainMap(), false));
  if (!importer_.is_null()) u_col_ = rcp(new Vector(Dt.getColMap(), false));
}

double* RowSweep::velocities(const Vector& gamma) {
  F_->Dt->apply(gamma, *u_owned_, Teuchos::TRANS);
  if (!importer_.is_null()) u_col_->doImport(*u_owned_, *importer_, Tpetra::INSERT);
  Vector& du_vec = importer_.is_null() ? *u_owned_ : *u_col_;
  double* du = du_vec.getLocalViewHost(Tpetra::Access::ReadWrite).data();
  applyMobility(F_->mobility, du);
  return du;
}

bool SweepResidual::converged(const RowSweep& sweep, const ConeSet& cones, double tol,
                              const double* du, const double* g, const double* b,
                              const Vector& gamma) {
  sweep.gradient(du, g, b, gradient_);
  const double residual = naturalResidual(cones, gamma, gradient_, nullptr);
  if (best_residual_ < 0.0 || residual < best_residual_) {
    best_residual_ = residual;
    Tpetra::deep_copy(best_, gamma);
  }
  return residual <= tol;
}

void RowSweep::gradient(const double* du, const double* gamma, const double* b,
                        Vector& gradient) const {
  double* grad = gradient.getLocalViewHost(Tpetra::Access::OverwriteAll).data();
#pragma omp parallel for schedule(static)
  for (RowIndex i = 0; i < n_rows_; ++i) grad[i] = residual(i, du, gamma, b);
}

namespace {

/// Secular equation of the disc problem: the minimiser is x(lambda) =
/// -(A + lambda I)^-1 b with lambda >= 0 and |x(lambda)| = radius (or lambda =
/// 0 inside the disc). In the eigenbasis of A, |x(lambda)| decreases in lambda,
/// so bisection on [0, |b| / radius] finds the root to rounding.
Eigen::Vector2d solveSecular(const Eigen::Matrix2d& A, const Eigen::Vector2d& b, double radius) {
  Eigen::SelfAdjointEigenSolver<Eigen::Matrix2d> eig;
  eig.computeDirect(A);
  const Eigen::Vector2d l = eig.eigenvalues().cwiseMax(0.0);  // PSD: clip rounding
  const Eigen::Matrix2d Q = eig.eigenvectors();
  const Eigen::Vector2d beta = Q.transpose() * b;
  const double scale = std::max(l[1], 1e-300);
  auto x_of = [&](double lambda) {
    Eigen::Vector2d y;
    for (int i = 0; i < 2; ++i) {
      const double den = l[i] + lambda;
      // A zero curvature with a zero load: any value; take 0 (minimum norm).
      y[i] = den > 0.0 ? -beta[i] / den
                       : (beta[i] == 0.0 ? 0.0 : std::numeric_limits<double>::infinity());
    }
    return y;
  };
  const Eigen::Vector2d at_zero = x_of(0.0);
  if (at_zero.norm() <= radius) return Q * at_zero;
  double lo = 0.0;
  double hi = b.norm() / radius;  // |x(hi)| <= |b| / (l_min + hi) <= radius
  for (int it = 0; it < 200 && hi - lo > 1e-17 * std::max(hi, scale); ++it) {
    const double mid = 0.5 * (lo + hi);
    (x_of(mid).norm() > radius ? lo : hi) = mid;
  }
  Eigen::Vector2d y = x_of(hi);
  const double n = y.norm();
  if (n > 0.0) y *= radius / n;  // onto the circle (removes the bisection error)
  return Q * y;
}

}  // namespace

DiscSolution solveDiscProblem(const Eigen::Matrix2d& A, const Eigen::Vector2d& b, double radius,
                              int max_newton) {
  DiscSolution s;
  if (!(radius > 0.0)) return s;  // the disc is the point 0
  const double a = A(0, 0);
  const double c = 0.5 * (A(0, 1) + A(1, 0));
  const double d = A(1, 1);
  const double det = a * d - c * c;
  const double size = std::max({std::abs(a), std::abs(d), std::abs(c)});
  const bool regular = det > 1e-12 * size * size && size > 0.0;
  double angle = 0.0;
  if (regular) {
    // Unconstrained solution A x_s + b = 0 by Cramer's rule (eq. 14 discussion).
    const Eigen::Vector2d xs((-d * b[0] + c * b[1]) / det, (c * b[0] - a * b[1]) / det);
    if (xs.norm() <= radius) {
      s.x = xs;
      s.interior = true;
      return s;
    }
    angle = std::atan2(xs[1], xs[0]);  // eq. 16: start at the projection onto the circle
  } else {
    // (Nearly) singular block: no unique unconstrained solution; the secular
    // equation handles the minimum-norm case and the boundary case alike.
    s.x = solveSecular(A, b, radius);
    s.interior = s.x.norm() < radius * (1.0 - 1e-14);
    s.fallback = true;
    return s;
  }
  // Newton's method on f(alpha) = 1/2 r^2 e^T A e + r e^T b, e = (cos, sin) (eqs. 15-16):
  //   f'  = r^2 e'^T A e + r e'^T b,  f'' = r^2 (e'^T A e' - e^T A e) - r e^T b,  e' = (-sin, cos).
  const double r = radius;
  const double f_scale = r * r * size + r * b.norm();
  bool converged = false;
  for (;;) {
    const Eigen::Vector2d e(std::cos(angle), std::sin(angle));
    const Eigen::Vector2d ep(-e[1], e[0]);
    const Eigen::Vector2d Ae = A * e;
    const double f1 = r * r * ep.dot(Ae) + r * ep.dot(b);
    const double f2 = r * r * (ep.dot(A * ep) - e.dot(Ae)) - r * e.dot(b);
    if (std::abs(f1) <= 1e-14 * f_scale) {
      converged = true;
      break;
    }
    if (s.newton_iterations >= max_newton || !(f2 > 0.0)) break;  // not locally convex: give up
    const double step = -f1 / f2;
    angle += std::clamp(step, -0.5 * kPi, 0.5 * kPi);
    ++s.newton_iterations;
  }
  const Eigen::Vector2d e(std::cos(angle), std::sin(angle));
  // The minimiser over the disc has A x + b = -lambda x with lambda >= 0 (the
  // gradient points inwards); a stationary point on the circle with lambda < 0
  // is not it.
  const double lambda = -e.dot(A * e * r + b) / r;
  if (converged && lambda >= -1e-12 * (size + b.norm() / r)) {
    s.x = r * e;
    return s;
  }
  s.x = solveSecular(A, b, radius);
  s.fallback = true;
  return s;
}

}  // namespace grains::solver_detail
