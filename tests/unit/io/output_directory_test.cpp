#include "grains/io/output_directory.hpp"

#include "io_test_support.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <stdexcept>

namespace grains {
namespace {

namespace fs = std::filesystem;
using io_test::TempDir;

TEST(OutputDirectory, CreatesMissingDirectoryWithParents) {
  TempDir tmp;
  const std::string dir = tmp / "a/b/run";
  prepareOutputDirectory(dir, false, MPI_COMM_SELF);
  EXPECT_TRUE(fs::is_directory(dir));
  EXPECT_TRUE(fs::is_empty(dir));
}

TEST(OutputDirectory, AcceptsExistingEmptyDirectory) {
  TempDir tmp;
  EXPECT_NO_THROW(prepareOutputDirectory(tmp.path(), false, MPI_COMM_SELF));
  EXPECT_TRUE(fs::is_directory(tmp.path()));
}

TEST(OutputDirectory, RefusesNonEmptyDirectoryWithoutOverwrite) {
  TempDir tmp;
  const std::string dir = tmp / "run";
  fs::create_directories(dir + "/vtk");
  io_test::writeText(dir + "/metrics.csv", "step\n1\n");
  try {
    prepareOutputDirectory(dir, false, MPI_COMM_SELF);
    FAIL() << "expected std::runtime_error";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), "output directory '" + dir +
                                         "' already exists and is not empty; pass --overwrite "
                                         "to replace its contents");
  }
  // Nothing was touched.
  EXPECT_TRUE(fs::is_directory(dir + "/vtk"));
  EXPECT_EQ(io_test::readText(dir + "/metrics.csv"), "step\n1\n");
}

TEST(OutputDirectory, OverwriteRemovesOnlyGrainsOutputs) {
  TempDir tmp;
  const std::string dir = tmp.path();
  fs::create_directories(dir + "/vtk");
  io_test::writeText(dir + "/vtk/bodies_000000_r0.vtp", "x");
  io_test::writeText(dir + "/metrics.csv", "m");
  io_test::writeText(dir + "/bodies.pvd", "p");
  io_test::writeText(dir + "/bodies.pvd.tmp", "t");
  io_test::writeText(dir + "/walls.pvd", "w");
  // Foreign files and folders, including look-alikes, must survive.
  io_test::writeText(dir + "/notes.txt", "keep me");
  io_test::writeText(dir + "/metrics.csv.bak", "keep");
  io_test::writeText(dir + "/config.yaml", "keep");
  fs::create_directories(dir + "/analysis/vtk");
  io_test::writeText(dir + "/analysis/vtk/plot.pvd", "keep");

  prepareOutputDirectory(dir, true, MPI_COMM_SELF);

  EXPECT_FALSE(fs::exists(dir + "/vtk"));
  EXPECT_FALSE(fs::exists(dir + "/metrics.csv"));
  EXPECT_FALSE(fs::exists(dir + "/bodies.pvd"));
  EXPECT_FALSE(fs::exists(dir + "/bodies.pvd.tmp"));
  EXPECT_FALSE(fs::exists(dir + "/walls.pvd"));
  EXPECT_EQ(io_test::readText(dir + "/notes.txt"), "keep me");
  EXPECT_EQ(io_test::readText(dir + "/metrics.csv.bak"), "keep");
  EXPECT_EQ(io_test::readText(dir + "/config.yaml"), "keep");
  EXPECT_EQ(io_test::readText(dir + "/analysis/vtk/plot.pvd"), "keep");
}

TEST(OutputDirectory, OverwriteOfMissingDirectoryCreatesIt) {
  TempDir tmp;
  const std::string dir = tmp / "fresh";
  prepareOutputDirectory(dir, true, MPI_COMM_SELF);
  EXPECT_TRUE(fs::is_directory(dir));
}

TEST(OutputDirectory, RegularFileIsAnError) {
  TempDir tmp;
  const std::string file = tmp / "plain";
  io_test::writeText(file, "data");
  EXPECT_THROW(prepareOutputDirectory(file, true, MPI_COMM_SELF), std::runtime_error);
  EXPECT_EQ(io_test::readText(file), "data");
}

TEST(OutputDirectory, GrainsOutputNames) {
  EXPECT_TRUE(isGrainsOutputName("vtk"));
  EXPECT_TRUE(isGrainsOutputName("metrics.csv"));
  EXPECT_TRUE(isGrainsOutputName("bodies.pvd"));
  EXPECT_TRUE(isGrainsOutputName("bodies.pvd.tmp"));
  EXPECT_FALSE(isGrainsOutputName("vtk2"));
  EXPECT_FALSE(isGrainsOutputName("metrics.csv.bak"));
  EXPECT_FALSE(isGrainsOutputName("notes.pvd.txt"));
  EXPECT_FALSE(isGrainsOutputName("config.yaml"));
}

}  // namespace
}  // namespace grains
