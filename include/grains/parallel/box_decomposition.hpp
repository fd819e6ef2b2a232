#pragma once
// Space split into one axis-aligned box per rank (from the Zoltan2
// partitioner). Every rank keeps all boxes (6 doubles per rank) and the short
// list of neighbour ranks whose boxes come within the halo reach of its own,
// so owner look-ups and halo targets cost O(neighbours), not O(ranks).
#include "grains/core/types.hpp"

#include <vector>

namespace grains {

struct RankBox {
  Vec3 lo = Vec3::Constant(-1e300);
  Vec3 hi = Vec3::Constant(1e300);

  /// Half-open [lo, hi): every point of space has exactly one owner.
  bool contains(const Vec3& x) const {
    return (x.array() >= lo.array()).all() && (x.array() < hi.array()).all();
  }
  /// Euclidean distance from x to the box (0 inside).
  double distance(const Vec3& x) const {
    const Vec3 d = (lo - x).cwiseMax(x - hi).cwiseMax(Vec3::Zero());
    return d.norm();
  }
  /// Distance between two boxes (0 if they touch or overlap).
  double distance(const RankBox& o) const {
    const Vec3 d = (lo - o.hi).cwiseMax(o.lo - hi).cwiseMax(Vec3::Zero());
    return d.norm();
  }
};

class BoxDecomposition {
 public:
  /// One rank owning all of space.
  BoxDecomposition() : boxes_(1) {}
  /// boxes[k] is rank k's region; they must tile space (outer faces at +-inf).
  BoxDecomposition(std::vector<RankBox> boxes, int self);

  int numRanks() const { return static_cast<int>(boxes_.size()); }
  const RankBox& box(int rank) const { return boxes_[static_cast<std::size_t>(rank)]; }

  /// Owning rank of point x: own box, then neighbours, then all boxes.
  int ownerOf(const Vec3& x) const;
  /// Ranks other than this one whose box lies within `reach` of x (x is
  /// expected inside this rank's box).
  void ranksWithin(const Vec3& x, double reach, std::vector<int>& out);
  /// Every rank, this one included, whose box lies within `reach` of x
  /// (x anywhere, e.g. a periodic image beyond the far side of space).
  void allRanksWithin(const Vec3& x, double reach, std::vector<int>& out) const;
  /// Ranks whose boxes lie within `reach` of this rank's box.
  const std::vector<int>& neighbours(double reach);

 private:
  std::vector<RankBox> boxes_;
  int self_ = 0;
  double neighbour_reach_ = -1.0;
  std::vector<int> neighbours_;
};

}  // namespace grains
