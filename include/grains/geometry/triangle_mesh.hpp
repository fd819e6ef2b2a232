#pragma once
// A triangle-mesh wall's surface: triangles with welded vertices, the
// edges and vertices they share, and a uniform cell grid over them, all in
// the mesh's own frame (built once; a moving mesh is queried with the
// sphere's centre taken into that frame). The sphere-mesh contact keeps one
// contact per local minimum of the distance from the centre to the surface
// (docs/boundaries.md, "Triangle-mesh walls").
#include "grains/core/types.hpp"
#include "grains/core/wall.hpp"
#include "grains/geometry/contact_geometry.hpp"

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace grains {

/// Where a mesh wall came from, as the config gave it (for the written config).
struct MeshSource {
  std::string file;  ///< absolute path
  Vec3 scale = Vec3::Ones();
  Vec3 translate = Vec3::Zero();
  Vec3 rotate_axis = Vec3::UnitZ();
  double rotate_angle_deg = 0.0;
};

/// Which part of a triangle its closest point to a query point lies on.
enum class TriangleFeature : int { Face = 0, Edge = 1, Vertex = 2 };

struct ClosestOnTriangle {
  Vec3 point = Vec3::Zero();
  TriangleFeature feature = TriangleFeature::Face;
  int index = 0;  ///< edge k joins corners k and (k+1)%3; vertex k is corner k
};

/// The closest point of triangle (a, b, c) to p, by its Voronoi regions
/// (Ericson, Real-Time Collision Detection, 2005, sec. 5.1.5).
ClosestOnTriangle closestPointOnTriangle(const Vec3& p, const Vec3& a, const Vec3& b,
                                         const Vec3& c);

/// One contact of a sphere with a mesh wall: the triangle it came from and
/// the geometry (world frame, wall on side a).
struct MeshContact {
  int triangle = 0;
  ContactGeometry geometry;
};

class TriangleMesh {
 public:
  /// Welds corners at bitwise equal positions; throws std::invalid_argument
  /// (naming `what`) for no triangles. Degenerate (zero-area) triangles must
  /// have been removed by the caller.
  TriangleMesh(const std::vector<std::array<Vec3, 3>>& triangles, const std::string& what);

  std::size_t numTriangles() const { return triangles_.size(); }
  std::size_t numVertices() const { return vertices_.size(); }
  const std::vector<Vec3>& vertices() const { return vertices_; }
  const std::array<int, 3>& triangle(std::size_t t) const { return triangles_[t]; }
  Vec3 corner(std::size_t t, int k) const {
    return vertices_[static_cast<std::size_t>(triangles_[t][static_cast<std::size_t>(k)])];
  }
  /// Edges with one triangle (the rim of an open mesh) and with more than two.
  std::size_t numBoundaryEdges() const { return boundary_edges_; }
  std::size_t numNonManifoldEdges() const { return non_manifold_edges_; }

  /// Triangles whose bounding boxes come within `distance` of p (mesh frame),
  /// by increasing index.
  void trianglesNear(const Vec3& p, double distance, std::vector<int>& out) const;

  /// The contacts of a sphere at `center` (mesh frame) whose gap is at most
  /// `search`: one per local minimum of the distance to the surface, by
  /// triangle index; geometry in the mesh frame.
  std::vector<MeshContact> sphereContacts(const Vec3& center, double radius, double search) const;

  /// Triangle t against the sphere alone (mesh frame).
  ContactGeometry triangleSphere(std::size_t t, const Vec3& center, double radius) const;

  MeshSource source;
  /// Zero-area triangles of the file left out before building the mesh.
  std::size_t degenerate_triangles = 0;

 private:
  /// Is the closest point q (on triangle t's feature) a local minimum of the
  /// distance to the centre over every triangle at that feature?
  bool isLocalMinimum(std::size_t t, const ClosestOnTriangle& q, const Vec3& normal) const;

  std::vector<Vec3> vertices_;
  std::vector<std::array<int, 3>> triangles_;
  /// Triangles around each vertex, and around each edge (key: sorted vertex pair).
  std::vector<std::vector<int>> vertex_triangles_;
  std::map<std::pair<int, int>, std::vector<int>> edge_triangles_;
  std::size_t boundary_edges_ = 0;
  std::size_t non_manifold_edges_ = 0;
  // The cell grid: cell (i, j, k) holds the triangles whose bounding box meets it.
  Vec3 grid_lo_ = Vec3::Zero();
  double cell_ = 1.0;
  std::array<int, 3> dims_{{1, 1, 1}};
  std::vector<std::int32_t> cell_start_;
  std::vector<std::int32_t> cell_triangles_;
};

/// A resting mesh wall of these triangles (world frame at t = 0).
Wall meshWall(const std::vector<std::array<Vec3, 3>>& triangles, std::string name);

/// The contacts of a sphere with a mesh wall placed by wallAt (world frame).
std::vector<MeshContact> meshSphereContacts(const Wall& wall, const Vec3& center, double radius,
                                            double search);

/// Triangle t of a mesh wall against a sphere (world frame).
ContactGeometry meshTriangleSphere(const Wall& wall, std::size_t t, const Vec3& center,
                                   double radius);

/// The nearest contact of a sphere with a mesh wall among the triangles
/// within 4 radii of the centre; beyond that a far contact with gap 3 radii
/// (a lower bound).
ContactGeometry meshSphereNearest(const Wall& wall, const Vec3& center, double radius);

}  // namespace grains
