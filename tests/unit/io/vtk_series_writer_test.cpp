#include "grains/io/vtk_series_writer.hpp"

#include "io_test_support.hpp"

#include <gtest/gtest.h>
#include <vtkNew.h>
#include <vtkObject.h>
#include <vtkXMLPPolyDataReader.h>
#include <vtkXMLPolyDataReader.h>

#include <filesystem>
#include <map>
#include <stdexcept>

namespace grains {
namespace {

namespace fs = std::filesystem;
using io_test::TempDir;
using Expected = std::map<GlobalId, std::pair<Body, int>>;

std::vector<Body> bodies(std::initializer_list<GlobalId> gids) {
  std::vector<Body> out;
  for (GlobalId g : gids) out.push_back(io_test::testBody(g));
  return out;
}

Expected expectedOf(const std::vector<Body>& list, int rank) {
  Expected out;
  for (const Body& b : list) out[b.gid] = {b, rank};
  return out;
}

/// Reads a .vtp with VTK's serial reader; fails the test on a reader error.
vtkSmartPointer<vtkPolyData> readPiece(const std::string& path) {
  vtkNew<vtkXMLPolyDataReader> reader;
  EXPECT_TRUE(reader->CanReadFile(path.c_str())) << path;
  reader->SetFileName(path.c_str());
  reader->Update();
  EXPECT_EQ(reader->GetErrorCode(), 0u) << path;
  vtkSmartPointer<vtkPolyData> out = reader->GetOutput();
  return out;
}

/// Reads a .pvtp (all pieces merged) with VTK's parallel-format reader.
vtkSmartPointer<vtkPolyData> readStep(const std::string& path) {
  vtkNew<vtkXMLPPolyDataReader> reader;
  EXPECT_TRUE(reader->CanReadFile(path.c_str())) << path;
  reader->SetFileName(path.c_str());
  reader->Update();
  EXPECT_EQ(reader->GetErrorCode(), 0u) << path;
  EXPECT_EQ(reader->GetNumberOfPieces(), 1);
  vtkSmartPointer<vtkPolyData> out = reader->GetOutput();
  return out;
}

TEST(VtkSeriesWriter, FileNames) {
  EXPECT_EQ(VtkSeriesWriter::stepFileName(10), "vtk/bodies_000010.pvtp");
  EXPECT_EQ(VtkSeriesWriter::stepFileName(1234567), "vtk/bodies_1234567.pvtp");
  EXPECT_EQ(VtkSeriesWriter::pieceFileName(42, 3), "bodies_000042_r3.vtp");
}

TEST(VtkSeriesWriter, PieceAndStepReadBackWithEveryArray) {
  TempDir tmp;
  VtkSeriesWriter writer(tmp.path(), MPI_COMM_SELF);
  EXPECT_TRUE(fs::is_directory(tmp / "vtk"));
  const auto list = bodies({7, 3, 1000000000000LL});  // a GID beyond 32 bits
  writer.write(25, 0.125, list);

  const std::string piece = tmp / "vtk/bodies_000025_r0.vtp";
  const std::string step = tmp / "vtk/bodies_000025.pvtp";
  ASSERT_TRUE(fs::exists(piece));
  ASSERT_TRUE(fs::exists(step));
  io_test::expectBodies(readPiece(piece), expectedOf(list, 0));
  io_test::expectBodies(readStep(step), expectedOf(list, 0));
  // The default encoding is raw appended binary, zlib compressed.
  const std::string text = io_test::readText(piece);
  EXPECT_NE(text.find("compressor=\"vtkZLibDataCompressor\""), std::string::npos);
  EXPECT_NE(text.find("<AppendedData encoding=\"raw\">"), std::string::npos);
  EXPECT_NE(text.find("header_type=\"UInt64\""), std::string::npos);
}

TEST(VtkSeriesWriter, OtherEncodingsReadBackTheSame) {
  for (VtkEncoding encoding : {VtkEncoding::Binary, VtkEncoding::Ascii}) {
    TempDir tmp;
    VtkSeriesWriter writer(tmp.path(), MPI_COMM_SELF, false, encoding);
    const auto list = bodies({1, 2});
    writer.write(0, 0.0, list);
    io_test::expectBodies(readStep(tmp / "vtk/bodies_000000.pvtp"), expectedOf(list, 0));
    const std::string text = io_test::readText(tmp / "vtk/bodies_000000_r0.vtp");
    EXPECT_EQ(text.find("vtkZLibDataCompressor"), std::string::npos);
    if (encoding == VtkEncoding::Ascii) {
      EXPECT_NE(text.find("format=\"ascii\""), std::string::npos);
    } else {
      EXPECT_NE(text.find("<AppendedData encoding=\"raw\">"), std::string::npos);
    }
  }
}

TEST(VtkSeriesWriter, EmptyPieceIsValid) {
  TempDir tmp;
  VtkSeriesWriter writer(tmp.path(), MPI_COMM_SELF);
  writer.write(0, 0.0, {});
  auto piece = readPiece(tmp / "vtk/bodies_000000_r0.vtp");
  io_test::expectBodies(piece, {});
  auto step = readStep(tmp / "vtk/bodies_000000.pvtp");
  io_test::expectBodies(step, {});
}

TEST(VtkSeriesWriter, SeriesHasPhysicalTimesAndExistingFiles) {
  TempDir tmp;
  VtkSeriesWriter writer(tmp.path(), MPI_COMM_SELF);
  const std::vector<std::pair<long, double>> steps = {{0, 0.0}, {10, 1e-3}, {20, 2.0 / 3.0}};
  for (const auto& [step, time] : steps) {
    auto list = bodies({1, 2});
    list[0].velocity.x() = time;  // the data changes from step to step
    writer.write(step, time, list);

    // After every output the series on disk is complete and valid.
    const auto entries = VtkSeriesWriter::parseCollection(io_test::readText(writer.seriesPath()));
    ASSERT_EQ(entries.size(), writer.entries().size());
    const auto& last = entries.back();
    EXPECT_EQ(last.step, step);
    EXPECT_EQ(last.time, time);  // exact: round-trip precision
    EXPECT_EQ(last.file, VtkSeriesWriter::stepFileName(step));
    EXPECT_FALSE(fs::exists(writer.seriesPath() + ".tmp"));
  }
  const auto entries = VtkSeriesWriter::parseCollection(io_test::readText(tmp / "bodies.pvd"));
  ASSERT_EQ(entries.size(), steps.size());
  for (std::size_t i = 0; i < steps.size(); ++i) {
    EXPECT_EQ(entries[i].step, steps[i].first);
    EXPECT_EQ(entries[i].time, steps[i].second);
    const std::string file = tmp / entries[i].file;
    ASSERT_TRUE(fs::exists(file)) << file;
    auto poly = readStep(file);
    ASSERT_EQ(poly->GetNumberOfPoints(), 2);
    const vtkIdType first = poly->GetPointData()->GetArray("gid")->GetComponent(0, 0) == 1 ? 0 : 1;
    EXPECT_EQ(poly->GetPointData()->GetArray("velocity")->GetComponent(first, 0), steps[i].second);
  }
  const std::string pvd = io_test::readText(tmp / "bodies.pvd");
  EXPECT_NE(pvd.find("<VTKFile type=\"Collection\""), std::string::npos);
  EXPECT_NE(pvd.find("timestep=\"0.001\""), std::string::npos);
}

TEST(VtkSeriesWriter, AppendExistingKeepsEarlierStepsAndDropsLaterOnes) {
  TempDir tmp;
  {
    VtkSeriesWriter first(tmp.path(), MPI_COMM_SELF);
    first.write(0, 0.0, bodies({1}));
    first.write(10, 0.5, bodies({1}));
    first.write(20, 1.0, bodies({1}));
  }
  // A restart from the checkpoint of step 10 rewrites step 10 onwards.
  VtkSeriesWriter restarted(tmp.path(), MPI_COMM_SELF, /*append_existing=*/true);
  ASSERT_EQ(restarted.entries().size(), 3u);
  EXPECT_EQ(restarted.entries()[2].step, 20);
  EXPECT_EQ(restarted.entries()[2].time, 1.0);
  restarted.write(10, 0.5, bodies({1, 2}));
  const auto entries = VtkSeriesWriter::parseCollection(io_test::readText(tmp / "bodies.pvd"));
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0].step, 0);
  EXPECT_EQ(entries[1].step, 10);
  EXPECT_EQ(entries[1].time, 0.5);
  EXPECT_EQ(readStep(tmp / "vtk/bodies_000010.pvtp")->GetNumberOfPoints(), 2);
  restarted.write(15, 0.75, bodies({1, 2}));
  EXPECT_EQ(restarted.entries().size(), 3u);
  EXPECT_EQ(restarted.entries().back().time, 0.75);
}

