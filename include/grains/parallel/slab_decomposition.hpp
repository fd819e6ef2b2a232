#pragma once
// Geometric decomposition of space into slabs along one axis, balanced by
// body count. Interim partitioner: the distributed-runs issue replaces it with
// Zoltan2 (RCB / multi-jagged) behind the same BodyDomain interface.
#include "grains/core/body.hpp"
#include "grains/linalg/tpetra_types.hpp"

#include <vector>

namespace grains {

class SlabDecomposition {
 public:
  SlabDecomposition() = default;

  /// Collective: choose the axis of largest global extent and cut it into
  /// nranks slabs holding (nearly) equal numbers of bodies.
  static SlabDecomposition balance(const std::vector<Body>& owned, const Comm& comm);

  int ownerOf(const Vec3& x) const;
  /// Ranks other than `self` whose slab lies within `reach` of x.
  void ranksWithin(const Vec3& x, double reach, int self, std::vector<int>& out) const;
  int axis() const { return axis_; }
  const std::vector<double>& cuts() const { return cuts_; }

 private:
  int axis_ = 0;
  std::vector<double> cuts_;  ///< nranks - 1 increasing cut coordinates
};

}  // namespace grains
