// The VTK series, metrics file and output directory under 1, 2 and 3 ranks:
// every rank writes its own bodies (one rank owns none), rank 0 reads the
// step back through the .pvtp and must see the union of all GIDs.
#include "grains/io/metrics_writer.hpp"
#include "grains/io/output_directory.hpp"
#include "grains/io/vtk_series_writer.hpp"

#include "../unit/io/io_test_support.hpp"

#include <gtest/gtest.h>
#include <vtkNew.h>
#include <vtkXMLPPolyDataReader.h>
#include <vtkXMLPolyDataReader.h>

#include <filesystem>
#include <map>
#include <stdexcept>

namespace grains {
namespace {

namespace fs = std::filesystem;
using Expected = std::map<GlobalId, std::pair<Body, int>>;

int worldRank() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

int worldSize() {
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

/// Rank r owns r + 2 bodies with GIDs 100 r + k, except rank 1, which owns none.
std::vector<Body> bodiesOfRank(int rank) {
  std::vector<Body> out;
  if (rank == 1) return out;
  for (int k = 0; k < rank + 2; ++k) out.push_back(io_test::testBody(100 * rank + k));
  return out;
}

Expected allBodies(int size) {
  Expected out;
  for (int r = 0; r < size; ++r) {
    for (const Body& b : bodiesOfRank(r)) out[b.gid] = {b, r};
  }
  return out;
}

vtkSmartPointer<vtkPolyData> readStep(const std::string& path) {
  vtkNew<vtkXMLPPolyDataReader> reader;
  reader->SetFileName(path.c_str());
  reader->Update();
  EXPECT_EQ(reader->GetErrorCode(), 0u) << path;
  vtkSmartPointer<vtkPolyData> out = reader->GetOutput();
  return out;
}

TEST(IoVtkMpi, StepHoldsTheUnionOfAllRanksBodies) {
  io_test::TempDir tmp(MPI_COMM_WORLD);
  const std::string dir = tmp / "run";
  prepareOutputDirectory(dir, false, MPI_COMM_WORLD);
  VtkSeriesWriter writer(dir, MPI_COMM_WORLD);
  const int rank = worldRank();
  const int size = worldSize();
  writer.write(0, 0.0, bodiesOfRank(rank));
  writer.write(7, 0.35, bodiesOfRank(rank));
  ASSERT_EQ(writer.entries().size(), 2u);  // the same list on every rank
  EXPECT_EQ(writer.entries()[1].time, 0.35);

  MPI_Barrier(MPI_COMM_WORLD);
  if (rank != 0) return;
  for (int r = 0; r < size; ++r) {
    const std::string piece = dir + "/vtk/" + VtkSeriesWriter::pieceFileName(7, r);
    ASSERT_TRUE(fs::exists(piece)) << piece;
    vtkNew<vtkXMLPolyDataReader> reader;
    reader->SetFileName(piece.c_str());
    reader->Update();
    EXPECT_EQ(reader->GetErrorCode(), 0u);
    Expected mine;
    for (const Body& b : bodiesOfRank(r)) mine[b.gid] = {b, r};
    SCOPED_TRACE("piece of rank " + std::to_string(r));
    io_test::expectBodies(reader->GetOutput(), mine);  // the empty rank too
  }
  const Expected all = allBodies(size);
  io_test::expectBodies(readStep(dir + "/vtk/bodies_000007.pvtp"), all);

  const auto entries = VtkSeriesWriter::parseCollection(io_test::readText(dir + "/bodies.pvd"));
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0].time, 0.0);
  EXPECT_EQ(entries[1].time, 0.35);
  for (const auto& e : entries) EXPECT_TRUE(fs::exists(dir + "/" + e.file)) << e.file;
  // The .pvtp lists exactly one piece per rank.
  const std::string pvtp = io_test::readText(dir + "/vtk/bodies_000007.pvtp");
  std::size_t pieces = 0;
  for (std::size_t p = pvtp.find("<Piece "); p != std::string::npos;
       p = pvtp.find("<Piece ", p + 1)) {
    ++pieces;
  }
  EXPECT_EQ(pieces, static_cast<std::size_t>(size));
}

TEST(IoVtkMpi, AllRanksEmptyGivesAValidEmptyStep) {
  io_test::TempDir tmp(MPI_COMM_WORLD);
  VtkSeriesWriter writer(tmp.path(), MPI_COMM_WORLD);
  writer.write(3, 1.5, {});
  MPI_Barrier(MPI_COMM_WORLD);
  if (worldRank() == 0) io_test::expectBodies(readStep(tmp / "vtk/bodies_000003.pvtp"), {});
}

TEST(IoVtkMpi, EveryRankThrowsOnANonEmptyDirectory) {
  io_test::TempDir tmp(MPI_COMM_WORLD);
  if (worldRank() == 0) io_test::writeText(tmp / "foreign.txt", "keep");
  MPI_Barrier(MPI_COMM_WORLD);
  EXPECT_THROW(prepareOutputDirectory(tmp.path(), false, MPI_COMM_WORLD), std::runtime_error);
  EXPECT_NO_THROW(prepareOutputDirectory(tmp.path(), true, MPI_COMM_WORLD));
  MPI_Barrier(MPI_COMM_WORLD);
  EXPECT_EQ(io_test::readText(tmp / "foreign.txt"), "keep");
}

TEST(IoVtkMpi, MetricsAreWrittenOnceByRankZero) {
  io_test::TempDir tmp(MPI_COMM_WORLD);
  const std::string path = tmp / "metrics.csv";
  {
    MetricsWriter writer(path, MPI_COMM_WORLD);
    MetricsRow row;
    row.step = 4;
    row.time = 0.2;
    row.bodies = 12;
    row.solver = "apgd";
    row.extra = {{"ranks", static_cast<double>(worldSize())}};
    writer.writeRow(row);
    row.step = 5;
    writer.writeRow(row);
    MetricsRow bad = row;
    bad.extra.clear();
    EXPECT_THROW(writer.writeRow(bad), std::runtime_error);  // on every rank
  }
  MPI_Barrier(MPI_COMM_WORLD);
  const std::string text = io_test::readText(path);  // shared file system
  const std::string expected_header =
      "step,time,bodies,contacts,solver,iterations,residual,objective,converged,max_overlap,"
      "kinetic_energy,wall_s,ranks\n";
  const std::string ranks = std::to_string(worldSize());
  EXPECT_EQ(text, expected_header + "4,0.2,12,0,apgd,0,0,0,0,0,0,0," + ranks +
                      "\n5,0.2,12,0,apgd,0,0,0,0,0,0,0," + ranks + "\n");
}

}  // namespace
}  // namespace grains
