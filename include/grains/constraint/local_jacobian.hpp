#pragma once
// This rank's part of the contact Jacobian as the operator's OpenMP kernels
// see it: products with D (rows to column bodies) and D^T (column bodies to
// rows). Bodies are numbered as the column map of the assembled D^T (owned
// first, then ghosts), so column-map vectors are 6 doubles per body (u_x ..
// w_z); rows are numbered as the constraint map.
#include "grains/solver/quadratic_program.hpp"

#include <cstddef>
#include <vector>

namespace grains {

class LocalJacobian {
 public:
  virtual ~LocalJacobian() = default;

  virtual std::size_t rows() const = 0;
  virtual std::size_t columnBodies() const = 0;

  /// v = D x: v has 6 entries per column body, x one per row.
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

 protected:
  /// W (6-vector) for one body: inverse mass on the velocity, the inverse
  /// inertia on the angular part.
  static void applyMobility(const BodyMobility& w, const double sum[6], double* out) {
    const Mat3& J = w.inverse_inertia;
    out[0] = w.inverse_mass * sum[0];
    out[1] = w.inverse_mass * sum[1];
    out[2] = w.inverse_mass * sum[2];
    for (int i = 0; i < 3; ++i) out[3 + i] = J(i, 0) * sum[3] + J(i, 1) * sum[4] + J(i, 2) * sum[5];
  }
};

}  // namespace grains
