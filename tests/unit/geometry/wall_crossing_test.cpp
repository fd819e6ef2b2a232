#include "grains/geometry/wall_crossing.hpp"

#include "grains/geometry/triangle_mesh.hpp"

#include <gtest/gtest.h>

#include <limits>

namespace grains {
namespace {

TEST(WallCrossing, DiscIsCrossedOnItsRingOnly) {
  const Wall ring = Wall::disc(Vec3::Zero(), Vec3::UnitZ(), 1.0, 0.25);
  // Through the ring, both ways.
  EXPECT_TRUE(pathCrossesThinWall(ring, Vec3(0.5, 0, 0.1), Vec3(0.5, 0, -0.1)));
  EXPECT_TRUE(pathCrossesThinWall(ring, Vec3(0, -0.6, -0.1), Vec3(0, -0.4, 0.3)));
  // Through the hole, beyond the rim, or not reaching the plane.
  EXPECT_FALSE(pathCrossesThinWall(ring, Vec3(0.1, 0, 0.1), Vec3(0.1, 0, -0.1)));
  EXPECT_FALSE(pathCrossesThinWall(ring, Vec3(1.2, 0, 0.1), Vec3(1.2, 0, -0.1)));
  EXPECT_FALSE(pathCrossesThinWall(ring, Vec3(0.5, 0, 0.3), Vec3(0.5, 0, 0.01)));
  // A slanted path crossing the plane in the hole although both ends lie over the ring.
  EXPECT_FALSE(pathCrossesThinWall(ring, Vec3(-0.5, 0, 0.1), Vec3(0.5, 0, -0.1)));
}

TEST(WallCrossing, FloorWithAnOrificeIsCrossedOutsideTheHole) {
  Wall floor =
      Wall::disc(Vec3(0, 0, 1), Vec3::UnitZ(), std::numeric_limits<double>::infinity(), 0.2);
  EXPECT_TRUE(pathCrossesThinWall(floor, Vec3(5, 5, 1.01), Vec3(5, 5, 0.9)));
  EXPECT_FALSE(pathCrossesThinWall(floor, Vec3(0.1, 0, 1.01), Vec3(0.1, 0, 0.9)));
}

TEST(WallCrossing, FloorWithASlotIsCrossedOutsideTheSlot) {
  // A slot 0.4 long along y and 0.1 wide along x in the floor z = 0.
  Wall floor =
      Wall::disc(Vec3::Zero(), Vec3::UnitZ(), std::numeric_limits<double>::infinity(), 0.0);
  floor.hole_half_length = 0.2;
  floor.hole_half_width = 0.05;
  floor.hole_axis = Vec3::UnitY();
  EXPECT_FALSE(pathCrossesThinWall(floor, Vec3(0.04, 0.15, 0.1), Vec3(0.04, 0.15, -0.1)));
  EXPECT_TRUE(pathCrossesThinWall(floor, Vec3(0.06, 0.15, 0.1), Vec3(0.06, 0.15, -0.1)));
  EXPECT_TRUE(pathCrossesThinWall(floor, Vec3(0.04, 0.25, 0.1), Vec3(0.04, 0.25, -0.1)));
}

TEST(WallCrossing, ConeBandIsCrossedBetweenItsRims) {
  // A hopper: radius 0.5 at z = 0 widening to 1.5 at z = 1.
  const Wall hopper = Wall::cone(Vec3::Zero(), Vec3::UnitZ(), 0.5, 1.5, 1.0);
  // At z = 0.5 the band's radius is 1.0: from 0.9 to 1.1 crosses it.
  EXPECT_TRUE(pathCrossesThinWall(hopper, Vec3(0.9, 0, 0.5), Vec3(1.1, 0, 0.5)));
  EXPECT_TRUE(pathCrossesThinWall(hopper, Vec3(0, 1.2, 0.5), Vec3(0, 0.8, 0.45)));
  // Inside, or above the top rim, or below the outlet.
  EXPECT_FALSE(pathCrossesThinWall(hopper, Vec3(0.2, 0, 0.5), Vec3(0.8, 0, 0.5)));
  EXPECT_FALSE(pathCrossesThinWall(hopper, Vec3(1.4, 0, 1.2), Vec3(1.7, 0, 1.2)));
  EXPECT_FALSE(pathCrossesThinWall(hopper, Vec3(0.4, 0, -0.1), Vec3(0.6, 0, -0.1)));
}

TEST(WallCrossing, MeshIsCrossedThroughItsTrianglesAtItsPose) {
  // The unit square in z = 0 as two triangles, then turned to stand in the
  // plane x = 0 (90 degrees about y) and moved by (0, 0, 1).
  Wall square = meshWall({{Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(1, 1, 0)},
                          {Vec3(0, 0, 0), Vec3(1, 1, 0), Vec3(0, 1, 0)}},
                         "square");
  EXPECT_TRUE(pathCrossesThinWall(square, Vec3(0.3, 0.6, 0.1), Vec3(0.3, 0.6, -0.1)));
  EXPECT_TRUE(pathCrossesThinWall(square, Vec3(0.5, 0.5, -0.1), Vec3(0.5, 0.5, 0.1)));
  EXPECT_FALSE(pathCrossesThinWall(square, Vec3(1.3, 0.6, 0.1), Vec3(1.3, 0.6, -0.1)));
  EXPECT_FALSE(pathCrossesThinWall(square, Vec3(0.3, 0.6, 0.3), Vec3(0.3, 0.6, 0.1)));
  square.orientation = Quat(Eigen::AngleAxisd(-0.5 * 3.14159265358979323846, Vec3::UnitY()));
  square.point = Vec3(0, 0, 1);
  // Now it spans x = 0, y in [0, 1], z in [1, 2].
  EXPECT_TRUE(pathCrossesThinWall(square, Vec3(0.1, 0.5, 1.5), Vec3(-0.1, 0.5, 1.5)));
  EXPECT_FALSE(pathCrossesThinWall(square, Vec3(0.1, 0.5, 0.5), Vec3(-0.1, 0.5, 0.5)));
  EXPECT_FALSE(pathCrossesThinWall(square, Vec3(0.3, 0.6, 0.1), Vec3(0.3, 0.6, -0.1)));
}

TEST(WallCrossing, HalfSpacesAndCylindersAreNotThinWalls) {
  const Wall floor = Wall::plane(Vec3::Zero(), Vec3::UnitZ());
  EXPECT_FALSE(pathCrossesThinWall(floor, Vec3(0, 0, 0.1), Vec3(0, 0, -0.1)));
  const Wall drum = Wall::cylinder(Vec3::Zero(), Vec3::UnitX(), 1.0, true);
  EXPECT_FALSE(pathCrossesThinWall(drum, Vec3(0, 0.9, 0), Vec3(0, 1.1, 0)));
}

}  // namespace
}  // namespace grains
