// Checkpoint files on one rank: a round trip keeps every byte, the file
// describes itself (one dataset per member, with units), files of the older
// raw-bytes format are still read, unusable files give errors naming the
// file, an interrupted write leaves the previous checkpoint the newest usable
// one, and only the last K are kept.
#include "grains/io/checkpoint.hpp"

#include "io_test_support.hpp"
#include "padding.hpp"

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
    // Every member away from its default, so a member the file forgets shows.
    b.orientation = Quat(0.5, -0.5, 0.5, 0.5);
    b.angular_velocity = Vec3(0.1, 0.2, -0.3);
    b.external_force = Vec3(-1.0, 0.0, 4.0);
    b.contact_force = Vec3(2.0, 3.0, 5.0);
    b.contact_torque = Vec3(-7.0, 11.0, 13.0);
    b.num_contacts = 4 + static_cast<int>(gid);
    b.semi_axes = Vec3(0.3, 0.2, 0.1);
    b.major_radius = 0.05;
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
  // Every byte of every member (a member missing from the field table of
  // io/checkpoint_fields.cpp would come back with its default).
  EXPECT_EQ(bytesWithoutPadding(read.bodies), bytesWithoutPadding(written.bodies));
  ASSERT_EQ(read.warm_start.size(), 2u);
  EXPECT_EQ(read.warm_start[1].key, (ContactKey{kNoBody, 2, 0}));
  EXPECT_EQ(read.warm_start[0].impulse[2], 0.125);
}

// Reads a dataset of the file as doubles, by name, as an outside tool would.
std::vector<double> readNamed(hid_t file, const char* name, std::string* units) {
  const hid_t dataset = H5Dopen2(file, name, H5P_DEFAULT);
  EXPECT_GE(dataset, 0) << name;
  const hid_t space = H5Dget_space(dataset);
  std::vector<double> values(static_cast<std::size_t>(H5Sget_simple_extent_npoints(space)));
  H5Dread(dataset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data());
  const hid_t attr = H5Aopen(dataset, "units", H5P_DEFAULT);
  const hid_t type = H5Aget_type(attr);
  units->assign(H5Tget_size(type), '\0');
  H5Aread(attr, type, units->data());
  H5Tclose(type);
  H5Aclose(attr);
  H5Sclose(space);
  H5Dclose(dataset);
  return values;
}

