#pragma once
// A diagonal metric for projected-gradient solvers (internal to src/solver).
// With P = diag(A) averaged over each contact's normal row, over its two
// tangential rows and (coulomb_rolling) over its two rolling rows and its
// spinning row, and S = P^-1/2, the QP in g' = S^-1 g has the matrix
// S A S (unit diagonal), the linear term S b and the feasible set S^-1 K,
// which is again a friction set of the same model with
//   mu' = mu s_n / s_t   and   normal_bound' = normal_bound / s_n,
//   rolling' = rolling s_n / s_r,   spinning' = spinning s_n / s_s,
// so a projection onto it stays a closed-form per-contact projection. A
// projected-gradient method run on the scaled QP but written in g needs only
//   step        g <- S Pi_{S^-1 K}(S^-1 (y - alpha P^-1 (A y + b))),
//   metric      |d|_P^2 = sum_i d_i^2 / s_i^2,
// while products with A, restart tests and the natural residual stay as they
// are. Normal and tangential rows of a sphere contact differ by 1 : 3.5 in
// diag(A) (r^2 / I = 2.5 / m), wall and pair contacts by 1 : 2; the metric
// takes both out of the conditioning.
#include "extrapolated_point.hpp"
#include "grains/solver/quadratic_program.hpp"

#include <vector>

namespace grains::solver_detail {

struct DiagonalMetric {
  std::vector<double> scale;    ///< s_i = P_i^-1/2 per local unknown
  std::vector<double> inverse;  ///< 1 / s_i (the kernels multiply, never divide)
  ConeSet cones;                ///< S^-1 K
};

/// The metric of qp (this rank's unknowns; contacts with a zero or invalid
/// diagonal get the largest scale of the problem, over all ranks).
DiagonalMetric diagonalMetric(const QuadraticProgram& qp);
/// The same from given diagonal entries of A (this rank's unknowns, e.g. with
/// pgs's mass-splitting factors); `layout` is any vector of the problem's
/// map (it names the communicator of the fallback scale's maximum).
DiagonalMetric diagonalMetric(const ConeSet& cones, const std::vector<double>& diagonal,
                              const Vector& layout);

/// out = S Pi_{S^-1 K}(S^-1 (x - alpha S^2 (Ax + b))), local entries only.
void scaledProjectedStep(const DiagonalMetric& metric, const Vector& x, const Vector& Ax,
                         const Vector* b, double alpha, Vector& out);
/// The same from the implicit point y of `from` (extrapolated_point.hpp).
void scaledProjectedStep(const DiagonalMetric& metric, const Extrapolation& from, const Vector* b,
                         double alpha, Vector& out);

/// |S A d| / |S^-1 d| (global): the Rayleigh-type estimate of the largest
/// eigenvalue of S A S along the direction S^-1 d, given d and Ad = A d.
double scaledLipschitzEstimate(const DiagonalMetric& metric, const Vector& d, const Vector& Ad);

}  // namespace grains::solver_detail
