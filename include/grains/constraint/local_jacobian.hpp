#pragma once
// This rank's part of the contact Jacobian as the operator's OpenMP kernels
// see it: products with D (rows to column bodies) and D^T (column bodies to
// rows). Bodies are numbered as the column map of the assembled D^T (owned
// first, then ghosts), so column-map vectors are 6 doubles per body (u_x ..
// w_z); rows are numbered as the constraint map.
#include "grains/core/reproducible_sum.hpp"
#include "grains/solver/quadratic_program.hpp"

#include <cstddef>
#include <vector>

namespace grains {

class LocalJacobian {
 public:
  virtual ~LocalJacobian() = default;

  virtual std::size_t rows() const = 0;
  virtual std::size_t columnBodies() const = 0;

  /// Per-body sums of D x are formed on the grids of a FoldedSummation
  /// (grains/core/reproducible_sum.hpp), so that they are the same bits
  /// however a body's contacts are split over ranks and threads. The grids
  /// follow from the largest term of all ranks' sums, `bound`.
  using BodySums = FoldedSummation<2>;
  /// Most terms one body's sum may have (the grids are sized for it).
  static constexpr double kMaxBodyTerms = 65536.0;

  /// Forms the contacts' forces for D x and returns the largest term of this
  /// rank's body sums (reduce it to the global maximum for `bound`).
  virtual double formForces(const double* x) const = 0;
  /// After formForces: this rank's part of D x per column body on the two
  /// grids (6 entries per body each); parts of several ranks add exactly.
  virtual void sumForces(double bound, double* grid0, double* grid1) const = 0;
  /// v = D x on one rank: v has 6 entries per column body, x one per row.
  virtual void multiplyD(const double* x, double* v) const = 0;
  /// v_k = W_k (D x)_k for the first bodies (owned, with W given per body);
  /// for the single-rank case, where no ghost sums have to be exchanged in
  /// between, the mobility is applied in the same pass.
  virtual void multiplyWD(const double* x, const std::vector<BodyMobility>& mobility,
                          double* v) const = 0;
  /// y = alpha * (D^T w) + reg * x + beta * y (x may be null when reg = 0).
  virtual void multiplyDt(const double* w, double alpha, const double* x, double reg, double beta,
                          double* y) const = 0;

  /// Bytes a D x, W, D^T w pass reads and writes at least (the kernels' own
  /// data, the vectors and `mobility_bodies` mobilities once each): the
  /// traffic model the operator benchmark divides by.
  virtual std::size_t bytesPerNormalProduct(std::size_t mobility_bodies) const = 0;
};

}  // namespace grains
