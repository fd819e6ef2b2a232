// Sphere against triangle-mesh walls: distances and normals over a face,
// near an edge and near a corner; one contact where two coplanar triangles
// meet, one at a convex ridge, two in a concave fold; a moving mesh;
// other shapes refused.
#include "grains/geometry/triangle_mesh.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace grains {
namespace {

using Triangles = std::vector<std::array<Vec3, 3>>;

const Triangles kOne = {{Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0)}};

/// The unit square z = 0 as two triangles sharing the diagonal (0,0)-(1,1).
const Triangles kSquare = {{Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(1, 1, 0)},
                           {Vec3(0, 0, 0), Vec3(1, 1, 0), Vec3(0, 1, 0)}};

TEST(TriangleMesh, SphereOverTheFaceOnEitherSide) {
  const Wall w = meshWall(kOne, "tri");
  auto above = meshSphereContacts(w, Vec3(0.2, 0.2, 0.5), 0.1, 1.0);
  ASSERT_EQ(above.size(), 1u);
  EXPECT_NEAR(above[0].geometry.gap, 0.4, 1e-15);
  EXPECT_LT((above[0].geometry.normal - Vec3::UnitZ()).norm(), 1e-15);
  EXPECT_LT((above[0].geometry.point_a - Vec3(0.2, 0.2, 0)).norm(), 1e-15);
  EXPECT_LT((above[0].geometry.point_b - Vec3(0.2, 0.2, 0.4)).norm(), 1e-15);
  // Two-sided: from below the normal points down, towards the centre.
  auto below = meshSphereContacts(w, Vec3(0.2, 0.2, -0.3), 0.1, 1.0);
  ASSERT_EQ(below.size(), 1u);
  EXPECT_NEAR(below[0].geometry.gap, 0.2, 1e-15);
  EXPECT_LT((below[0].geometry.normal + Vec3::UnitZ()).norm(), 1e-15);
}

TEST(TriangleMesh, SphereNearAnEdgeAndNearACorner) {
  const Wall w = meshWall(kOne, "tri");
  // Off the edge y = 0: the nearest point (0.5, 0, 0), at distance 0.5.
  auto edge = meshSphereContacts(w, Vec3(0.5, -0.3, 0.4), 0.1, 1.0);
  ASSERT_EQ(edge.size(), 1u);
  EXPECT_NEAR(edge[0].geometry.gap, 0.4, 1e-15);
  EXPECT_LT((edge[0].geometry.normal - Vec3(0, -0.6, 0.8)).norm(), 1e-15);
  EXPECT_LT((edge[0].geometry.point_a - Vec3(0.5, 0, 0)).norm(), 1e-15);
  // Off the hypotenuse, in the plane: nearest (0.5, 0.5, 0).
  auto hyp = meshSphereContacts(w, Vec3(0.8, 0.8, 0), 0.1, 1.0);
  ASSERT_EQ(hyp.size(), 1u);
  EXPECT_NEAR(hyp[0].geometry.gap, std::sqrt(0.18) - 0.1, 1e-15);
  EXPECT_LT((hyp[0].geometry.normal - Vec3(1, 1, 0).normalized()).norm(), 1e-15);
  // Beyond the corner (0, 0, 0).
  auto corner = meshSphereContacts(w, Vec3(-0.3, -0.4, 0), 0.1, 1.0);
  ASSERT_EQ(corner.size(), 1u);
  EXPECT_NEAR(corner[0].geometry.gap, 0.4, 1e-15);
  EXPECT_LT((corner[0].geometry.normal - Vec3(-0.6, -0.8, 0)).norm(), 1e-15);
  EXPECT_LT(corner[0].geometry.point_a.norm(), 1e-15);
  // Out of reach: nothing.
  EXPECT_TRUE(meshSphereContacts(w, Vec3(0.2, 0.2, 2.0), 0.1, 0.5).empty());
}

