// Checkpoint files on one rank: a round trip keeps every byte, unusable files
// give errors naming the file, an interrupted write leaves the previous
// checkpoint the newest usable one, and only the last K are kept.
#include "grains/io/checkpoint.hpp"
#include "grains/io/padding.hpp"

#include "io_test_support.hpp"

#include <gtest/gtest.h>
#include <hdf5.h>
#include <algorithm>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

namespace grains {
namespace {

namespace fs = std::filesystem;
using io_test::TempDir;

CheckpointState sampleState(long step) {
  CheckpointState s;
  s.step = step;
  s.time = 0.001 * static_cast<double>(step);
  s.initial_bodies = 3;
  s.initial_max_radius = 0.25;
  s.config_yaml = "simulation: {dt: 0.001}\n";
  for (GlobalId gid = 0; gid < 3; ++gid) {
    Body b = makeSpherocylinder(gid, 0.1, 0.2 + 0.1 * static_cast<double>(gid), 1.0,
                                Vec3(0.5 * static_cast<double>(gid), 1.0, 2.0));
    b.velocity = Vec3(1.0, -2.0, static_cast<double>(step));
    b.growth_rate = 0.7;
    b.generation = static_cast<int>(gid);
    s.bodies.push_back(b);
  }
  s.warm_start.push_back(WarmStartRecord{ContactKey{0, 1, 0}, {1.5, -0.25, 0.125}});
  s.warm_start.push_back(WarmStartRecord{ContactKey{kNoBody, 2, 0}, {3.0, 0.0, 0.0}});
  s.layout.last_repartition_step = 40;
  s.layout.repartitions = 3;
  s.layout.spatial_order = true;
  return s;
}

std::string errorOf(const std::string& path) {
  try {
    readCheckpoint(path, MPI_COMM_SELF);
  } catch (const CheckpointError& e) {
    return e.what();
  }
  return "no error";
}

void copyPrefix(const std::string& from, const std::string& to, double fraction) {
  std::ifstream in(from, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::ofstream(to, std::ios::binary)
      .write(bytes.data(),
             static_cast<std::streamsize>(fraction * static_cast<double>(bytes.size())));
}

TEST(Checkpoint, RoundTripKeepsEveryByte) {
  TempDir tmp;
  const CheckpointState written = sampleState(7);
  writeCheckpoint(tmp / "c.h5", written, MPI_COMM_SELF);
  EXPECT_FALSE(fs::exists(tmp / "c.h5.tmp"));
  const CheckpointState read = readCheckpoint(tmp / "c.h5", MPI_COMM_SELF);
  EXPECT_EQ(read.step, 7);
  EXPECT_EQ(read.time, written.time);
  EXPECT_EQ(read.initial_bodies, 3);
  EXPECT_EQ(read.initial_max_radius, 0.25);
  EXPECT_EQ(read.config_yaml, written.config_yaml);
  EXPECT_EQ(read.ranks, 1);
  EXPECT_TRUE(read.same_layout);
  EXPECT_EQ(read.layout.last_repartition_step, 40);
  EXPECT_EQ(read.layout.repartitions, 3);
  EXPECT_TRUE(read.layout.spatial_order);
  EXPECT_TRUE(read.layout.boxes.empty());
  ASSERT_EQ(read.bodies.size(), 3u);
  // Every byte of every member; padding is written as zeros (determinism).
  EXPECT_EQ(bytesWithoutPadding(read.bodies), bytesWithoutPadding(written.bodies));
  const std::vector<bool> padding = paddingBytes<Body>();
  const auto raw = reinterpret_cast<const unsigned char*>(read.bodies.data());
  for (std::size_t i = 0; i < sizeof(Body); ++i) {
    if (padding[i]) {
      EXPECT_EQ(raw[i], 0) << "padding byte " << i;
    }
  }
  EXPECT_GE(std::count(padding.begin(), padding.end(), true), 12);  // 3 holes of 4 bytes
  ASSERT_EQ(read.warm_start.size(), 2u);
  EXPECT_EQ(read.warm_start[1].key, (ContactKey{kNoBody, 2, 0}));
  EXPECT_EQ(read.warm_start[0].impulse[2], 0.125);
}

TEST(Checkpoint, UnusableFilesGiveErrorsNamingTheFile) {
  TempDir tmp;
  EXPECT_NE(errorOf(tmp / "missing.h5").find("'" + (tmp / "missing.h5") + "' does not exist"),
            std::string::npos);
  io_test::writeText(tmp / "garbage.h5", "this is not HDF5\n");
  const std::string garbage = errorOf(tmp / "garbage.h5");
  EXPECT_NE(garbage.find(tmp / "garbage.h5"), std::string::npos) << garbage;
  EXPECT_NE(garbage.find("not a readable HDF5 file"), std::string::npos) << garbage;

  writeCheckpoint(tmp / "good.h5", sampleState(1), MPI_COMM_SELF);
  copyPrefix(tmp / "good.h5", tmp / "truncated.h5", 0.5);
  const std::string truncated = errorOf(tmp / "truncated.h5");
  EXPECT_NE(truncated.find(tmp / "truncated.h5"), std::string::npos) << truncated;

  // A file of another layout (here: another size of Body) is refused.
  const hid_t file = H5Fopen((tmp / "good.h5").c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  ASSERT_GE(file, 0);
  const hid_t attr = H5Aopen(file, "body_bytes", H5P_DEFAULT);
  const unsigned long long other = sizeof(Body) + 8;
  H5Awrite(attr, H5T_NATIVE_ULLONG, &other);
  H5Aclose(attr);
  H5Fclose(file);
  const std::string foreign = errorOf(tmp / "good.h5");
  EXPECT_NE(foreign.find("-byte bodies"), std::string::npos) << foreign;

  EXPECT_THROW(resolveCheckpoint(tmp.path()), CheckpointError);  // no checkpoint_*.h5
}

TEST(Checkpoint, InterruptedWriteLeavesThePreviousCheckpointUsable) {
  TempDir tmp;
  writeCheckpointKeeping(tmp.path(), sampleState(100), 2, MPI_COMM_SELF);
  writeCheckpointKeeping(tmp.path(), sampleState(200), 2, MPI_COMM_SELF);
  // A run killed while writing step 300: only the temporary name exists,
  // half written.
  const std::string newest = tmp / checkpointFileName(200);
  copyPrefix(newest, tmp / (checkpointFileName(300) + ".tmp"), 0.5);
  EXPECT_EQ(resolveCheckpoint(tmp.path()), newest);
  EXPECT_EQ(readCheckpoint(resolveCheckpoint(tmp.path()), MPI_COMM_SELF).step, 200);
  // The next checkpoint clears the leftover.
  writeCheckpointKeeping(tmp.path(), sampleState(400), 2, MPI_COMM_SELF);
  EXPECT_FALSE(fs::exists(tmp / (checkpointFileName(300) + ".tmp")));
}

TEST(Checkpoint, KeepsTheNewestK) {
  TempDir tmp;
  for (long step = 1; step <= 5; ++step)
    writeCheckpointKeeping(tmp.path(), sampleState(step * 10), 2, MPI_COMM_SELF);
  const std::vector<std::string> kept = listCheckpoints(tmp.path());
  ASSERT_EQ(kept.size(), 2u);
  EXPECT_EQ(kept[0], tmp / checkpointFileName(40));
  EXPECT_EQ(kept[1], tmp / checkpointFileName(50));
  EXPECT_EQ(checkpointFileName(50), "checkpoint_00000050.h5");
}

}  // namespace
}  // namespace grains
