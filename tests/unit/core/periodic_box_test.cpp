// The periodic box's arithmetic: wrapping, the nearest image, image offsets.
#include "grains/core/periodic_box.hpp"

#include <gtest/gtest.h>

namespace grains {
namespace {

PeriodicBox boxXY() {
  PeriodicBox box;
  box.periodic = {true, true, false};
  box.lower = Vec3(-1.0, 0.0, 0.0);
  box.upper = Vec3(1.0, 3.0, 1.0);
  return box;
}

TEST(PeriodicBox, WrapsPeriodicAxesIntoHalfOpenBox) {
  const PeriodicBox box = boxXY();
  Vec3 x(1.25, -0.5, 7.0);  // z is not periodic: left alone
  EXPECT_EQ(box.wrap(x), 2);
  EXPECT_DOUBLE_EQ(x.x(), -0.75);
  EXPECT_DOUBLE_EQ(x.y(), 2.5);
  EXPECT_DOUBLE_EQ(x.z(), 7.0);
  Vec3 far(1.0 + 6.0 + 0.5, 3.0, 0.0);  // four lengths out in x, the upper face in y
  EXPECT_EQ(box.wrap(far), 5);
  EXPECT_NEAR(far.x(), -0.5, 1e-12);
  EXPECT_DOUBLE_EQ(far.y(), 0.0);
  Vec3 inside(0.3, 1.0, 0.5);
  EXPECT_EQ(box.wrap(inside), 0);
  EXPECT_EQ(inside, Vec3(0.3, 1.0, 0.5));
  // Just below the lower face: lands inside [lower, upper), never on upper.
  Vec3 hair(-1.0 - 1e-17, 0.0, 0.0);
  box.wrap(hair);
  EXPECT_GE(hair.x(), -1.0);
  EXPECT_LT(hair.x(), 1.0);
}

TEST(PeriodicBox, NearestImageIsHalfOpen) {
  const PeriodicBox box = boxXY();  // L = 2 in x: images within (-1, 1]
  EXPECT_TRUE(box.isNearestImage(Vec3(0, 0, 0), Vec3(1.0, 0, 0)));
  EXPECT_FALSE(box.isNearestImage(Vec3(0, 0, 0), Vec3(-1.0, 0, 0)));
  EXPECT_FALSE(box.isNearestImage(Vec3(0.9, 0, 0), Vec3(-0.9 + 2.0 + 0.0, 2.0, 0)))
      << "y is 2 apart, more than half of 3";
  EXPECT_TRUE(box.isNearestImage(Vec3(0, 0, 0), Vec3(0, 0, 50.0))) << "z is not periodic";
}

TEST(PeriodicBox, ImageShiftsCoverNeighbourBoxes) {
  PeriodicBox box = boxXY();
  const auto shifts = box.imageShifts();
  ASSERT_EQ(shifts.size(), 8u);
  for (const Vec3& s : shifts) {
    EXPECT_TRUE(s.x() == 0.0 || std::abs(s.x()) == 2.0);
    EXPECT_TRUE(s.y() == 0.0 || std::abs(s.y()) == 3.0);
    EXPECT_EQ(s.z(), 0.0);
  }
  box.periodic = {false, false, true};
  EXPECT_EQ(box.imageShifts().size(), 2u);
  box.periodic = {true, true, true};
  EXPECT_EQ(box.imageShifts().size(), 26u);
  box.periodic = {false, false, false};
  EXPECT_TRUE(box.imageShifts().empty());
}

TEST(PeriodicBox, ImageShiftIsWholeLengthsAlongPeriodicAxes) {
  const PeriodicBox box = boxXY();  // L = 2 in x, 3 in y
  // An image across the +x and -y faces, seen half a step earlier (the body
  // has since moved by 0.01): the shift is exact lengths, z never shifts.
  EXPECT_EQ(box.imageShift(Vec3(0.95 + 2.0, 0.2 - 3.0, 5.0), Vec3(0.96, 0.21, 0.4)),
            Vec3(2.0, -3.0, 0.0));
  EXPECT_EQ(box.imageShift(Vec3(0.3, 1.0, 0.5), Vec3(0.31, 1.0, 0.5)), Vec3::Zero());
}

TEST(PeriodicBox, WithinReachLooksAtPeriodicAxesOnly) {
  const PeriodicBox box = boxXY();
  EXPECT_TRUE(box.withinReach(Vec3(1.05, 1.0, 100.0), 0.1));
  EXPECT_FALSE(box.withinReach(Vec3(1.15, 1.0, 0.0), 0.1));
  EXPECT_FALSE(box.withinReach(Vec3(0.0, -0.2, 0.0), 0.1));
}

}  // namespace
}  // namespace grains