TEST(TriangleMesh, OneContactWhereCoplanarTrianglesMeet) {
  const Wall w = meshWall(kSquare, "square");
  // Over the first triangle, a hair from the diagonal: the second one's
  // edge point is no local minimum of the distance.
  for (const double off : {0.0, 1e-9, 1e-4, 0.05}) {
    const auto c = meshSphereContacts(w, Vec3(0.5 + off, 0.5 - off, 0.12), 0.1, 0.05);
    ASSERT_EQ(c.size(), 1u) << off;
    EXPECT_LT((c[0].geometry.normal - Vec3::UnitZ()).norm(), 1e-15);
    EXPECT_NEAR(c[0].geometry.gap, 0.02, 1e-15);
  }
  // Over the corners the two triangles share, and over the middle of a
  // corner's neighbourhood.
  for (const Vec3& p : {Vec3(0, 0, 0.1), Vec3(1, 1, 0.1), Vec3(0.01, 0.001, 0.1)}) {
    const auto c = meshSphereContacts(w, p, 0.1, 0.05);
    ASSERT_EQ(c.size(), 1u) << p.transpose();
    EXPECT_LT((c[0].geometry.normal - Vec3::UnitZ()).norm(), 1e-15);
  }
  // Beyond the shared corner (0, 0), below the plane: the corner, once.
  const auto c = meshSphereContacts(w, Vec3(-0.03, -0.04, 0), 0.01, 0.05);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_LT((c[0].geometry.normal - Vec3(-0.6, -0.8, 0)).norm(), 1e-15);
}

TEST(TriangleMesh, ConvexRidgeOneContactConcaveFoldTwo) {
  // A roof: two faces at 45 degrees meeting along the ridge x = 0, z = 1.
  const Triangles roof = {{Vec3(-1, 0, 0), Vec3(0, 0, 1), Vec3(0, 1, 1)},
                          {Vec3(-1, 0, 0), Vec3(0, 1, 1), Vec3(-1, 1, 0)},
                          {Vec3(0, 0, 1), Vec3(1, 0, 0), Vec3(1, 1, 0)},
                          {Vec3(0, 0, 1), Vec3(1, 1, 0), Vec3(0, 1, 1)}};
  const Wall w = meshWall(roof, "roof");
  // Above the ridge: the ridge itself, once, straight up.
  auto top = meshSphereContacts(w, Vec3(0, 0.5, 1.2), 0.1, 0.5);
  ASSERT_EQ(top.size(), 1u);
  EXPECT_LT((top[0].geometry.normal - Vec3::UnitZ()).norm(), 1e-15);
  EXPECT_NEAR(top[0].geometry.gap, 0.1, 1e-15);
  // Over the right face near the ridge: the face only (the left face's
  // nearest point, the ridge, is farther and no local minimum).
  auto side = meshSphereContacts(w, Vec3(0.1, 0.5, 1.0), 0.1, 0.5);
  ASSERT_EQ(side.size(), 1u);
  EXPECT_LT((side[0].geometry.normal - Vec3(1, 0, 1).normalized()).norm(), 1e-15);
  EXPECT_NEAR(side[0].geometry.gap, 0.1 / std::sqrt(2.0) - 0.1, 1e-15);
  // Under the roof it is a valley: a sphere on the axis touches both faces.
  auto fold = meshSphereContacts(w, Vec3(0, 0.5, 1.0 - 0.1 * std::sqrt(2.0)), 0.1, 0.01);
  ASSERT_EQ(fold.size(), 2u);
  EXPECT_NEAR(fold[0].geometry.gap, 0.0, 1e-15);
  EXPECT_NEAR(fold[1].geometry.gap, 0.0, 1e-15);
  EXPECT_NEAR(fold[0].geometry.normal.dot(fold[1].geometry.normal), 0.0, 1e-15);
  // Off-axis in the valley, nearer the left face: that face, and the right
  // one still within the search distance; never the fold line.
  auto near_left = meshSphereContacts(w, Vec3(-0.01, 0.5, 0.8), 0.1, 0.2);
  ASSERT_EQ(near_left.size(), 2u);
  for (const MeshContact& m : near_left)
    EXPECT_NEAR(std::abs(m.geometry.normal.x()), std::sqrt(0.5), 1e-12);
}

TEST(TriangleMesh, OpenRimIsAnEdge) {
  const Wall w = meshWall(kSquare, "square");
  auto rim = meshSphereContacts(w, Vec3(1.05, 0.5, 0), 0.1, 0.1);
  ASSERT_EQ(rim.size(), 1u);
  EXPECT_NEAR(rim[0].geometry.gap, -0.05, 1e-15);
  EXPECT_LT((rim[0].geometry.normal - Vec3::UnitX()).norm(), 1e-15);
  EXPECT_EQ(w.mesh->numBoundaryEdges(), 4u);
  EXPECT_EQ(w.mesh->numVertices(), 4u);
}

