// Reading surface meshes: an ASCII and a binary STL of the same triangles
// read the same, so does VTK polydata (a quad split into two triangles);
// missing files, unknown kinds and files without triangles are errors that
// name the file.
#include "grains/io/mesh_reader.hpp"

#include "io_test_support.hpp"

#include <vtkXMLPolyDataWriter.h>

#include <cstdint>
#include <cstring>

namespace grains {
namespace {

using io_test::TempDir;
using Triangles = std::vector<std::array<Vec3, 3>>;

/// Corners exactly representable in single precision (STL stores floats).
const Triangles kTetrahedronSides = {{Vec3(0, 0, 0), Vec3(1.5, 0, 0), Vec3(0, 2.25, 0)},
                                     {Vec3(0, 0, 0), Vec3(0, 2.25, 0), Vec3(0, 0, -0.75)},
                                     {Vec3(0, 0, 0), Vec3(0, 0, -0.75), Vec3(1.5, 0, 0)}};

void writeAsciiStl(const std::string& path, const Triangles& triangles) {
  std::ofstream out(path);
  out << "solid test\n";
  for (const auto& t : triangles) {
    out << " facet normal 0 0 0\n  outer loop\n";
    for (const Vec3& x : t) out << "   vertex " << x.x() << " " << x.y() << " " << x.z() << "\n";
    out << "  endloop\n endfacet\n";
  }
  out << "endsolid test\n";
}

void writeBinaryStl(const std::string& path, const Triangles& triangles) {
  std::ofstream out(path, std::ios::binary);
  char header[80] = {};
  std::strncpy(header, "binary test mesh", sizeof header - 1);
  out.write(header, sizeof header);
  const auto count = static_cast<std::uint32_t>(triangles.size());
  out.write(reinterpret_cast<const char*>(&count), sizeof count);
  for (const auto& t : triangles) {
    float values[12] = {};
    for (int k = 0; k < 3; ++k)
      for (int i = 0; i < 3; ++i)
        values[3 + 3 * k + i] = static_cast<float>(t[static_cast<std::size_t>(k)][i]);
    out.write(reinterpret_cast<const char*>(values), sizeof values);
    const std::uint16_t attributes = 0;
    out.write(reinterpret_cast<const char*>(&attributes), sizeof attributes);
  }
}

void expectSameTriangles(const Triangles& read, const Triangles& expected) {
  ASSERT_EQ(read.size(), expected.size());
  for (std::size_t t = 0; t < read.size(); ++t)
    for (std::size_t k = 0; k < 3; ++k)
      EXPECT_EQ(read[t][k], expected[t][k]) << "triangle " << t << " corner " << k;
}

TEST(MeshReader, AsciiAndBinaryStlGiveTheSameTriangles) {
  TempDir dir;
  writeAsciiStl(dir / "sides.stl", kTetrahedronSides);
  writeBinaryStl(dir / "sides_binary.STL", kTetrahedronSides);
  const Triangles ascii = readMeshTriangles(dir / "sides.stl");
  const Triangles binary = readMeshTriangles(dir / "sides_binary.STL");
  expectSameTriangles(ascii, kTetrahedronSides);
  expectSameTriangles(binary, kTetrahedronSides);
}

TEST(MeshReader, PolydataQuadsAreSplitIntoTriangles) {
  TempDir dir;
  auto points = vtkSmartPointer<vtkPoints>::New();
  points->SetDataTypeToDouble();
  for (const Vec3& x : {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(1, 1, 0), Vec3(0, 1, 0)})
    points->InsertNextPoint(x.data());
  auto polys = vtkSmartPointer<vtkCellArray>::New();
  const vtkIdType quad[4] = {0, 1, 2, 3};
  polys->InsertNextCell(4, quad);
  auto poly = vtkSmartPointer<vtkPolyData>::New();
  poly->SetPoints(points);
  poly->SetPolys(polys);
  auto writer = vtkSmartPointer<vtkXMLPolyDataWriter>::New();
  writer->SetFileName((dir / "floor.vtp").c_str());
  writer->SetInputData(poly);
  ASSERT_EQ(writer->Write(), 1);
  expectSameTriangles(readMeshTriangles(dir / "floor.vtp"),
                      {{Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(1, 1, 0)},
                       {Vec3(0, 0, 0), Vec3(1, 1, 0), Vec3(0, 1, 0)}});
}

void expectErrorNaming(const std::string& path, const std::string& words) {
  try {
    readMeshTriangles(path);
    FAIL() << "no error for " << path;
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("'" + path + "'"), std::string::npos) << what;
    EXPECT_NE(what.find(words), std::string::npos) << what;
  }
}

TEST(MeshReader, ErrorsNameTheFile) {
  TempDir dir;
  expectErrorNaming(dir / "absent.stl", "no such file");
  { std::ofstream(dir / "hopper.obj") << "v 0 0 0\n"; }
  expectErrorNaming(dir / "hopper.obj", "unknown kind '.obj'");
  { std::ofstream(dir / "empty.stl") << "solid empty\nendsolid empty\n"; }
  expectErrorNaming(dir / "empty.stl", "no triangles");
}

}  // namespace
}  // namespace grains
