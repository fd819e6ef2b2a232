#include "grains/io/wall_geometry.hpp"

#include "grains/geometry/contact_geometry.hpp"
#include "grains/geometry/triangle_mesh.hpp"

#include <vtkCellArray.h>
#include <vtkCellData.h>
#include <vtkDoubleArray.h>
#include <vtkIdList.h>
#include <vtkIntArray.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkXMLPolyDataWriter.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace grains {
namespace {

std::array<Vec3, 8> corners(const Vec3& lo, const Vec3& hi) {
  std::array<Vec3, 8> out;
  for (int k = 0; k < 8; ++k)
    out[static_cast<std::size_t>(k)] =
        Vec3((k & 1) ? hi.x() : lo.x(), (k & 2) ? hi.y() : lo.y(), (k & 4) ? hi.z() : lo.z());
  return out;
}

/// Smallest and largest of (corner - origin) . direction over the box, grown by margin.
std::pair<double, double> extent(const std::array<Vec3, 8>& box, const Vec3& origin,
                                 const Vec3& direction, double margin) {
  double low = std::numeric_limits<double>::infinity(), high = -low;
  for (const Vec3& c : box) {
    const double s = (c - origin).dot(direction);
    low = std::min(low, s);
    high = std::max(high, s);
  }
  return {low - margin, high + margin};
}

}  // namespace

vtkSmartPointer<vtkPolyData> makeWallPolyData(const std::vector<Wall>& walls, const Vec3& lo,
                                              const Vec3& hi, int cylinder_segments) {
  const auto box = corners(lo, hi);
  // A single body (zero-size box) still gets walls of a visible size.
  const double margin = std::max(0.1 * (hi - lo).norm(), 1e-3);
  auto points = vtkSmartPointer<vtkPoints>::New();
  points->SetDataTypeToDouble();
  auto polys = vtkSmartPointer<vtkCellArray>::New();
  auto index = vtkSmartPointer<vtkIntArray>::New();
  index->SetName("wall");
  auto kind = vtkSmartPointer<vtkIntArray>::New();
  kind->SetName("kind");
  auto quad = [&](const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d, int wall) {
    const vtkIdType ids[4] = {points->InsertNextPoint(a.data()), points->InsertNextPoint(b.data()),
                              points->InsertNextPoint(c.data()), points->InsertNextPoint(d.data())};
    polys->InsertNextCell(4, ids);
    index->InsertNextValue(wall);
    kind->InsertNextValue(static_cast<int>(walls[static_cast<std::size_t>(wall)].kind));
  };
  for (std::size_t w = 0; w < walls.size(); ++w) {
    const Wall& wall = walls[w];
    const int id = static_cast<int>(w);
    if (wall.kind == WallKind::Mesh) {
      // The triangles where the wall is placed, each with its own corners.
      const TriangleMesh& mesh = *wall.mesh;
      for (std::size_t t = 0; t < mesh.numTriangles(); ++t) {
        vtkIdType ids[3];
        for (int k = 0; k < 3; ++k) {
          const Vec3 x = wall.point + wall.orientation * mesh.corner(t, k);
          ids[k] = points->InsertNextPoint(x.data());
        }
        polys->InsertNextCell(3, ids);
        index->InsertNextValue(id);
        kind->InsertNextValue(static_cast<int>(wall.kind));
      }
      continue;
    }
    const Vec3 u = anyPerpendicular(wall.normal);
    const Vec3 v = wall.normal.cross(u);
    if (wall.kind == WallKind::Plane) {
      const auto [u0, u1] = extent(box, wall.point, u, margin);
      const auto [v0, v1] = extent(box, wall.point, v, margin);
      quad(wall.point + u0 * u + v0 * v, wall.point + u1 * u + v0 * v, wall.point + u1 * u + v1 * v,
           wall.point + u0 * u + v1 * v, id);
      continue;
    }
    const double step = 2.0 * kPi / cylinder_segments;
    if (wall.kind == WallKind::Disc) {
      // A ring of quads; without an outer rim it reaches over the bodies' extent.
      double outer = wall.radius;
      if (std::isinf(outer)) {
        const auto [u0, u1] = extent(box, wall.point, u, margin);
        const auto [v0, v1] = extent(box, wall.point, v, margin);
        outer = std::max(
            {std::abs(u0), std::abs(u1), std::abs(v0), std::abs(v1), 2.0 * wall.inner_radius});
      }
      if (wall.hasRectangularHole()) {
        // Four quads around the hole, out to a square of half side `outer`.
        const Vec3 a = wall.hole_axis, b = wall.normal.cross(a);
        const double x = wall.hole_half_length, y = wall.hole_half_width;
        const double r = std::max(outer, 2.0 * std::hypot(x, y));
        const Vec3& c = wall.point;
        quad(c - r * a - r * b, c + r * a - r * b, c + r * a - y * b, c - r * a - y * b, id);
        quad(c - r * a + y * b, c + r * a + y * b, c + r * a + r * b, c - r * a + r * b, id);
        quad(c - r * a - y * b, c - x * a - y * b, c - x * a + y * b, c - r * a + y * b, id);
        quad(c + x * a - y * b, c + r * a - y * b, c + r * a + y * b, c + x * a + y * b, id);
        continue;
      }
      for (int s = 0; s < cylinder_segments; ++s) {
        const Vec3 e0 = std::cos(s * step) * u + std::sin(s * step) * v;
        const Vec3 e1 = std::cos((s + 1) * step) * u + std::sin((s + 1) * step) * v;
        quad(wall.point + wall.inner_radius * e0, wall.point + outer * e0, wall.point + outer * e1,
             wall.point + wall.inner_radius * e1, id);
      }
      continue;
    }
    if (wall.kind == WallKind::Cone) {
      for (int s = 0; s < cylinder_segments; ++s) {
        const Vec3 e0 = std::cos(s * step) * u + std::sin(s * step) * v;
        const Vec3 e1 = std::cos((s + 1) * step) * u + std::sin((s + 1) * step) * v;
        const Vec3 top = wall.point + wall.height * wall.normal;
        quad(wall.point + wall.radius * e0, wall.point + wall.radius * e1,
             top + wall.top_radius * e1, top + wall.top_radius * e0, id);
      }
      continue;
    }
    const auto [t0, t1] = extent(box, wall.point, wall.normal, margin);
    for (int s = 0; s < cylinder_segments; ++s) {
      const Vec3 r0 = wall.radius * (std::cos(s * step) * u + std::sin(s * step) * v);
      const Vec3 r1 = wall.radius * (std::cos((s + 1) * step) * u + std::sin((s + 1) * step) * v);
      const Vec3 bottom = wall.point + t0 * wall.normal, top = wall.point + t1 * wall.normal;
      quad(bottom + r0, bottom + r1, top + r1, top + r0, id);
    }
  }
  auto poly = vtkSmartPointer<vtkPolyData>::New();
  poly->SetPoints(points);
  poly->SetPolys(polys);
  poly->GetCellData()->AddArray(index);
  poly->GetCellData()->AddArray(kind);
  return poly;
}

