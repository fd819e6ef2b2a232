// The per-shape point-data arrays of the body output (docs/output.md):
// orientation, axis, semi_axes, major_radius, external_force, the
// shape_tensor R diag(s) R^T used by ParaView's Tensor Glyph filter, and the
// growth arrays length, generation and growth_rate.
#include "grains/io/vtk_series_writer.hpp"

#include "io_test_support.hpp"

#include <gtest/gtest.h>
#include <vtkNew.h>
#include <vtkXMLPolyDataReader.h>

#include <map>

namespace grains {
namespace {

using io_test::TempDir;

vtkSmartPointer<vtkPolyData> writeAndRead(const std::vector<Body>& bodies) {
  TempDir tmp;
  VtkSeriesWriter writer(tmp.path(), MPI_COMM_SELF);
  writer.write(3, 0.5, bodies);
  vtkNew<vtkXMLPolyDataReader> reader;
  reader->SetFileName((tmp / "vtk/bodies_000003_r0.vtp").c_str());
  reader->Update();
  EXPECT_EQ(reader->GetErrorCode(), 0u);
  vtkSmartPointer<vtkPolyData> out = reader->GetOutput();
  return out;
}

/// Row of the body with `gid` in `poly`.
vtkIdType rowOf(vtkPolyData* poly, GlobalId gid) {
  vtkDataArray* ids = poly->GetPointData()->GetArray("gid");
  for (vtkIdType i = 0; i < poly->GetNumberOfPoints(); ++i) {
    if (static_cast<GlobalId>(ids->GetComponent(i, 0)) == gid) return i;
  }
  ADD_FAILURE() << "gid " << gid << " not written";
  return 0;
}

Mat3 tensorAt(vtkDataArray* array, vtkIdType i) {
  Mat3 t;
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) t(r, c) = array->GetComponent(i, 3 * r + c);
  }
  return t;
}

