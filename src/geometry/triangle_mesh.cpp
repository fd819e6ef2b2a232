#include "grains/geometry/triangle_mesh.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>

namespace grains {

namespace {

/// A direction at the contact point that enters a neighbouring triangle
/// with a component this large along the normal (towards the centre)
/// brings that triangle closer: the point is no local minimum. Well above
/// rounding, well below any real fold of a surface.
constexpr double kLocalMinimumTolerance = 1e-7;
/// Two contacts of one sphere closer than this (times the radius), with
/// normals this close, are the same contact reached from two triangles.
constexpr double kSameContact = 1e-6;
/// At most this many grid cells (the cell grows for huge, fine meshes).
constexpr double kMaxCells = 4.0e6;

ContactGeometry contactFrom(const Vec3& q, const Vec3& face_normal, bool on_face,
                            const Vec3& center, double radius) {
  return sheetSphere(q, on_face, face_normal, face_normal.dot(center - q), center, radius);
}

}  // namespace

ClosestOnTriangle closestPointOnTriangle(const Vec3& p, const Vec3& a, const Vec3& b,
                                         const Vec3& c) {
  ClosestOnTriangle out;
  const Vec3 ab = b - a, ac = c - a, ap = p - a;
  const double d1 = ab.dot(ap), d2 = ac.dot(ap);
  if (d1 <= 0.0 && d2 <= 0.0) return {a, TriangleFeature::Vertex, 0};
  const Vec3 bp = p - b;
  const double d3 = ab.dot(bp), d4 = ac.dot(bp);
  if (d3 >= 0.0 && d4 <= d3) return {b, TriangleFeature::Vertex, 1};
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0)
    return {a + (d1 / (d1 - d3)) * ab, TriangleFeature::Edge, 0};
  const Vec3 cp = p - c;
  const double d5 = ab.dot(cp), d6 = ac.dot(cp);
  if (d6 >= 0.0 && d5 <= d6) return {c, TriangleFeature::Vertex, 2};
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0)
    return {a + (d2 / (d2 - d6)) * ac, TriangleFeature::Edge, 2};
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0.0 && d4 - d3 >= 0.0 && d5 - d6 >= 0.0)
    return {b + ((d4 - d3) / ((d4 - d3) + (d5 - d6))) * (c - b), TriangleFeature::Edge, 1};
  const double denom = 1.0 / (va + vb + vc);
  out.point = a + (vb * denom) * ab + (vc * denom) * ac;
  return out;
}

