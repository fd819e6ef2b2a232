#pragma once
// Helpers shared by the I/O tests: unique temporary directories (also under
// MPI), small body sets with distinct values in every field, file reading.
#include "grains/geometry/shape_traits.hpp"

#include <gtest/gtest.h>
#include <mpi.h>
#include <unistd.h>
#include <vtkCellArray.h>
#include <vtkDataArray.h>
#include <vtkIdList.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkSmartPointer.h>
#include <vtkType.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace grains::io_test {

/// A fresh directory under $TMPDIR (or /tmp), created by rank 0 of `comm`
/// with mkdtemp, known to every rank, removed with everything in it at scope exit.
class TempDir {
 public:
  explicit TempDir(MPI_Comm comm = MPI_COMM_SELF) : comm_(comm) {
    int rank = 0;
    MPI_Comm_rank(comm_, &rank);
    char name[4096] = {};
    if (rank == 0) {
      const char* base = std::getenv("TMPDIR");
      const std::string pattern =
          std::string(base && *base ? base : "/tmp") + "/grains_io_test_XXXXXX";
      pattern.copy(name, sizeof(name) - 1);
      if (mkdtemp(name) == nullptr) name[0] = '\0';
    }
    MPI_Bcast(name, sizeof(name), MPI_CHAR, 0, comm_);
    path_ = name;
    if (path_.empty()) throw std::runtime_error("mkdtemp failed");
  }
  ~TempDir() {
    MPI_Barrier(comm_);
    int rank = 0;
    MPI_Comm_rank(comm_, &rank);
    std::error_code ec;
    if (rank == 0) std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::string& path() const { return path_; }
  std::string operator/(const std::string& name) const { return path_ + "/" + name; }

 private:
  MPI_Comm comm_;
  std::string path_;
};

/// A body whose every written field is a distinct function of `gid`.
inline Body testBody(GlobalId gid) {
  const double g = static_cast<double>(gid);
  Body b = makeSphere(gid, 0.1 + 0.01 * g, 2.0 + g, Vec3(1.5 * g, -0.25 * g, 3.0 + g));
  b.velocity = Vec3(0.5 + g, -1.0 - g, 0.125 * g);
  b.angular_velocity = Vec3(-3.0 * g, 7.0, 0.01 * g);
  b.orientation = Quat(Eigen::AngleAxisd(0.3 + 0.1 * g, Vec3(1.0, 2.0, -0.5).normalized()));
  b.contact_force = Vec3(10.0 * g, -2.0, 0.5 + g);
  b.num_contacts = static_cast<int>(3 + gid % 7);
  b.generation = static_cast<int>(gid % 5);
  b.growth_rate = 0.25 + 0.5 * g;
  return b;
}

inline std::string readText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

inline void writeText(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

/// Point-data array `name` of `poly`: present, of `type`, with `components`.
inline vtkDataArray* requireArray(vtkPolyData* poly, const char* name, int type, int components) {
  vtkDataArray* array = poly->GetPointData()->GetArray(name);
  EXPECT_NE(array, nullptr) << "missing array " << name;
  if (array == nullptr) return nullptr;
  EXPECT_EQ(array->GetDataType(), type) << name;
  EXPECT_EQ(array->GetNumberOfComponents(), components) << name;
  EXPECT_EQ(array->GetNumberOfTuples(), poly->GetNumberOfPoints()) << name;
  return array;
}

inline void expectVec(vtkDataArray* array, vtkIdType i, const Vec3& v) {
  for (int c = 0; c < 3; ++c) EXPECT_DOUBLE_EQ(array->GetComponent(i, c), v[c]) << c;
}

/// `poly` holds exactly the bodies of `expected` (gid -> {body, owner rank}),
/// in any order, with every array holding the body's values, and one vertex
/// cell per point.
inline void expectBodies(vtkPolyData* poly,
                         const std::map<GlobalId, std::pair<Body, int>>& expected) {
  ASSERT_NE(poly, nullptr);
  const vtkIdType n = poly->GetNumberOfPoints();
  ASSERT_EQ(n, static_cast<vtkIdType>(expected.size()));
  EXPECT_EQ(poly->GetNumberOfVerts(), n);
  EXPECT_EQ(poly->GetNumberOfCells(), n);
  vtkDataArray* gid = requireArray(poly, "gid", VTK_TYPE_INT64, 1);
  vtkDataArray* rank = requireArray(poly, "rank", VTK_INT, 1);
  vtkDataArray* radius = requireArray(poly, "radius", VTK_DOUBLE, 1);
  vtkDataArray* velocity = requireArray(poly, "velocity", VTK_DOUBLE, 3);
  vtkDataArray* omega = requireArray(poly, "angular_velocity", VTK_DOUBLE, 3);
  vtkDataArray* orientation = requireArray(poly, "orientation", VTK_DOUBLE, 4);
  vtkDataArray* force = requireArray(poly, "contact_force", VTK_DOUBLE, 3);
  vtkDataArray* force_norm = requireArray(poly, "contact_force_magnitude", VTK_DOUBLE, 1);
  vtkDataArray* num_contacts = requireArray(poly, "num_contacts", VTK_INT, 1);
  vtkDataArray* length = requireArray(poly, "length", VTK_DOUBLE, 1);
  vtkDataArray* generation = requireArray(poly, "generation", VTK_INT, 1);
  vtkDataArray* growth_rate = requireArray(poly, "growth_rate", VTK_DOUBLE, 1);
  ASSERT_TRUE(gid && rank && radius && velocity && omega && orientation && force && force_norm &&
              num_contacts && length && generation && growth_rate);
  ASSERT_EQ(poly->GetPoints()->GetDataType(), VTK_DOUBLE);

  std::map<GlobalId, int> seen;
  for (vtkIdType i = 0; i < n; ++i) {
    const auto id = static_cast<GlobalId>(gid->GetComponent(i, 0));
    SCOPED_TRACE("gid " + std::to_string(id));
    ++seen[id];
    const auto it = expected.find(id);
    ASSERT_NE(it, expected.end());
    const Body& b = it->second.first;
    EXPECT_EQ(static_cast<int>(rank->GetComponent(i, 0)), it->second.second);
    double p[3];
    poly->GetPoint(i, p);
    for (int c = 0; c < 3; ++c) EXPECT_DOUBLE_EQ(p[c], b.position[c]);
    EXPECT_DOUBLE_EQ(radius->GetComponent(i, 0), b.radius);
    expectVec(velocity, i, b.velocity);
    expectVec(omega, i, b.angular_velocity);
    EXPECT_DOUBLE_EQ(orientation->GetComponent(i, 0), b.orientation.w());
    EXPECT_DOUBLE_EQ(orientation->GetComponent(i, 1), b.orientation.x());
    EXPECT_DOUBLE_EQ(orientation->GetComponent(i, 2), b.orientation.y());
    EXPECT_DOUBLE_EQ(orientation->GetComponent(i, 3), b.orientation.z());
    expectVec(force, i, b.contact_force);
    EXPECT_DOUBLE_EQ(force_norm->GetComponent(i, 0), b.contact_force.norm());
    EXPECT_EQ(static_cast<int>(num_contacts->GetComponent(i, 0)), b.num_contacts);
    EXPECT_DOUBLE_EQ(length->GetComponent(i, 0), 2.0 * b.radius);  // testBody is a sphere
    EXPECT_EQ(static_cast<int>(generation->GetComponent(i, 0)), b.generation);
    EXPECT_DOUBLE_EQ(growth_rate->GetComponent(i, 0), b.growth_rate);
  }
  for (const auto& [id, count] : seen) EXPECT_EQ(count, 1) << "gid " << id << " repeated";
  // Every vertex cell references a distinct point.
  auto ids = vtkSmartPointer<vtkIdList>::New();
  std::vector<int> used(static_cast<std::size_t>(n), 0);
  auto verts = poly->GetVerts();
  verts->InitTraversal();
  while (verts->GetNextCell(ids)) {
    ASSERT_EQ(ids->GetNumberOfIds(), 1);
    ASSERT_GE(ids->GetId(0), 0);
    ASSERT_LT(ids->GetId(0), n);
    ++used[static_cast<std::size_t>(ids->GetId(0))];
  }
  for (int u : used) EXPECT_EQ(u, 1);
}

}  // namespace grains::io_test