TEST(VtkShapeArrays, RotatedEllipsoidCapsuleTorusAndSphere) {
  // Ellipsoid (1, 2, 3) turned a quarter about z: body x -> world y, body y -> world -x.
  const Quat quarter_z(Eigen::AngleAxisd(0.5 * kPi, Vec3::UnitZ()));
  Body ellipsoid = makeEllipsoid(4, Vec3(1.0, 2.0, 3.0), 5.0, Vec3(1.0, 2.0, 3.0), quarter_z);
  ellipsoid.external_force = Vec3(0.5, -1.5, 2.5);
  // Capsule along world x, ring with axis along world y, plain sphere.
  Body capsule = makeSpherocylinder(7, 0.1, 0.4, 1.0, Vec3(5.0, 0.0, 0.0), Vec3::UnitX());
  capsule.growth_rate = 0.75;
  capsule.generation = 3;
  const Body ring = makeTorus(9, 1.0, 0.1, 1.0, Vec3(0.0, 5.0, 0.0),
                              Quat::FromTwoVectors(Vec3::UnitZ(), Vec3::UnitY()));
  const Body sphere = makeSphere(2, 0.25, 1.0, Vec3(0.0, 0.0, 5.0));
  const vtkSmartPointer<vtkPolyData> poly = writeAndRead({ellipsoid, capsule, ring, sphere});
  ASSERT_EQ(poly->GetNumberOfPoints(), 4);

  vtkDataArray* orientation = io_test::requireArray(poly, "orientation", VTK_DOUBLE, 4);
  vtkDataArray* axis = io_test::requireArray(poly, "axis", VTK_DOUBLE, 3);
  vtkDataArray* semi_axes = io_test::requireArray(poly, "semi_axes", VTK_DOUBLE, 3);
  vtkDataArray* major_radius = io_test::requireArray(poly, "major_radius", VTK_DOUBLE, 1);
  vtkDataArray* external_force = io_test::requireArray(poly, "external_force", VTK_DOUBLE, 3);
  vtkDataArray* tensor = io_test::requireArray(poly, "shape_tensor", VTK_DOUBLE, 9);
  vtkDataArray* shape = io_test::requireArray(poly, "shape", VTK_INT, 1);
  vtkDataArray* length = io_test::requireArray(poly, "length", VTK_DOUBLE, 1);
  vtkDataArray* generation = io_test::requireArray(poly, "generation", VTK_INT, 1);
  vtkDataArray* growth_rate = io_test::requireArray(poly, "growth_rate", VTK_DOUBLE, 1);
  ASSERT_TRUE(orientation && axis && semi_axes && major_radius && external_force && tensor &&
              shape && length && generation && growth_rate);

  const vtkIdType e = rowOf(poly, 4);
  EXPECT_EQ(static_cast<int>(shape->GetComponent(e, 0)), 3);
  EXPECT_NEAR(orientation->GetComponent(e, 0), std::sqrt(0.5), 1e-15);
  EXPECT_NEAR(orientation->GetComponent(e, 3), std::sqrt(0.5), 1e-15);
  for (int c = 0; c < 3; ++c) EXPECT_NEAR(axis->GetComponent(e, c), c == 2 ? 1.0 : 0.0, 1e-15);
  io_test::expectVec(semi_axes, e, Vec3(1.0, 2.0, 3.0));
  EXPECT_EQ(major_radius->GetComponent(e, 0), 0.0);
  io_test::expectVec(external_force, e, Vec3(0.5, -1.5, 2.5));
  // R diag(1, 2, 3) R^T with body x along world y: world x has extent 2, y 1, z 3.
  EXPECT_TRUE(tensorAt(tensor, e).isApprox(Vec3(2.0, 1.0, 3.0).asDiagonal().toDenseMatrix(), 1e-14))
      << tensorAt(tensor, e);
  EXPECT_DOUBLE_EQ(length->GetComponent(e, 0), 6.0);  // the longest diameter

  const vtkIdType c = rowOf(poly, 7);
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(axis->GetComponent(c, k), k == 0 ? 1.0 : 0.0, 1e-15);
  io_test::expectVec(semi_axes, c, Vec3::Zero());
  // Capsule: r across, h + r = 0.5 along its axis (world x).
  EXPECT_TRUE(tensorAt(tensor, c).isApprox(Vec3(0.5, 0.1, 0.1).asDiagonal().toDenseMatrix(), 1e-14))
      << tensorAt(tensor, c);
  // Tip to tip 2 (h + r) = 1; the growth state as set.
  EXPECT_DOUBLE_EQ(length->GetComponent(c, 0), 1.0);
  EXPECT_EQ(static_cast<int>(generation->GetComponent(c, 0)), 3);
  EXPECT_DOUBLE_EQ(growth_rate->GetComponent(c, 0), 0.75);

  const vtkIdType t = rowOf(poly, 9);
  EXPECT_EQ(static_cast<int>(shape->GetComponent(t, 0)), 4);
  EXPECT_DOUBLE_EQ(major_radius->GetComponent(t, 0), 1.0);
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(axis->GetComponent(t, k), k == 1 ? 1.0 : 0.0, 1e-15);
  // Ring: R + r = 1.1 in its plane (world x-z), r = 0.1 along its axis (world y).
  EXPECT_TRUE(tensorAt(tensor, t).isApprox(Vec3(1.1, 0.1, 1.1).asDiagonal().toDenseMatrix(), 1e-14))
      << tensorAt(tensor, t);
  EXPECT_DOUBLE_EQ(length->GetComponent(t, 0), 2.2);  // outer diameter 2 (R + r)

  const vtkIdType s = rowOf(poly, 2);
  EXPECT_TRUE(tensorAt(tensor, s).isApprox(0.25 * Mat3::Identity(), 1e-15));
  io_test::expectVec(external_force, s, Vec3::Zero());
  EXPECT_DOUBLE_EQ(length->GetComponent(s, 0), 0.5);
  EXPECT_EQ(static_cast<int>(generation->GetComponent(s, 0)), 0);
  EXPECT_DOUBLE_EQ(growth_rate->GetComponent(s, 0), 0.0);
}

TEST(VtkShapeArrays, ShapeTensorOfATiltedEllipsoidIsSymmetricWithTheSemiAxesAsEigenvalues) {
  const Quat tilt(Eigen::AngleAxisd(0.7, Vec3(1.0, -2.0, 0.5).normalized()));
  const Body e = makeEllipsoid(0, Vec3(0.3, 0.5, 1.2), 1.0, Vec3::Zero(), tilt);
  const vtkSmartPointer<vtkPolyData> poly = writeAndRead({e});
  vtkDataArray* tensor = io_test::requireArray(poly, "shape_tensor", VTK_DOUBLE, 9);
  vtkDataArray* axis = io_test::requireArray(poly, "axis", VTK_DOUBLE, 3);
  ASSERT_TRUE(tensor && axis);
  const Mat3 t = tensorAt(tensor, 0);
  EXPECT_TRUE(t.isApprox(t.transpose(), 1e-15));
  const Mat3 rot = tilt.toRotationMatrix();
  // Each body axis is an eigenvector with its semi-axis as eigenvalue.
  for (int k = 0; k < 3; ++k) {
    EXPECT_TRUE((t * rot.col(k)).isApprox(e.semi_axes[k] * rot.col(k), 1e-14)) << k;
  }
  io_test::expectVec(axis, 0, rot.col(2));
}

}  // namespace
}  // namespace grains
