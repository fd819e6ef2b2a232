#pragma once
// Internal to src/scenario: a sparse uniform grid of points for O(1) neighbour
// queries (cell size >= the largest interaction distance).
#include "grains/core/types.hpp"

#include <cmath>
#include <cstddef>
#include <unordered_map>
#include <vector>

namespace grains::scenario_detail {

class CellGrid {
 public:
  explicit CellGrid(double cell_size) : inv_cell_(1.0 / cell_size) {}

  void insert(std::size_t index, const Vec3& p) { cells_[keyOf(cellOf(p))].push_back(index); }

  /// Calls f(index) for every inserted point in the 27 cells around p.
  template <class F>
  void forNeighbours(const Vec3& p, F&& f) const {
    const Cell c = cellOf(p);
    for (long dx = -1; dx <= 1; ++dx) {
      for (long dy = -1; dy <= 1; ++dy) {
        for (long dz = -1; dz <= 1; ++dz) {
          const auto it = cells_.find(keyOf(Cell{c.x + dx, c.y + dy, c.z + dz}));
          if (it == cells_.end()) continue;
          for (std::size_t index : it->second) f(index);
        }
      }
    }
  }

 private:
  struct Cell {
    long x, y, z;
  };
  Cell cellOf(const Vec3& p) const {
    return Cell{static_cast<long>(std::floor(p.x() * inv_cell_)),
                static_cast<long>(std::floor(p.y() * inv_cell_)),
                static_cast<long>(std::floor(p.z() * inv_cell_))};
  }
  /// Exact for |cell index| < 2^20 per axis; beyond that distinct cells may
  /// share a bucket, which costs time but never correctness (callers test distances).
  static unsigned long long keyOf(const Cell& c) {
    const unsigned long long mask = (1ULL << 21) - 1;
    return ((static_cast<unsigned long long>(c.x) & mask) << 42) |
           ((static_cast<unsigned long long>(c.y) & mask) << 21) |
           (static_cast<unsigned long long>(c.z) & mask);
  }

  double inv_cell_;
  std::unordered_map<unsigned long long, std::vector<std::size_t>> cells_;
};

}  // namespace grains::scenario_detail
