#include "grains/io/mesh_reader.hpp"

#include <vtkCellArray.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataReader.h>
#include <vtkSTLReader.h>
#include <vtkSmartPointer.h>
#include <vtkXMLPolyDataReader.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace grains {

namespace {

std::string lowerExtension(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
  return ext;
}

template <class Reader>
vtkSmartPointer<vtkPolyData> readWith(const std::string& path) {
  auto reader = vtkSmartPointer<Reader>::New();
  reader->SetFileName(path.c_str());
  reader->Update();
  if (reader->GetErrorCode() != 0 || reader->GetOutput() == nullptr)
    throw std::runtime_error("mesh file '" + path + "': VTK could not read it");
  vtkSmartPointer<vtkPolyData> out = reader->GetOutput();
  return out;
}

}  // namespace

std::vector<std::array<Vec3, 3>> readMeshTriangles(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    throw std::runtime_error("mesh file '" + path + "': no such file");
  if (!std::ifstream(path, std::ios::binary))
    throw std::runtime_error("mesh file '" + path + "': cannot open it for reading");
  const std::string ext = lowerExtension(path);
  vtkSmartPointer<vtkPolyData> poly;
  if (ext == ".stl") {
    poly = readWith<vtkSTLReader>(path);
  } else if (ext == ".vtp") {
    poly = readWith<vtkXMLPolyDataReader>(path);
  } else if (ext == ".vtk") {
    poly = readWith<vtkPolyDataReader>(path);
  } else {
    throw std::runtime_error("mesh file '" + path + "': unknown kind '" + ext +
                             "'; expected .stl (ASCII or binary), .vtp or .vtk polydata");
  }
  std::vector<std::array<Vec3, 3>> triangles;
  vtkPoints* points = poly->GetPoints();
  auto at = [&](vtkIdType id) {
    Vec3 x;
    points->GetPoint(id, x.data());
    return x;
  };
  vtkIdType n = 0;
  const vtkIdType* ids = nullptr;
  if (points != nullptr && poly->GetPolys() != nullptr) {
    vtkCellArray* polys = poly->GetPolys();
    for (polys->InitTraversal(); polys->GetNextCell(n, ids);)
      for (vtkIdType k = 1; k + 1 < n; ++k)  // a fan over the polygon
        triangles.push_back({at(ids[0]), at(ids[k]), at(ids[k + 1])});
  }
  if (points != nullptr && poly->GetStrips() != nullptr) {
    vtkCellArray* strips = poly->GetStrips();
    for (strips->InitTraversal(); strips->GetNextCell(n, ids);)
      for (vtkIdType k = 0; k + 2 < n; ++k)
        triangles.push_back({at(ids[k]), at(ids[k + 1]), at(ids[k + 2])});
  }
  if (triangles.empty())
    throw std::runtime_error("mesh file '" + path + "': no triangles (polygons or strips)");
  return triangles;
}

}  // namespace grains