TriangleMesh::TriangleMesh(const std::vector<std::array<Vec3, 3>>& triangles,
                           const std::string& what) {
  if (triangles.empty()) throw std::invalid_argument(what + ": no triangles");
  // Weld corners at bitwise equal positions (an STL file repeats each
  // shared corner with the same numbers).
  std::map<std::array<double, 3>, int> index_of;
  triangles_.reserve(triangles.size());
  for (const auto& tri : triangles) {
    std::array<int, 3> ids{};
    for (std::size_t k = 0; k < 3; ++k) {
      const std::array<double, 3> key{{tri[k].x(), tri[k].y(), tri[k].z()}};
      auto [it, inserted] = index_of.emplace(key, static_cast<int>(vertices_.size()));
      if (inserted) vertices_.push_back(tri[k]);
      ids[k] = it->second;
    }
    triangles_.push_back(ids);
  }
  vertex_triangles_.resize(vertices_.size());
  for (std::size_t t = 0; t < triangles_.size(); ++t) {
    for (int k = 0; k < 3; ++k) {
      const int v0 = triangles_[t][static_cast<std::size_t>(k)];
      const int v1 = triangles_[t][static_cast<std::size_t>((k + 1) % 3)];
      vertex_triangles_[static_cast<std::size_t>(v0)].push_back(static_cast<int>(t));
      edge_triangles_[{std::min(v0, v1), std::max(v0, v1)}].push_back(static_cast<int>(t));
    }
  }
  for (const auto& [edge, around] : edge_triangles_) {
    (void)edge;
    if (around.size() == 1) ++boundary_edges_;
    if (around.size() > 2) ++non_manifold_edges_;
  }

  // The grid: cells about the size of a triangle, at most kMaxCells of them.
  Vec3 lo = vertices_.front(), hi = lo;
  double mean_size = 0.0;
  for (std::size_t t = 0; t < triangles_.size(); ++t) {
    Vec3 tlo = corner(t, 0), thi = tlo;
    for (int k = 1; k < 3; ++k) {
      tlo = tlo.cwiseMin(corner(t, k));
      thi = thi.cwiseMax(corner(t, k));
    }
    lo = lo.cwiseMin(tlo);
    hi = hi.cwiseMax(thi);
    mean_size += (thi - tlo).maxCoeff();
  }
  mean_size /= static_cast<double>(triangles_.size());
  const Vec3 extent = hi - lo;
  cell_ = std::max(mean_size, extent.maxCoeff() / 64.0);
  auto count = [&](double cell) {
    double n = 1.0;
    for (int i = 0; i < 3; ++i) n *= std::max(1.0, std::ceil(extent[i] / cell));
    return n;
  };
  while (count(cell_) > kMaxCells) cell_ *= 1.5;
  for (int i = 0; i < 3; ++i)
    dims_[static_cast<std::size_t>(i)] =
        static_cast<int>(std::max(1.0, std::ceil(extent[i] / cell_)));
  grid_lo_ = lo;
  const std::size_t cells = static_cast<std::size_t>(dims_[0]) * dims_[1] * dims_[2];
  auto cellRange = [&](const Vec3& from, const Vec3& to, std::array<int, 3>& first,
                       std::array<int, 3>& last) {
    for (std::size_t i = 0; i < 3; ++i) {
      first[i] = std::clamp(
          static_cast<int>(
              std::floor((from[static_cast<int>(i)] - grid_lo_[static_cast<int>(i)]) / cell_)),
          0, dims_[i] - 1);
      last[i] = std::clamp(static_cast<int>(std::floor(
                               (to[static_cast<int>(i)] - grid_lo_[static_cast<int>(i)]) / cell_)),
                           0, dims_[i] - 1);
    }
  };
  auto forCells = [&](std::size_t t, auto&& visit) {
    Vec3 tlo = corner(t, 0), thi = tlo;
    for (int k = 1; k < 3; ++k) {
      tlo = tlo.cwiseMin(corner(t, k));
      thi = thi.cwiseMax(corner(t, k));
    }
    std::array<int, 3> first{}, last{};
    cellRange(tlo, thi, first, last);
    for (int k = first[2]; k <= last[2]; ++k)
      for (int j = first[1]; j <= last[1]; ++j)
        for (int i = first[0]; i <= last[0]; ++i)
          visit((static_cast<std::size_t>(k) * static_cast<std::size_t>(dims_[1]) +
                 static_cast<std::size_t>(j)) *
                    static_cast<std::size_t>(dims_[0]) +
                static_cast<std::size_t>(i));
  };
  cell_start_.assign(cells + 1, 0);
  for (std::size_t t = 0; t < triangles_.size(); ++t)
    forCells(t, [&](std::size_t cell) { ++cell_start_[cell + 1]; });
  for (std::size_t c = 0; c < cells; ++c) cell_start_[c + 1] += cell_start_[c];
  cell_triangles_.resize(static_cast<std::size_t>(cell_start_[cells]));
  std::vector<std::int32_t> fill(cell_start_.begin(), cell_start_.end() - 1);
  for (std::size_t t = 0; t < triangles_.size(); ++t)
    forCells(t, [&](std::size_t cell) {
      cell_triangles_[static_cast<std::size_t>(fill[cell]++)] = static_cast<std::int32_t>(t);
    });
}

void TriangleMesh::trianglesNear(const Vec3& p, double distance, std::vector<int>& out) const {
  out.clear();
  std::array<int, 3> first{}, last{};
  for (std::size_t i = 0; i < 3; ++i) {
    const int axis = static_cast<int>(i);
    const double from = std::floor((p[axis] - distance - grid_lo_[axis]) / cell_);
    const double to = std::floor((p[axis] + distance - grid_lo_[axis]) / cell_);
    if (to < 0.0 || from > dims_[i] - 1) return;  // the box misses the grid
    first[i] = static_cast<int>(std::max(from, 0.0));
    last[i] = static_cast<int>(std::min(to, static_cast<double>(dims_[i] - 1)));
  }
  for (int k = first[2]; k <= last[2]; ++k)
    for (int j = first[1]; j <= last[1]; ++j)
      for (int i = first[0]; i <= last[0]; ++i) {
        const std::size_t cell = (static_cast<std::size_t>(k) * static_cast<std::size_t>(dims_[1]) +
                                  static_cast<std::size_t>(j)) *
                                     static_cast<std::size_t>(dims_[0]) +
                                 static_cast<std::size_t>(i);
        out.insert(out.end(), cell_triangles_.begin() + cell_start_[cell],
                   cell_triangles_.begin() + cell_start_[cell + 1]);
      }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
}

ContactGeometry TriangleMesh::triangleSphere(std::size_t t, const Vec3& center,
                                             double radius) const {
  const Vec3 a = corner(t, 0), b = corner(t, 1), c = corner(t, 2);
  const ClosestOnTriangle q = closestPointOnTriangle(center, a, b, c);
  const Vec3 face_normal = (b - a).cross(c - a).normalized();
  return contactFrom(q.point, face_normal, q.feature == TriangleFeature::Face, center, radius);
}

