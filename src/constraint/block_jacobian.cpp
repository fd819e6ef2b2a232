#include "grains/constraint/block_jacobian.hpp"

#include <stdexcept>
#include <string>

namespace grains {

namespace {
using Index = long;

// D x restricted to one body: the sum of its blocks weighted by their rows' x.
inline void gatherBody(const int* start, const int* row, const double* values, const double* x,
                       Index b, double sum[6]) {
  for (int c = 0; c < 6; ++c) sum[c] = 0.0;
  for (int blk = start[b]; blk < start[b + 1]; ++blk) {
    const double xr = x[row[blk]];
    const double* a = values + 6 * static_cast<Index>(blk);
    for (int c = 0; c < 6; ++c) sum[c] += a[c] * xr;
  }
}
}  // namespace

BlockJacobian::BlockJacobian(const CrsMatrix& Dt, std::size_t column_bodies) {
  if (!Dt.isFillComplete()) throw std::logic_error("BlockJacobian: D^T must be fill-complete");
  const auto local = Dt.getLocalMatrixHost();
  const auto& row_map = local.graph.row_map;
  const auto& cols = local.graph.entries;
  const auto& vals = local.values;
  const std::size_t nrows = Dt.getNodeNumRows();

  // Group each row's entries by body: a body's 6 columns are contiguous and
  // sorted after fillComplete; missing entries (structural zeros) stay 0.
  row_start_.assign(nrows + 1, 0);
  row_body_.reserve(2 * nrows);
  row_values_.reserve(12 * nrows);
  for (std::size_t r = 0; r < nrows; ++r) {
    std::size_t k = row_map(r);
    const std::size_t end = row_map(r + 1);
    while (k < end) {
      const int body = cols(k) / 6;
      const std::size_t base = row_values_.size();
      row_values_.resize(base + 6, 0.0);
      for (; k < end && cols(k) / 6 == body; ++k) row_values_[base + cols(k) % 6] = vals(k);
      row_body_.push_back(body);
    }
    row_start_[r + 1] = static_cast<int>(row_body_.size());
  }
  buildBodyOrientation(column_bodies);
}

void BlockJacobian::buildBodyOrientation(std::size_t column_bodies) {
  for (int body : row_body_)
    if (body < 0 || static_cast<std::size_t>(body) >= column_bodies)
      throw std::logic_error("BlockJacobian: body " + std::to_string(body) + " outside the " +
                             std::to_string(column_bodies) + " column bodies");
  // Transpose by counting sort: rows stay in increasing order within a body,
  // so the summation order (and the result) does not depend on threads. The
  // slots are found in one serial pass over the block indices; the values,
  // most of the bytes, are then copied in parallel.
  const std::size_t nrows = rows();
  body_start_.assign(column_bodies + 1, 0);
  for (int body : row_body_) ++body_start_[static_cast<std::size_t>(body) + 1];
  for (std::size_t b = 0; b < column_bodies; ++b) body_start_[b + 1] += body_start_[b];
  body_row_.resize(row_body_.size());
  std::vector<int> slot_of_block(row_body_.size());
  std::vector<int> fill(body_start_.begin(), body_start_.end() - 1);
  for (std::size_t r = 0; r < nrows; ++r) {
    for (int blk = row_start_[r]; blk < row_start_[r + 1]; ++blk) {
      const int slot = fill[static_cast<std::size_t>(row_body_[static_cast<std::size_t>(blk)])]++;
      slot_of_block[static_cast<std::size_t>(blk)] = slot;
      body_row_[static_cast<std::size_t>(slot)] = static_cast<int>(r);
    }
  }
  body_values_.resize(row_values_.size());
  const auto nblocks = static_cast<Index>(row_body_.size());
  const int* slots = slot_of_block.data();
  const double* from = row_values_.data();
  double* to = body_values_.data();
#pragma omp parallel for schedule(static)
  for (Index blk = 0; blk < nblocks; ++blk) {
    const Index slot = slots[blk];
    for (int c = 0; c < 6; ++c) to[6 * slot + c] = from[6 * blk + c];
  }
}

void BlockJacobian::multiplyD(const double* x, double* v) const {
  const auto nbodies = static_cast<Index>(columnBodies());
  const int* start = body_start_.data();
  const int* row = body_row_.data();
  const double* values = body_values_.data();
#pragma omp parallel for schedule(static)
  for (Index b = 0; b < nbodies; ++b) {
    double sum[6];
    gatherBody(start, row, values, x, b, sum);
    for (int c = 0; c < 6; ++c) v[6 * b + c] = sum[c];
  }
}

void BlockJacobian::multiplyWD(const double* x, const std::vector<BodyMobility>& mobility,
                               double* v) const {
  const auto nbodies = static_cast<Index>(mobility.size());
  if (mobility.size() > columnBodies())
    throw std::logic_error("BlockJacobian::multiplyWD: more mobilities than column bodies");
  const int* start = body_start_.data();
  const int* row = body_row_.data();
  const double* values = body_values_.data();
#pragma omp parallel for schedule(static)
  for (Index b = 0; b < nbodies; ++b) {
    double sum[6];
    gatherBody(start, row, values, x, b, sum);
    applyMobility(mobility[static_cast<std::size_t>(b)], sum, v + 6 * b);
  }
}

void BlockJacobian::multiplyDt(const double* w, double alpha, const double* x, double reg,
                               double beta, double* y) const {
  if (reg != 0.0 && x == nullptr)
    throw std::logic_error("BlockJacobian::multiplyDt: regularisation needs x");
  const auto nrows = static_cast<Index>(rows());
  const int* start = row_start_.data();
  const int* body = row_body_.data();
  const double* values = row_values_.data();
#pragma omp parallel for schedule(static)
  for (Index r = 0; r < nrows; ++r) {
    double sum = 0.0;
    for (int blk = start[r]; blk < start[r + 1]; ++blk) {
      const double* a = values + 6 * static_cast<Index>(blk);
      const double* wb = w + 6 * static_cast<Index>(body[blk]);
      sum +=
          a[0] * wb[0] + a[1] * wb[1] + a[2] * wb[2] + a[3] * wb[3] + a[4] * wb[4] + a[5] * wb[5];
    }
    double out = alpha * sum;
    if (reg != 0.0) out += reg * x[r];
    // beta = 0 must overwrite (y may hold NaN from an earlier use).
    y[r] = beta == 0.0 ? out : out + beta * y[r];
  }
}

std::size_t BlockJacobian::bytesPerNormalProduct(std::size_t mobility_bodies) const {
  const std::size_t nblocks = blocks();
  const std::size_t per_orientation = nblocks * (6 * sizeof(double) + sizeof(int));
  const std::size_t starts = (row_start_.size() + body_start_.size()) * sizeof(int);
  // x read and y written (rows), the body vector written and read once.
  const std::size_t vectors = 2 * rows() * sizeof(double) + 2 * 6 * columnBodies() * sizeof(double);
  return 2 * per_orientation + starts + vectors + mobility_bodies * sizeof(BodyMobility);
}

}  // namespace grains
