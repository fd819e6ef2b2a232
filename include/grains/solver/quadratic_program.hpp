#pragma once
// The contact problem handed to a solver:
//   min 1/2 g^T A g + b^T g   subject to  g in K,
// with A symmetric positive semi-definite, applied as a Tpetra::Operator.
// A solver sees only linear algebra, never bodies.
#include "grains/core/types.hpp"
#include "grains/linalg/tpetra_types.hpp"
#include "grains/solver/cone_set.hpp"

#include <Eigen/Core>
#include <vector>

namespace grains {

/// Mobility (inverse mass / inverse inertia) of one body column block.
struct BodyMobility {
  double inverse_mass = 0.0;
  Mat3 inverse_inertia = Mat3::Zero();

  /// out = W in for one body (6-vectors: linear, then angular), with one
  /// fixed order of operations wherever W is applied, so that a product
  /// gives the same bits on any rank count.
  void apply(const double in[6], double out[6]) const {
    const Mat3& J = inverse_inertia;
    out[0] = inverse_mass * in[0];
    out[1] = inverse_mass * in[1];
    out[2] = inverse_mass * in[2];
    for (int i = 0; i < 3; ++i) out[3 + i] = J(i, 0) * in[3] + J(i, 1) * in[4] + J(i, 2) * in[5];
  }

  /// d^T W d for one body's 6 entries d of a row of D^T: that body's term of
  /// the row's diagonal entry of D^T W D. One expression wherever the
  /// diagonal is formed (from the CSR of D^T or from the contact frames at
  /// assembly), so that both give the same bits.
  double quadraticForm(const double d[6]) const {
    const Vec3 r(d[3], d[4], d[5]);
    return inverse_mass * (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]) + r.dot(inverse_inertia * r);
  }
};

/// Optional factored form A = scale * D^T W D + regularisation * I, for
/// solvers that work row by row on the constraints (projected Gauss-Seidel).
/// Dt's rows are constraint unknowns (row map = A's map); its column map holds
/// 6 consecutive columns (u_x,u_y,u_z,w_x,w_y,w_z) per body, owned bodies and
/// ghosts, and its domain map is the owned body-DOF map.
struct FactoredOperator {
  RCP<const CrsMatrix> Dt;  ///< may be null: assembled only where rows are read
  /// W per column-map body: mobility[k] belongs to columns 6k..6k+5.
  std::vector<BodyMobility> mobility;
  double scale = 1.0;
  double regularisation = 0.0;
  /// diag(A) per local row when the assembly formed it with the rows (it
  /// has the frames at hand; the solvers' metrics read it at every solve);
  /// empty: formed from Dt when asked for.
  std::vector<double> diagonal;
};

struct QuadraticProgram {
  RCP<const Operator> A;
  RCP<const Vector> b;
  ConeSet cones;
  /// Present when the problem comes from contact assembly; may be null.
  RCP<const FactoredOperator> factored;

  RCP<const Map> map() const { return b->getMap(); }
};

/// Measures every solver reports the same way (global reductions).
struct QpMeasures {
  double residual = 0.0;   ///< || g - Pi_K(g - (A g + b)) ||_inf
  double objective = 0.0;  ///< 1/2 g^T A g + b^T g
};

/// Evaluates the measures at gamma (one application of A).
QpMeasures evaluateMeasures(const QuadraticProgram& qp, const Vector& gamma);
/// Same, reusing a precomputed gradient Ag + b.
QpMeasures evaluateMeasures(const QuadraticProgram& qp, const Vector& gamma,
                            const Vector& gradient);

/// How far gamma is from solving the QP, contact by contact. A contact's
/// share of the natural residual is the largest of its rows; `worst` is the
/// largest share (the natural residual), `quantile` the smallest value that
/// the requested fraction of the contacts do not exceed, rounded up to the
/// next of eight steps per octave (counted in a histogram of integers, so the
/// same on any rank and thread count). A fraction of 1 gives `worst`.
struct ResidualSpread {
  double worst = 0.0;
  double quantile = 0.0;
};

/// The spread at gamma for the fraction `quantile` in (0, 1] (one
/// application of A).
ResidualSpread evaluateResidualSpread(const QuadraticProgram& qp, const Vector& gamma,
                                      double quantile);
/// Same, reusing a precomputed gradient Ag + b.
ResidualSpread evaluateResidualSpread(const QuadraticProgram& qp, const Vector& gamma,
                                      const Vector& gradient, double quantile);
/// The spread at gamma (one application of A), leaving A gamma in `image`
/// (same map as gamma) for a solve that starts there (Solver::solveFromImage).
ResidualSpread evaluateResidualSpreadKeepingImage(const QuadraticProgram& qp, const Vector& gamma,
                                                  double quantile, Vector& image);

}  // namespace grains
