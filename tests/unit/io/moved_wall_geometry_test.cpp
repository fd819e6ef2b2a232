// Moving walls drawn at a frame's time: the reference mesh carried by each
// wall's pose, with the surface velocity as point data; discs and cones as
// rings and bands.
#include "grains/io/wall_geometry.hpp"

#include "grains/geometry/triangle_mesh.hpp"

#include <gtest/gtest.h>
#include <vtkCellData.h>
#include <vtkDataArray.h>
#include <vtkPointData.h>
#include <vtkPoints.h>

#include <cmath>

namespace grains {
namespace {

Vec3 pointOf(vtkPolyData* poly, vtkIdType i) {
  Vec3 p;
  poly->GetPoints()->GetPoint(i, p.data());
  return p;
}

TEST(MovedWallGeometry, AForceControlledWallIsDrawnWhereTheRunPlacedIt) {
  // The run has moved the piston 0.3 m down its normal and it falls at
  // 2 m/s: the picture follows the run's placement, not the config's pose.
  Wall piston = Wall::plane(Vec3(0, 0, 1), -Vec3::UnitZ(), "piston");
  const std::vector<Wall> walls = {piston};
  std::vector<Wall> placed = walls;
  placed[0].point += Vec3(0, 0, -0.3);
  placed[0].velocity.pivot = placed[0].point;
  placed[0].velocity.linear = Vec3(0, 0, -2.0);
  const Vec3 lo(-1, -1, 0), hi(1, 1, 1);
  const auto start = makeWallPolyData(walls, lo, hi, 16);
  const auto drawn = makeMovedWallPolyData(walls, 0.2, lo, hi, 16, &placed);
  auto* velocity = drawn->GetPointData()->GetArray("velocity");
  ASSERT_NE(velocity, nullptr);
  for (vtkIdType i = 0; i < drawn->GetNumberOfPoints(); ++i) {
    EXPECT_LT((pointOf(drawn, i) - pointOf(start, i) - Vec3(0, 0, -0.3)).norm(), 1e-12);
    Vec3 v;
    velocity->GetTuple(i, v.data());
    EXPECT_LT((v - Vec3(0, 0, -2.0)).norm(), 1e-12);
  }
}

TEST(MovedWallGeometry, EachWallIsDrawnAtItsPoseWithItsSurfaceVelocity) {
  Wall lid = Wall::plane(Vec3(0, 0, 1), -Vec3::UnitZ(), "lid");
  lid.motion.pivot = lid.point;
  lid.motion.table.push_back({0.0, Vec3(0, 0, -0.5), Vec3::Zero()});
  Wall drum = Wall::cylinder(Vec3::Zero(), Vec3::UnitZ(), 2.0, true, "drum");
  drum.motion.table.push_back({0.0, Vec3::Zero(), Vec3(0, 0, kPi)});
  const std::vector<Wall> walls = {lid, drum};
  const Vec3 lo(-1, -1, 0), hi(1, 1, 1);
  const auto start = makeWallPolyData(walls, lo, hi, 16);
  const auto later = makeMovedWallPolyData(walls, 0.5, lo, hi, 16);
  ASSERT_EQ(later->GetNumberOfPoints(), start->GetNumberOfPoints());
  auto* velocity = later->GetPointData()->GetArray("velocity");
  ASSERT_NE(velocity, nullptr);
  // The lid moved down by 0.25 m; every point moves at its velocity.
  for (vtkIdType i = 0; i < 4; ++i) {
    EXPECT_LT((pointOf(later, i) - pointOf(start, i) - Vec3(0, 0, -0.25)).norm(), 1e-12);
    EXPECT_NEAR(velocity->GetComponent(i, 2), -0.5, 1e-12);
  }
  // The drum turned a quarter turn about z: (x, y) -> (-y, x), and its
  // surface moves at pi * 2 m/s along the circle.
  for (vtkIdType i = 4; i < later->GetNumberOfPoints(); ++i) {
    const Vec3 before = pointOf(start, i), after = pointOf(later, i);
    EXPECT_LT((after - Vec3(-before.y(), before.x(), before.z())).norm(), 1e-12);
    const Vec3 v(velocity->GetComponent(i, 0), velocity->GetComponent(i, 1),
                 velocity->GetComponent(i, 2));
    EXPECT_LT((v - Vec3(0, 0, kPi).cross(after)).norm(), 1e-12);
  }
}

TEST(MovedWallGeometry, DiscsAreRingsAndConesBands) {
  const std::vector<Wall> walls = {Wall::disc(Vec3::Zero(), Vec3::UnitZ(), 2.0, 0.5),
                                   Wall::cone(Vec3::Zero(), Vec3::UnitZ(), 0.5, 1.5, 1.0)};
  const auto poly = makeWallPolyData(walls, Vec3::Zero(), Vec3::Ones(), 8);
  ASSERT_EQ(poly->GetNumberOfCells(), 16);
  for (vtkIdType i = 0; i < poly->GetNumberOfPoints(); ++i) {
    const Vec3 p = pointOf(poly, i);
    const double rho = std::hypot(p.x(), p.y());
    if (i < 32) {  // the ring: its inner and outer circles in z = 0
      EXPECT_NEAR(p.z(), 0.0, 1e-12);
      EXPECT_TRUE(std::abs(rho - 0.5) < 1e-12 || std::abs(rho - 2.0) < 1e-12) << rho;
    } else {  // the band: radius 0.5 at z = 0, 1.5 at z = 1
      EXPECT_NEAR(rho, 0.5 + p.z(), 1e-12);
    }
  }
  EXPECT_EQ(poly->GetCellData()->GetArray("kind")->GetTuple1(8),
            static_cast<double>(WallKind::Cone));
}

TEST(MovedWallGeometry, MeshTrianglesAreDrawnAtTheMeshPose) {
  Wall chute = meshWall({{Vec3(1, 0, 0), Vec3(2, 0, 0), Vec3(1, 1, 0)}}, "chute");
  chute.motion.pivot = Vec3::Zero();
  chute.motion.table.push_back({0.0, Vec3(0, 0, 1), Vec3(0, 0, kPi)});
  const std::vector<Wall> walls = {chute};
  const auto start = makeWallPolyData(walls, Vec3::Zero(), Vec3::Ones(), 8);
  ASSERT_EQ(start->GetNumberOfCells(), 1);
  ASSERT_EQ(start->GetCell(0)->GetNumberOfPoints(), 3);
  EXPECT_EQ(start->GetCellData()->GetArray("kind")->GetTuple1(0),
            static_cast<double>(WallKind::Mesh));
  EXPECT_LT((pointOf(start, 1) - Vec3(2, 0, 0)).norm(), 1e-15);
  // Half a second later: a quarter turn about z through the pivot, which
  // rose by 0.5 m; the mesh drawn from the wall placed there is the same.
  const auto later = makeMovedWallPolyData(walls, 0.5, Vec3::Zero(), Vec3::Ones(), 8);
  const auto placed = makeWallPolyData(wallsAt(walls, 0.5), Vec3::Zero(), Vec3::Ones(), 8);
  const Vec3 expected[3] = {Vec3(0, 1, 0.5), Vec3(0, 2, 0.5), Vec3(-1, 1, 0.5)};
  auto* velocity = later->GetPointData()->GetArray("velocity");
  for (vtkIdType i = 0; i < 3; ++i) {
    EXPECT_LT((pointOf(later, i) - expected[i]).norm(), 1e-12);
    EXPECT_LT((pointOf(placed, i) - expected[i]).norm(), 1e-12);
    const Vec3 v(velocity->GetComponent(i, 0), velocity->GetComponent(i, 1),
                 velocity->GetComponent(i, 2));
    EXPECT_LT((v - Vec3(0, 0, 1) - Vec3(0, 0, kPi).cross(expected[i])).norm(), 1e-12);
  }
}

}  // namespace
}  // namespace grains