bool TriangleMesh::isLocalMinimum(std::size_t t, const ClosestOnTriangle& q,
                                  const Vec3& normal) const {
  // The distance from the centre grows into a triangle at q when every
  // direction from q into it has no component along the normal (from q to
  // the centre): for an edge the in-plane direction across the edge, for a
  // vertex the two edges leaving it.
  if (q.feature == TriangleFeature::Face) return true;
  const auto& tri = triangles_[t];
  if (q.feature == TriangleFeature::Edge) {
    const int v0 = tri[static_cast<std::size_t>(q.index)];
    const int v1 = tri[static_cast<std::size_t>((q.index + 1) % 3)];
    const Vec3& p0 = vertices_[static_cast<std::size_t>(v0)];
    const Vec3 along = (vertices_[static_cast<std::size_t>(v1)] - p0).normalized();
    for (int s : edge_triangles_.at({std::min(v0, v1), std::max(v0, v1)})) {
      for (int k : triangles_[static_cast<std::size_t>(s)]) {
        if (k == v0 || k == v1) continue;
        const Vec3 to_third = vertices_[static_cast<std::size_t>(k)] - p0;
        const Vec3 across = (to_third - to_third.dot(along) * along).normalized();
        if (normal.dot(across) > kLocalMinimumTolerance) return false;
      }
    }
    return true;
  }
  const int v = tri[static_cast<std::size_t>(q.index)];
  const Vec3& p = vertices_[static_cast<std::size_t>(v)];
  for (int s : vertex_triangles_[static_cast<std::size_t>(v)]) {
    for (int k : triangles_[static_cast<std::size_t>(s)]) {
      if (k == v) continue;
      if (normal.dot((vertices_[static_cast<std::size_t>(k)] - p).normalized()) >
          kLocalMinimumTolerance)
        return false;
    }
  }
  return true;
}

std::vector<MeshContact> TriangleMesh::sphereContacts(const Vec3& center, double radius,
                                                      double search) const {
  std::vector<MeshContact> out;
  std::vector<int> near;
  trianglesNear(center, radius + search, near);
  for (int t : near) {
    const auto ti = static_cast<std::size_t>(t);
    const Vec3 a = corner(ti, 0), b = corner(ti, 1), c = corner(ti, 2);
    const ClosestOnTriangle q = closestPointOnTriangle(center, a, b, c);
    const Vec3 face_normal = (b - a).cross(c - a).normalized();
    const ContactGeometry g =
        contactFrom(q.point, face_normal, q.feature == TriangleFeature::Face, center, radius);
    if (g.gap > search) continue;
    if (!isLocalMinimum(ti, q, g.normal)) continue;
    // The same point reached from two triangles (a face contact on a shared
    // edge, an edge or vertex contact seen from each triangle at it): keep
    // the first.
    bool seen = false;
    for (const MeshContact& kept : out)
      seen = seen || ((kept.geometry.point_a - g.point_a).norm() <= kSameContact * radius &&
                      (kept.geometry.normal - g.normal).norm() <= kSameContact);
    if (!seen) out.push_back({t, g});
  }
  return out;
}

namespace {

Vec3 toMesh(const Wall& wall, const Vec3& x) {
  return wall.orientation.conjugate() * (x - wall.point);
}

ContactGeometry toWorld(const Wall& wall, const ContactGeometry& g) {
  ContactGeometry out;
  out.gap = g.gap;
  out.normal = wall.orientation * g.normal;
  out.point_a = wall.point + wall.orientation * g.point_a;
  out.point_b = wall.point + wall.orientation * g.point_b;
  return out;
}

const TriangleMesh& meshOf(const Wall& wall) {
  if (!wall.mesh) throw std::logic_error("wall '" + wall.name + "' is a mesh wall without a mesh");
  return *wall.mesh;
}

}  // namespace

Wall meshWall(const std::vector<std::array<Vec3, 3>>& triangles, std::string name) {
  Wall wall;
  wall.kind = WallKind::Mesh;
  wall.mesh = std::make_shared<TriangleMesh>(triangles, "mesh wall '" + name + "'");
  wall.name = std::move(name);
  return wall;
}

std::vector<MeshContact> meshSphereContacts(const Wall& wall, const Vec3& center, double radius,
                                            double search) {
  std::vector<MeshContact> contacts =
      meshOf(wall).sphereContacts(toMesh(wall, center), radius, search);
  for (MeshContact& c : contacts) c.geometry = toWorld(wall, c.geometry);
  return contacts;
}

ContactGeometry meshTriangleSphere(const Wall& wall, std::size_t t, const Vec3& center,
                                   double radius) {
  return toWorld(wall, meshOf(wall).triangleSphere(t, toMesh(wall, center), radius));
}

ContactGeometry meshSphereNearest(const Wall& wall, const Vec3& center, double radius) {
  const TriangleMesh& mesh = meshOf(wall);
  const Vec3 local = toMesh(wall, center);
  std::vector<int> near;
  mesh.trianglesNear(local, 4.0 * radius, near);
  ContactGeometry best;
  best.gap = 3.0 * radius;
  best.normal = Vec3::UnitZ();
  best.point_a = local - 4.0 * radius * best.normal;
  best.point_b = local - radius * best.normal;
  for (int t : near) {
    const ContactGeometry g = mesh.triangleSphere(static_cast<std::size_t>(t), local, radius);
    if (g.gap < best.gap) best = g;
  }
  return toWorld(wall, best);
}

}  // namespace grains
