#include "grains/io/contact_network_writer.hpp"

#include <vtkCellArray.h>
#include <vtkCellData.h>
#include <vtkDoubleArray.h>
#include <vtkIntArray.h>
#include <vtkPoints.h>
#include <vtkTypeInt64Array.h>

namespace grains {
namespace {

vtkSmartPointer<vtkDoubleArray> doubles(const char* name, int components) {
  auto array = vtkSmartPointer<vtkDoubleArray>::New();
  array->SetName(name);
  array->SetNumberOfComponents(components);
  return array;
}

}  // namespace

vtkSmartPointer<vtkPolyData> makeNetworkPolyData(const std::vector<NetworkLine>& lines) {
  auto points = vtkSmartPointer<vtkPoints>::New();
  points->SetDataTypeToDouble();
  auto cells = vtkSmartPointer<vtkCellArray>::New();
  auto normal_force = doubles("normal_force", 1);
  auto tangential_force = doubles("tangential_force", 1);
  auto force = doubles("force", 3);
  auto normal = doubles("normal", 3);
  auto gap = doubles("gap", 1);
  auto gid_a = vtkSmartPointer<vtkTypeInt64Array>::New();
  gid_a->SetName("gid_a");
  auto gid_b = vtkSmartPointer<vtkTypeInt64Array>::New();
  gid_b->SetName("gid_b");
  auto wall = vtkSmartPointer<vtkIntArray>::New();
  wall->SetName("wall");
  for (const NetworkLine& line : lines) {
    // A wall contact's line starts at the contact point: two points.
    const bool to_wall = line.wall >= 0;
    vtkIdType ids[3];
    vtkIdType count = 0;
    if (!to_wall) ids[count++] = points->InsertNextPoint(line.center_a.data());
    ids[count++] = points->InsertNextPoint(line.point.data());
    ids[count++] = points->InsertNextPoint(line.center_b.data());
    cells->InsertNextCell(count, ids);
    normal_force->InsertNextValue(line.normal_force);
    tangential_force->InsertNextValue(line.tangential_force);
    const Vec3 f = line.normal_force * line.normal;
    force->InsertNextTuple3(f.x(), f.y(), f.z());
    normal->InsertNextTuple3(line.normal.x(), line.normal.y(), line.normal.z());
    gap->InsertNextValue(line.gap);
    gid_a->InsertNextValue(line.gid_a);
    gid_b->InsertNextValue(line.gid_b);
    wall->InsertNextValue(line.wall);
  }
  auto poly = vtkSmartPointer<vtkPolyData>::New();
  poly->SetPoints(points);
  poly->SetLines(cells);
  vtkCellData* data = poly->GetCellData();
  for (vtkDataArray* array :
       {static_cast<vtkDataArray*>(normal_force), static_cast<vtkDataArray*>(tangential_force),
        static_cast<vtkDataArray*>(force), static_cast<vtkDataArray*>(normal),
        static_cast<vtkDataArray*>(gap), static_cast<vtkDataArray*>(gid_a),
        static_cast<vtkDataArray*>(gid_b), static_cast<vtkDataArray*>(wall)})
    data->AddArray(array);
  data->SetActiveScalars("normal_force");
  return poly;
}

}  // namespace grains
