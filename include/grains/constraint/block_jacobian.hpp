#pragma once
// This rank's part of the contact Jacobian in both orientations, with one
// 6-entry block per (constraint row, body) pair. Debian's Tpetra runs its
// local sparse products on one thread, and its transposed product scatters;
// here D^T w runs over rows and D x over bodies, both OpenMP-parallel and
// neither needing atomics, because each orientation is stored explicitly.
// Bodies are numbered as the column map of the assembled D^T (owned first,
// then ghosts), so column-map vectors are 6 doubles per body.
#include "grains/linalg/tpetra_types.hpp"
#include "grains/solver/quadratic_program.hpp"

#include <cstddef>
#include <vector>

namespace grains {

class BlockJacobian {
 public:
  BlockJacobian() = default;
  /// Blocks of the fill-completed D^T (rows: constraint unknowns, columns:
  /// 6 per column-map body); `column_bodies` is the column map's body count.
  BlockJacobian(const CrsMatrix& Dt, std::size_t column_bodies);
  /// The row orientation given directly: the blocks of row r are
  /// [row_start[r], row_start[r+1]), block k touches column body row_body[k]
  /// with the 6 values row_values[6k .. 6k+5] (u_x .. w_z).
  BlockJacobian(std::vector<int> row_start, std::vector<int> row_body,
                std::vector<double> row_values, std::size_t column_bodies);

  std::size_t rows() const { return row_start_.empty() ? 0 : row_start_.size() - 1; }
  std::size_t columnBodies() const { return body_start_.empty() ? 0 : body_start_.size() - 1; }
  std::size_t blocks() const { return row_body_.size(); }

  /// v = D x: v has 6 entries per column body, x one per row.
  void multiplyD(const double* x, double* v) const;
  /// v_k = W_k (D x)_k for the first bodies (owned, with W given per body);
  /// for the single-rank case, where no ghost sums have to be exchanged in
  /// between, the mobility is applied in the same pass.
  void multiplyWD(const double* x, const std::vector<BodyMobility>& mobility, double* v) const;
  /// y = alpha * (D^T w) + reg * x + beta * y (x may be null when reg = 0).
  void multiplyDt(const double* w, double alpha, const double* x, double reg, double beta,
                  double* y) const;

  /// Bytes a D x, W, D^T w pass reads and writes at least (both orientations
  /// of the values and indices, the vectors and `mobility_bodies` mobilities
  /// once each): the traffic model the operator benchmark divides by.
  std::size_t bytesPerNormalProduct(std::size_t mobility_bodies) const;

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