TEST(Checkpoint, FileNamesEveryFieldWithItsUnits) {
  TempDir tmp;
  const CheckpointState written = sampleState(3);
  writeCheckpoint(tmp / "c.h5", written, MPI_COMM_SELF);
  const hid_t file = H5Fopen((tmp / "c.h5").c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  ASSERT_GE(file, 0);
  std::string units;
  const std::vector<double> position = readNamed(file, "bodies/position", &units);
  EXPECT_EQ(units, "m");
  ASSERT_EQ(position.size(), 9u);
  EXPECT_EQ(position[3], written.bodies[1].position.x());
  EXPECT_EQ(position[5], written.bodies[1].position.z());
  const std::vector<double> orientation = readNamed(file, "bodies/orientation", &units);
  EXPECT_EQ(orientation[0], 0.5);  // w first
  EXPECT_EQ(orientation[1], -0.5);
  const std::vector<double> mass = readNamed(file, "bodies/mass", &units);
  EXPECT_EQ(units, "kg");
  EXPECT_EQ(mass[2], written.bodies[2].mass);
  EXPECT_EQ(readNamed(file, "bodies/gid", &units), (std::vector<double>{0.0, 1.0, 2.0}));
  const std::vector<double> impulse = readNamed(file, "warm_start/impulse", &units);
  EXPECT_EQ(units.rfind("N s", 0), 0u) << units;
  EXPECT_EQ(impulse[2], 0.125);
  H5Fclose(file);
}

// A checkpoint as format 2 wrote it: Body and WarmStartRecord as raw bytes.
void writeRawBytesCheckpoint(const std::string& path, const CheckpointState& s) {
  const hid_t file = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  const auto attribute = [&](const char* name, hid_t type, const void* value) {
    const hid_t space = H5Screate(H5S_SCALAR);
    const hid_t attr = H5Acreate2(file, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
    H5Awrite(attr, type, value);
    H5Aclose(attr);
    H5Sclose(space);
  };
  const auto rows = [&](const char* name, hid_t type, const void* data, hsize_t n, hsize_t len) {
    const hsize_t dims[2] = {n, len};
    const hid_t space = H5Screate_simple(2, dims, nullptr);
    const hid_t dataset =
        H5Dcreate2(file, name, type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    H5Dwrite(dataset, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data);
    H5Dclose(dataset);
    H5Sclose(space);
  };
  const int version = 2, ranks = 1, spatial = 0;
  const unsigned long long body_bytes = sizeof(Body), record_bytes = sizeof(WarmStartRecord);
  attribute("grains_checkpoint_version", H5T_NATIVE_INT, &version);
  attribute("body_bytes", H5T_NATIVE_ULLONG, &body_bytes);
  attribute("warm_start_bytes", H5T_NATIVE_ULLONG, &record_bytes);
  attribute("step", H5T_NATIVE_LONG, &s.step);
  attribute("time", H5T_NATIVE_DOUBLE, &s.time);
  attribute("initial_bodies", H5T_NATIVE_LONG, &s.initial_bodies);
  attribute("initial_max_radius", H5T_NATIVE_DOUBLE, &s.initial_max_radius);
  attribute("ranks", H5T_NATIVE_INT, &ranks);
  attribute("last_repartition_step", H5T_NATIVE_LONG, &s.layout.last_repartition_step);
  attribute("repartitions", H5T_NATIVE_LONG, &s.layout.repartitions);
  attribute("spatial_order", H5T_NATIVE_INT, &spatial);
  rows("bodies", H5T_NATIVE_UCHAR, s.bodies.data(), s.bodies.size(), sizeof(Body));
  const long long body_count = static_cast<long long>(s.bodies.size());
  const long long record_count = static_cast<long long>(s.warm_start.size());
  rows("body_counts", H5T_NATIVE_LLONG, &body_count, 1, 1);
  rows("warm_start", H5T_NATIVE_UCHAR, s.warm_start.data(), s.warm_start.size(),
       sizeof(WarmStartRecord));
  rows("warm_start_counts", H5T_NATIVE_LLONG, &record_count, 1, 1);
  rows("boxes", H5T_NATIVE_DOUBLE, nullptr, 0, 6);
  rows("config", H5T_NATIVE_CHAR, s.config_yaml.data(), s.config_yaml.size(), 1);
  H5Fclose(file);
}

TEST(Checkpoint, ReadsTheRawBytesFormatOfEarlierVersions) {
  TempDir tmp;
  const CheckpointState written = sampleState(5);
  writeRawBytesCheckpoint(tmp / "old.h5", written);
  const CheckpointState read = readCheckpoint(tmp / "old.h5", MPI_COMM_SELF);
  EXPECT_EQ(read.step, 5);
  EXPECT_EQ(read.config_yaml, written.config_yaml);
  EXPECT_EQ(bytesWithoutPadding(read.bodies), bytesWithoutPadding(written.bodies));
  ASSERT_EQ(read.warm_start.size(), 2u);
  EXPECT_EQ(read.warm_start[1].key, (ContactKey{kNoBody, 2, 0}));
  EXPECT_EQ(read.warm_start[0].impulse[1], -0.25);
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

  // A file of an unknown format version is refused, naming both versions.
  const hid_t file = H5Fopen((tmp / "good.h5").c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  ASSERT_GE(file, 0);
  const hid_t attr = H5Aopen(file, "grains_checkpoint_version", H5P_DEFAULT);
  const int future = 99;
  H5Awrite(attr, H5T_NATIVE_INT, &future);
  H5Aclose(attr);
  H5Fclose(file);
  const std::string foreign = errorOf(tmp / "good.h5");
  EXPECT_NE(foreign.find("written in checkpoint format 99, this build reads formats 2 and 3"),
            std::string::npos)
      << foreign;

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