TEST(TriangleMesh, MovingMeshIsQueriedInItsFrame) {
  Wall w = meshWall(kSquare, "lid");
  // A quarter turn about the x axis through (0, 0, 0) within 1 s, then a
  // lift of 2 m: the square lies in the plane y = 0, x in [0, 1], z in [2, 3].
  w.motion.pivot = Vec3::Zero();
  w.motion.table.push_back({0.0, Vec3::Zero(), Vec3(kPi / 2, 0, 0)});
  w.motion.table.push_back({1.0, Vec3(0, 0, 2), Vec3::Zero()});
  const Wall placed = wallAt(w, 2.0);
  auto c = meshSphereContacts(placed, Vec3(0.5, 0.3, 2.5), 0.1, 0.5);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_NEAR(c[0].geometry.gap, 0.2, 1e-12);
  EXPECT_LT((c[0].geometry.normal - Vec3::UnitY()).norm(), 1e-12);
  EXPECT_LT((c[0].geometry.point_a - Vec3(0.5, 0, 2.5)).norm(), 1e-12);
  EXPECT_NEAR(wallSphere(placed, Vec3(0.5, 0.3, 2.5), 0.1).gap, 0.2, 1e-12);
  // The wall's surface moves up at 2 m/s there.
  EXPECT_LT((placed.velocity.at(c[0].geometry.point_a) - Vec3(0, 0, 2)).norm(), 1e-12);
}

TEST(TriangleMesh, NearestIsTheSmallestGapAndFarIsALowerBound) {
  const Wall w = meshWall(kSquare, "square");
  EXPECT_NEAR(wallSphere(w, Vec3(0.3, 0.6, 0.25), 0.1).gap, 0.15, 1e-15);
  EXPECT_NEAR(wallSphere(w, Vec3(0.3, 0.6, 5.0), 0.1).gap, 0.3, 1e-15);
}

TEST(TriangleMesh, OtherShapesAreRefusedNamingTheWall) {
  const Wall w = meshWall(kSquare, "chute");
  const Body ellipsoid = makeEllipsoid(3, Vec3(0.1, 0.1, 0.2), 1.0, Vec3(0.5, 0.5, 0.5));
  try {
    wallBody(w, ellipsoid);
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("wall 'chute' (mesh)"), std::string::npos) << what;
    EXPECT_NE(what.find("ellipsoid body 3"), std::string::npos) << what;
  }
}

TEST(TriangleMesh, EdgesOfMoreThanTwoTrianglesAreCounted) {
  // Three fins on the edge (0,0,0)-(0,0,1): non-manifold, yet contacts are found.
  const Triangles fins = {{Vec3(0, 0, 0), Vec3(0, 0, 1), Vec3(1, 0, 0)},
                          {Vec3(0, 0, 0), Vec3(0, 0, 1), Vec3(0, 1, 0)},
                          {Vec3(0, 0, 0), Vec3(0, 0, 1), Vec3(-1, -1, 0)}};
  const Wall w = meshWall(fins, "fins");
  EXPECT_EQ(w.mesh->numNonManifoldEdges(), 1u);
  EXPECT_EQ(w.mesh->numBoundaryEdges(), 6u);
  // Between the first two fins: a contact with each face (gaps 0.1 and
  // 0.4), none with the shared edge (the first fin comes closer there).
  const auto c = meshSphereContacts(w, Vec3(0.5, 0.2, 0.3), 0.1, 0.5);
  ASSERT_EQ(c.size(), 2u);
  EXPECT_LT((c[0].geometry.normal - Vec3::UnitY()).norm(), 1e-15);
  EXPECT_NEAR(c[0].geometry.gap, 0.1, 1e-15);
  EXPECT_LT((c[1].geometry.normal - Vec3::UnitX()).norm(), 1e-15);
  EXPECT_NEAR(c[1].geometry.gap, 0.4, 1e-15);
}

TEST(TriangleMesh, NoTrianglesIsAnError) {
  EXPECT_THROW(TriangleMesh({}, "empty.stl"), std::invalid_argument);
}

}  // namespace
}  // namespace grains
