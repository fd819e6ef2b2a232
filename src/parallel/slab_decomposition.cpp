#include "grains/parallel/slab_decomposition.hpp"

#include "grains/parallel/mpi_utils.hpp"

#include <algorithm>
#include <limits>

namespace grains {

SlabDecomposition SlabDecomposition::balance(const std::vector<Body>& owned, const Comm& comm) {
  SlabDecomposition slabs;
  const int nranks = comm.getSize();
  if (nranks == 1) return slabs;
  const MPI_Comm raw = rawMpiComm(comm);

  double lo[3], hi[3];
  for (int d = 0; d < 3; ++d) {
    lo[d] = std::numeric_limits<double>::max();
    hi[d] = std::numeric_limits<double>::lowest();
  }
  for (const Body& b : owned)
    for (int d = 0; d < 3; ++d) {
      lo[d] = std::min(lo[d], b.position[d]);
      hi[d] = std::max(hi[d], b.position[d]);
    }
  MPI_Allreduce(MPI_IN_PLACE, lo, 3, MPI_DOUBLE, MPI_MIN, raw);
  MPI_Allreduce(MPI_IN_PLACE, hi, 3, MPI_DOUBLE, MPI_MAX, raw);
  slabs.axis_ = 0;
  for (int d = 1; d < 3; ++d)
    if (hi[d] - lo[d] > hi[slabs.axis_] - lo[slabs.axis_]) slabs.axis_ = d;
  const int axis = slabs.axis_;

  long total = static_cast<long>(owned.size());
  MPI_Allreduce(MPI_IN_PLACE, &total, 1, MPI_LONG, MPI_SUM, raw);

  // All cuts bisected together: one allreduce of nranks-1 counts per round.
  const int ncuts = nranks - 1;
  std::vector<double> left(static_cast<std::size_t>(ncuts), lo[axis]);
  std::vector<double> right(static_cast<std::size_t>(ncuts), hi[axis]);
  std::vector<long> below(static_cast<std::size_t>(ncuts));
  for (int round = 0; round < 60; ++round) {
    std::fill(below.begin(), below.end(), 0L);
    for (int c = 0; c < ncuts; ++c) {
      const double mid = 0.5 * (left[c] + right[c]);
      for (const Body& b : owned)
        if (b.position[axis] < mid) ++below[static_cast<std::size_t>(c)];
    }
    MPI_Allreduce(MPI_IN_PLACE, below.data(), ncuts, MPI_LONG, MPI_SUM, raw);
    for (int c = 0; c < ncuts; ++c) {
      const double target = static_cast<double>(total) * (c + 1) / nranks;
      const double mid = 0.5 * (left[c] + right[c]);
      if (static_cast<double>(below[c]) < target)
        left[c] = mid;
      else
        right[c] = mid;
    }
  }
  slabs.cuts_.resize(static_cast<std::size_t>(ncuts));
  for (int c = 0; c < ncuts; ++c) slabs.cuts_[c] = 0.5 * (left[c] + right[c]);
  std::sort(slabs.cuts_.begin(), slabs.cuts_.end());
  return slabs;
}

int SlabDecomposition::ownerOf(const Vec3& x) const {
  return static_cast<int>(std::upper_bound(cuts_.begin(), cuts_.end(), x[axis_]) - cuts_.begin());
}

void SlabDecomposition::ranksWithin(const Vec3& x, double reach, int self,
                                    std::vector<int>& out) const {
  out.clear();
  const double c = x[axis_];
  const int nranks = static_cast<int>(cuts_.size()) + 1;
  // Slab k spans [cuts_[k-1], cuts_[k]).
  for (int k = self - 1; k >= 0 && cuts_[static_cast<std::size_t>(k)] >= c - reach; --k)
    out.push_back(k);
  for (int k = self + 1; k < nranks && cuts_[static_cast<std::size_t>(k - 1)] <= c + reach; ++k)
    out.push_back(k);
}

}  // namespace grains
