#pragma once
// A general D^T (any rows) in both orientations, with one 6-entry block per
// (constraint row, body) pair. Debian's Tpetra runs its local sparse
// products on one thread, and its transposed product scatters; here D^T w
// runs over rows and D x over bodies, both OpenMP-parallel and neither
// needing atomics, because each orientation is stored explicitly. Contact
// systems use the leaner ContactFrameJacobian; this one serves operators
// built from an arbitrary CrsMatrix.
#include "grains/constraint/local_jacobian.hpp"
#include "grains/linalg/tpetra_types.hpp"

#include <cstddef>
#include <vector>

namespace grains {

class BlockJacobian final : public LocalJacobian {
 public:
  BlockJacobian() = default;
  /// Blocks of the fill-completed D^T (rows: constraint unknowns, columns:
  /// 6 per column-map body); `column_bodies` is the column map's body count.
  BlockJacobian(const CrsMatrix& Dt, std::size_t column_bodies);

  std::size_t rows() const override { return row_start_.empty() ? 0 : row_start_.size() - 1; }
  std::size_t columnBodies() const override {
    return body_start_.empty() ? 0 : body_start_.size() - 1;
  }
  std::size_t blocks() const { return row_body_.size(); }

  void multiplyD(const double* x, double* v) const override;
  void multiplyWD(const double* x, const std::vector<BodyMobility>& mobility,
                  double* v) const override;
  void multiplyDt(const double* w, double alpha, const double* x, double reg, double beta,
                  double* y) const override;
  /// Both orientations of the values and indices, the vectors, the mobilities.
  std::size_t bytesPerNormalProduct(std::size_t mobility_bodies) const override;

 private:
  /// The body orientation from the row orientation (row_* already set).
  void buildBodyOrientation(std::size_t column_bodies);

  // Row orientation (D^T): blocks of row r at [row_start_[r], row_start_[r+1]).
  std::vector<int> row_start_;
  std::vector<int> row_body_;
  std::vector<double> row_values_;  // 6 per block
  // Body orientation (D): blocks of body k at [body_start_[k], body_start_[k+1]).
  std::vector<int> body_start_;
  std::vector<int> body_row_;
  std::vector<double> body_values_;  // 6 per block, the same numbers
};

}  // namespace grains