vtkSmartPointer<vtkPolyData> makeMovedWallPolyData(const std::vector<Wall>& reference, double time,
                                                   const Vec3& lo, const Vec3& hi,
                                                   int cylinder_segments,
                                                   const std::vector<Wall>* placed_by_run) {
  auto poly = makeWallPolyData(reference, lo, hi, cylinder_segments);
  const std::vector<Wall> prescribed = wallsAt(reference, time);
  const std::vector<Wall>& placed =
      placed_by_run != nullptr && placed_by_run->size() == reference.size() ? *placed_by_run
                                                                            : prescribed;
  auto velocity = vtkSmartPointer<vtkDoubleArray>::New();
  velocity->SetName("velocity");
  velocity->SetNumberOfComponents(3);
  velocity->SetNumberOfTuples(poly->GetNumberOfPoints());
  auto* wall_of_cell = vtkIntArray::SafeDownCast(poly->GetCellData()->GetArray("wall"));
  vtkPoints* points = poly->GetPoints();
  // Every cell has points of its own (makeWallPolyData): quads, and a
  // mesh's triangles.
  auto cell_points = vtkSmartPointer<vtkIdList>::New();
  for (vtkIdType cell = 0; cell < poly->GetNumberOfCells(); ++cell) {
    const auto w = static_cast<std::size_t>(wall_of_cell->GetValue(cell));
    const WallPose pose = reference[w].motion.poseAt(time);
    poly->GetCellPoints(cell, cell_points);
    for (vtkIdType k = 0; k < cell_points->GetNumberOfIds(); ++k) {
      const vtkIdType p = cell_points->GetId(k);
      Vec3 x;
      points->GetPoint(p, x.data());
      if (reference[w].motion.moves())
        x = pose.pivot + pose.rotation * (x - reference[w].motion.pivot);
      x += placed[w].point - prescribed[w].point;  // a force-controlled wall's travel
      points->SetPoint(p, x.data());
      const Vec3 v = placed[w].velocity.at(x);
      velocity->SetTuple(p, v.data());
    }
  }
  poly->GetPointData()->AddArray(velocity);
  return poly;
}

void writeWallGeometry(const std::string& path, const std::vector<Wall>& walls, const Vec3& lo,
                       const Vec3& hi) {
  auto writer = vtkSmartPointer<vtkXMLPolyDataWriter>::New();
  writer->SetFileName(path.c_str());
  writer->SetInputData(makeWallPolyData(walls, lo, hi));
  writer->SetDataModeToAscii();  // small, and readable by eye
  if (writer->Write() != 1 || writer->GetErrorCode() != 0)
    throw std::runtime_error("VTK could not write '" + path + "'");
}

}  // namespace grains
