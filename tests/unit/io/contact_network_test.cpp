// The contact-force network output: which contacts become lines, their
// geometry and forces, the VTK arrays, and walls drawn as surfaces.
#include "grains/constraint/contact_network.hpp"
#include "grains/io/contact_network_writer.hpp"
#include "grains/io/wall_geometry.hpp"

#include <gtest/gtest.h>

#include <vtkCellData.h>
#include <vtkDataArray.h>
#include <vtkPoints.h>

#include <cmath>

namespace grains {
namespace {

Contact pair(int a, int b, GlobalId gid_a, GlobalId gid_b, const Vec3& pa, const Vec3& pb) {
  Contact c;
  c.key = ContactKey{gid_a, gid_b, 0};
  c.body_a = a;
  c.body_b = b;
  c.geometry.point_a = pa;
  c.geometry.point_b = pb;
  c.geometry.normal = (pb - pa).norm() > 0 ? (pb - pa).normalized() : Vec3::UnitX();
  c.geometry.gap = -1e-4;
  return c;
}

TEST(ContactNetwork, OnlyContactsCarryingForceBecomeLinesWithForcesFromImpulses) {
  std::vector<Body> bodies = {makeSphere(7, 0.1, 1.0, Vec3(0, 0, 0.1)),
                              makeSphere(9, 0.1, 1.0, Vec3(0.2, 0, 0.1)),
                              makeSphere(12, 0.1, 1.0, Vec3(0.4, 0, 0.1))};
  Contact touching = pair(0, 1, 7, 9, Vec3(0.1, 0, 0.1), Vec3(0.1, 0, 0.1));
  touching.geometry.normal = Vec3::UnitX();
  Contact idle = pair(1, 2, 9, 12, Vec3(0.3, 0, 0.1), Vec3(0.3, 0, 0.1));
  Contact floor;
  floor.key = ContactKey{-1, 12, 0};
  floor.wall = 0;
  floor.body_b = 2;
  floor.geometry.point_a = Vec3(0.4, 0, 0);
  floor.geometry.point_b = Vec3(0.4, 0, 0.0002);
  floor.geometry.normal = Vec3::UnitZ();
  // Impulses [N s] with dt = 0.01: normal, tangent 1, tangent 2 per contact.
  const std::vector<double> impulses = {0.05, 0.03, 0.04, 0.0, 0.01, 0.0, 0.0981, 0.0, 0.0};
  const auto lines = contactNetwork({touching, idle, floor}, impulses, bodies, 0.01);
  ASSERT_EQ(lines.size(), 2u);  // the idle contact carries no normal force
  EXPECT_EQ(lines[0].gid_a, 7);
  EXPECT_EQ(lines[0].gid_b, 9);
  EXPECT_EQ(lines[0].wall, -1);
  EXPECT_NEAR(lines[0].normal_force, 5.0, 1e-12);
  EXPECT_NEAR(lines[0].tangential_force, 5.0, 1e-12);  // |(3, 4)| N
  EXPECT_EQ(lines[0].center_a, bodies[0].position);
  EXPECT_EQ(lines[0].center_b, bodies[1].position);
  EXPECT_EQ(lines[0].point, Vec3(0.1, 0, 0.1));
  EXPECT_EQ(lines[1].gid_a, kNoBody);
  EXPECT_EQ(lines[1].wall, 0);
  EXPECT_NEAR(lines[1].normal_force, 9.81, 1e-12);
  EXPECT_EQ(lines[1].point, Vec3(0.4, 0, 0.0001));
  EXPECT_EQ(lines[1].center_b, bodies[2].position);

  // A body index that no longer names the contact's body (cells divided):
  // that end of the line stays at the contact point.
  bodies[1].gid = 99;
  const auto stale = contactNetwork({touching}, {0.05, 0, 0}, bodies, 0.01);
  ASSERT_EQ(stale.size(), 1u);
  EXPECT_EQ(stale[0].center_b, stale[0].point);
  EXPECT_EQ(stale[0].center_a, bodies[0].position);
  // Overdamped: the values are forces already; frictionless: one per contact.
  EXPECT_NEAR(contactNetwork({touching}, {2.5}, bodies, 1.0)[0].normal_force, 2.5, 0.0);
  EXPECT_THROW(contactNetwork({touching, idle}, {1.0, 2.0, 3.0}, bodies, 1.0),
               std::invalid_argument);
}

TEST(ContactNetwork, PolyDataHasAPolylinePerContactAndTheForceArrays) {
  NetworkLine between;
  between.gid_a = 1;
  between.gid_b = 2;
  between.center_a = Vec3(0, 0, 0);
  between.point = Vec3(1, 0, 0);
  between.center_b = Vec3(2, 0, 0);
  between.normal = Vec3::UnitX();
  between.normal_force = 3.0;
  NetworkLine wall;
  wall.wall = 4;
  wall.gid_b = 5;
  wall.point = Vec3(0, 0, -1);
  wall.center_a = wall.point;
  wall.center_b = Vec3(0, 0, 0);
  wall.normal = Vec3::UnitZ();
  wall.normal_force = 7.0;
  const auto poly = makeNetworkPolyData({between, wall});
  ASSERT_EQ(poly->GetNumberOfLines(), 2);
  EXPECT_EQ(poly->GetNumberOfPoints(), 5);  // 3 + 2: a wall line starts at the wall
  vtkCellData* cells = poly->GetCellData();
  for (const char* name :
       {"normal_force", "tangential_force", "force", "normal", "gap", "gid_a", "gid_b", "wall"})
    EXPECT_NE(cells->GetArray(name), nullptr) << name;
  EXPECT_EQ(cells->GetArray("normal_force")->GetTuple1(1), 7.0);
  EXPECT_EQ(cells->GetArray("force")->GetComponent(0, 0), 3.0);
  EXPECT_EQ(cells->GetArray("force")->GetComponent(1, 2), 7.0);
  EXPECT_EQ(cells->GetArray("wall")->GetTuple1(1), 4.0);
  const auto empty = makeNetworkPolyData({});
  EXPECT_EQ(empty->GetNumberOfCells(), 0);
  EXPECT_EQ(empty->GetCellData()->GetNumberOfArrays(), cells->GetNumberOfArrays());
}

TEST(WallGeometry, PlanesCoverTheBodiesAndCylindersAreTubesOfTheirRadius) {
  const std::vector<Wall> walls = {Wall::plane(Vec3(0, 0, 0), Vec3::UnitZ()),
                                   Wall::cylinder(Vec3(0.5, 0.5, 0), Vec3::UnitZ(), 2.0, true)};
  const Vec3 lo(0, 0, 0), hi(1, 1, 1);
  const auto poly = makeWallPolyData(walls, lo, hi, 32);
  ASSERT_EQ(poly->GetNumberOfPolys(), 1 + 32);
  const double margin = 0.1 * std::sqrt(3.0);
  vtkPoints* points = poly->GetPoints();
  // The floor quad: z = 0, covering [0, 1]^2 grown by the margin.
  double x_min = 1e9, x_max = -1e9;
  for (vtkIdType i = 0; i < 4; ++i) {
    double p[3];
    points->GetPoint(i, p);
    EXPECT_NEAR(p[2], 0.0, 1e-12);
    x_min = std::min(x_min, p[0]);
    x_max = std::max(x_max, p[0]);
  }
  EXPECT_NEAR(x_min, -margin, 1e-12);
  EXPECT_NEAR(x_max, 1.0 + margin, 1e-12);
  // The tube: every point at distance 2 from the axis, z in [-margin, 1 + margin].
  for (vtkIdType i = 4; i < points->GetNumberOfPoints(); ++i) {
    double p[3];
    points->GetPoint(i, p);
    EXPECT_NEAR(std::hypot(p[0] - 0.5, p[1] - 0.5), 2.0, 1e-12);
    EXPECT_TRUE(std::abs(p[2] + margin) < 1e-12 || std::abs(p[2] - 1.0 - margin) < 1e-12) << p[2];
  }
  auto* wall = poly->GetCellData()->GetArray("wall");
  auto* kind = poly->GetCellData()->GetArray("kind");
  EXPECT_EQ(wall->GetTuple1(0), 0.0);
  EXPECT_EQ(wall->GetTuple1(32), 1.0);
  EXPECT_EQ(kind->GetTuple1(32), static_cast<double>(WallKind::CylinderInside));
}

}  // namespace
}  // namespace grains