// A restart into a directory without a series (a new --output) starts one at
// the restart step; an existing but unreadable series is still an error.
TEST(VtkSeriesWriter, AppendIntoADirectoryWithoutASeriesStartsOne) {
  TempDir tmp;
  VtkSeriesWriter restarted(tmp / "fresh", MPI_COMM_SELF, /*append_existing=*/true);
  EXPECT_TRUE(restarted.entries().empty());
  restarted.write(100, 0.5, bodies({1, 2}));
  const auto entries =
      VtkSeriesWriter::parseCollection(io_test::readText(tmp / "fresh/bodies.pvd"));
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0].step, 100);
  EXPECT_EQ(entries[0].time, 0.5);

  fs::create_directories(tmp / "broken");
  io_test::writeText(tmp / "broken/bodies.pvd", "");
  EXPECT_THROW(VtkSeriesWriter(tmp / "broken", MPI_COMM_SELF, true), std::runtime_error);
}

TEST(VtkSeriesWriter, WithoutAppendTheSeriesStartsOver) {
  TempDir tmp;
  {
    VtkSeriesWriter first(tmp.path(), MPI_COMM_SELF);
    first.write(0, 0.0, bodies({1}));
    first.write(10, 0.5, bodies({1}));
  }
  VtkSeriesWriter second(tmp.path(), MPI_COMM_SELF);
  EXPECT_TRUE(second.entries().empty());
  second.write(30, 3.0, bodies({1}));
  const auto entries = VtkSeriesWriter::parseCollection(io_test::readText(tmp / "bodies.pvd"));
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0].step, 30);
}

