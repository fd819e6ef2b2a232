#include "grains/parallel/box_decomposition.hpp"

#include <limits>
#include <stdexcept>

namespace grains {

BoxDecomposition::BoxDecomposition(std::vector<RankBox> boxes, int self)
    : boxes_(std::move(boxes)), self_(self) {
  if (self_ < 0 || self_ >= numRanks())
    throw std::invalid_argument("BoxDecomposition: rank out of range");
}

int BoxDecomposition::ownerOf(const Vec3& x) const {
  if (boxes_[static_cast<std::size_t>(self_)].contains(x)) return self_;
  for (int k : neighbours_)
    if (boxes_[static_cast<std::size_t>(k)].contains(x)) return k;
  int nearest = self_;
  double best = std::numeric_limits<double>::max();
  for (int k = 0; k < numRanks(); ++k) {
    const double d = boxes_[static_cast<std::size_t>(k)].distance(x);
    if (d == 0.0 && boxes_[static_cast<std::size_t>(k)].contains(x)) return k;
    if (d < best) {  // only reached for points in a round-off gap between boxes
      best = d;
      nearest = k;
    }
  }
  return nearest;
}

const std::vector<int>& BoxDecomposition::neighbours(double reach) {
  if (reach > neighbour_reach_) {
    // Widen generously so that a slowly growing reach does not rescan every step.
    neighbour_reach_ = 2.0 * reach;
    neighbours_.clear();
    const RankBox& mine = boxes_[static_cast<std::size_t>(self_)];
    for (int k = 0; k < numRanks(); ++k)
      if (k != self_ && mine.distance(boxes_[static_cast<std::size_t>(k)]) <= neighbour_reach_)
        neighbours_.push_back(k);
  }
  return neighbours_;
}

void BoxDecomposition::ranksWithin(const Vec3& x, double reach, std::vector<int>& out) {
  out.clear();
  for (int k : neighbours(reach))
    if (boxes_[static_cast<std::size_t>(k)].distance(x) <= reach) out.push_back(k);
}

void BoxDecomposition::allRanksWithin(const Vec3& x, double reach, std::vector<int>& out) const {
  out.clear();
  for (int k = 0; k < numRanks(); ++k)
    if (boxes_[static_cast<std::size_t>(k)].distance(x) <= reach) out.push_back(k);
}

}  // namespace grains
