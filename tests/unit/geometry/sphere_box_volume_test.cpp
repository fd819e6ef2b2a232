// The volume of a sphere inside a box against closed forms: caps, halves,
// quarters, octants, slabs, and a disc against a rectangle.
#include "grains/geometry/sphere_box_volume.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace grains {
namespace {

constexpr double kBig = 10.0;

double sphere(double r) { return 4.0 / 3.0 * kPi * r * r * r; }

TEST(SphereBoxVolume, InsideAndOutside) {
  const Vec3 c(0.3, -0.2, 0.1);
  EXPECT_EQ(sphereBoxVolume(c, 0.5, Vec3::Constant(-kBig), Vec3::Constant(kBig)), sphere(0.5));
  EXPECT_EQ(sphereBoxVolume(c, 0.5, Vec3(1.0, -kBig, -kBig), Vec3::Constant(kBig)), 0.0);
}

TEST(SphereBoxVolume, HalvesQuartersOctants) {
  const double r = 0.7;
  const Vec3 c(1.0, 2.0, 3.0);
  const Vec3 lo = c - Vec3::Constant(kBig), hi = c + Vec3::Constant(kBig);
  for (int axis = 0; axis < 3; ++axis) {
    Vec3 cut = lo;
    cut[axis] = c[axis];
    EXPECT_NEAR(sphereBoxVolume(c, r, cut, hi), sphere(r) / 2, 1e-12 * sphere(r));
  }
  EXPECT_NEAR(sphereBoxVolume(c, r, Vec3(c.x(), c.y(), lo.z()), hi), sphere(r) / 4,
              1e-12 * sphere(r));
  EXPECT_NEAR(sphereBoxVolume(c, r, c, hi), sphere(r) / 8, 1e-12 * sphere(r));
  EXPECT_NEAR(sphereBoxVolume(c, r, lo, c), sphere(r) / 8, 1e-12 * sphere(r));
}

TEST(SphereBoxVolume, CapsAndSlabs) {
  // A cap of height h: pi h^2 (3 r - h) / 3.
  const double r = 1.3;
  const auto cap = [r](double h) { return kPi * h * h * (3.0 * r - h) / 3.0; };
  for (double h : {0.01, 0.2, 0.9, 1.3, 2.0, 2.59}) {
    for (int axis = 0; axis < 3; ++axis) {
      Vec3 lo = Vec3::Constant(-kBig);
      lo[axis] = r - h;
      EXPECT_NEAR(sphereBoxVolume(Vec3::Zero(), r, lo, Vec3::Constant(kBig)), cap(h),
                  1e-10 * sphere(r))
          << "h " << h << " axis " << axis;
    }
  }
  // A slab |z| < a: the sphere minus two caps of height r - a.
  const double a = 0.4;
  EXPECT_NEAR(sphereBoxVolume(Vec3::Zero(), r, Vec3(-kBig, -kBig, -a), Vec3(kBig, kBig, a)),
              sphere(r) - 2.0 * cap(r - a), 1e-10 * sphere(r));
  // Two orthogonal slabs that cut the sphere in 9 pieces, summing to the whole.
  double total = 0.0;
  const double cuts[] = {-kBig, -0.3, 0.5, kBig};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 3; ++k)
        total += sphereBoxVolume(Vec3(0.05, 0.0, -0.1), r, Vec3(cuts[i], cuts[j], cuts[k]),
                                 Vec3(cuts[i + 1], cuts[j + 1], cuts[k + 1]));
  EXPECT_NEAR(total, sphere(r), 1e-10 * sphere(r));
}

TEST(SphereBoxVolume, DiscRectangle) {
  EXPECT_NEAR(discRectangleArea(1.0, -2, 2, -2, 2), kPi, 1e-14);
  EXPECT_NEAR(discRectangleArea(1.0, 0, 2, 0, 2), kPi / 4, 1e-14);
  // A segment cut at x = 0.5: r^2 acos(d / r) - d sqrt(r^2 - d^2).
  EXPECT_NEAR(discRectangleArea(1.0, 0.5, 2, -2, 2), std::acos(0.5) - 0.5 * std::sqrt(0.75), 1e-14);
  // The unit square inside a disc of radius sqrt(2) about its corner.
  EXPECT_NEAR(discRectangleArea(std::sqrt(2.0), 0, 1, 0, 1), 1.0, 1e-14);
}

}  // namespace
}  // namespace grains