TEST(VtkSeriesWriter, ParseCollectionRejectsGarbage) {
  EXPECT_THROW(VtkSeriesWriter::parseCollection("not xml"), std::runtime_error);
  EXPECT_THROW(
      VtkSeriesWriter::parseCollection("<VTKFile><Collection><DataSet timestep=\"x\" file=\"a\"/>"),
      std::runtime_error);
  EXPECT_THROW(VtkSeriesWriter::parseCollection("<VTKFile><Collection><DataSet timestep=\"1\"/>"),
               std::runtime_error);
  const auto entries = VtkSeriesWriter::parseCollection(
      "<VTKFile type=\"Collection\"><Collection>\n"
      "<DataSet timestep=\"2.5\" group=\"\" part=\"0\" file=\"other/thing.vtu\"/>\n"
      "</Collection></VTKFile>");
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0].step, -1);
  EXPECT_EQ(entries[0].time, 2.5);
  EXPECT_EQ(entries[0].file, "other/thing.vtu");
}

TEST(VtkSeriesWriter, WriteFailureThrows) {
  TempDir tmp;
  VtkSeriesWriter writer(tmp.path(), MPI_COMM_SELF);
  fs::remove_all(tmp / "vtk");  // the pieces can no longer be created
  const int display = vtkObject::GetGlobalWarningDisplay();
  vtkObject::GlobalWarningDisplayOff();  // VTK's own error message is expected here
  EXPECT_THROW(writer.write(0, 0.0, bodies({1})), std::runtime_error);
  vtkObject::SetGlobalWarningDisplay(display);
  EXPECT_THROW(writer.write(-1, 0.0, bodies({1})), std::invalid_argument);
  EXPECT_TRUE(writer.entries().empty());
}

}  // namespace
}  // namespace grains
