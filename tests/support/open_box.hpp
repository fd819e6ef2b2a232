#pragma once
// A box without a lid for pile tests: the floor z = 0 and four inward side
// planes at x, y = low and x, y = high.
#include "grains/core/wall.hpp"

#include <vector>

namespace grains::test {

inline std::vector<Wall> openBox(double low, double high) {
  std::vector<Wall> walls{Wall::plane(Vec3::Zero(), Vec3::UnitZ())};
  for (int axis = 0; axis < 2; ++axis) {
    walls.push_back(Wall::plane(low * Vec3::Unit(axis), Vec3::Unit(axis)));
    walls.push_back(Wall::plane(high * Vec3::Unit(axis), -Vec3::Unit(axis)));
  }
  return walls;
}

}  // namespace grains::test
