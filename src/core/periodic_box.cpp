#include "grains/core/periodic_box.hpp"

#include <cmath>

namespace grains {

long PeriodicBox::wrap(Vec3& x) const {
  long moved = 0;
  for (int d = 0; d < 3; ++d) {
    if (!periodic[d]) continue;
    const double L = length(d);
    if (x[d] >= lower[d] && x[d] < upper[d]) continue;
    const double turns = std::floor((x[d] - lower[d]) / L);
    x[d] -= turns * L;
    // Round-off can leave x a hair outside after the subtraction.
    if (x[d] >= upper[d]) x[d] -= L;
    if (x[d] < lower[d]) x[d] = lower[d];
    moved += static_cast<long>(std::abs(turns));
  }
  return moved;
}

bool PeriodicBox::isNearestImage(const Vec3& a, const Vec3& b) const {
  for (int d = 0; d < 3; ++d) {
    if (!periodic[d]) continue;
    const double half = 0.5 * length(d);
    const double delta = b[d] - a[d];
    if (!(delta > -half && delta <= half)) return false;
  }
  return true;
}

bool PeriodicBox::withinReach(const Vec3& x, double reach) const {
  for (int d = 0; d < 3; ++d)
    if (periodic[d] && (x[d] < lower[d] - reach || x[d] > upper[d] + reach)) return false;
  return true;
}

std::vector<Vec3> PeriodicBox::imageShifts() const {
  std::vector<Vec3> shifts;
  const auto range = [&](int d) { return periodic[d] ? 1 : 0; };
  for (int k = -range(2); k <= range(2); ++k)
    for (int j = -range(1); j <= range(1); ++j)
      for (int i = -range(0); i <= range(0); ++i) {
        if (i == 0 && j == 0 && k == 0) continue;
        shifts.emplace_back(i * length(0), j * length(1), k * length(2));
      }
  return shifts;
}

Vec3 PeriodicBox::imageShift(const Vec3& copy, const Vec3& at) const {
  Vec3 shift = Vec3::Zero();
  for (int d = 0; d < 3; ++d)
    if (periodic[d]) shift[d] = std::round((copy[d] - at[d]) / length(d)) * length(d);
  return shift;
}

}  // namespace grains
