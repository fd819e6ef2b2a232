#include "grains/io/checkpoint.hpp"

#include "grains/io/padding.hpp"

#include "collective.hpp"

#include <hdf5.h>
#include <cstring>
#include <new>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <system_error>
#include <utility>

namespace grains {
namespace {

namespace fs = std::filesystem;
using io_detail::commRank;
using io_detail::commSize;

// Bumped whenever the layout of the file or of Body / WarmStartRecord changes.
constexpr int kFormatVersion = 2;
constexpr char kPrefix[] = "checkpoint_";
constexpr char kSuffix[] = ".h5";

/// Owns an HDF5 identifier.
class Handle {
 public:
  Handle(hid_t id, herr_t (*closer)(hid_t), const std::string& what) : id_(id), closer_(closer) {
    if (id_ < 0) throw std::runtime_error(what);
  }
  ~Handle() {
    if (id_ >= 0) closer_(id_);
  }
  Handle(Handle&& o) noexcept : id_(std::exchange(o.id_, -1)), closer_(o.closer_) {}
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  Handle& operator=(Handle&&) = delete;
  operator hid_t() const { return id_; }
  /// Close now, reporting failure (a file's close flushes it).
  void close(const std::string& what) {
    const herr_t status = closer_(id_);
    id_ = -1;
    if (status < 0) throw std::runtime_error(what);
  }

 private:
  hid_t id_;
  herr_t (*closer_)(hid_t);
};

void check(herr_t status, const std::string& what) {
  if (status < 0) throw std::runtime_error(what);
}

template <typename T>
void putAttribute(hid_t file, const char* name, hid_t type, const T& value) {
  Handle space(H5Screate(H5S_SCALAR), H5Sclose, "cannot create a dataspace");
  Handle attr(H5Acreate2(file, name, type, space, H5P_DEFAULT, H5P_DEFAULT), H5Aclose,
              std::string("cannot create attribute ") + name);
  check(H5Awrite(attr, type, &value), std::string("cannot write attribute ") + name);
}

template <typename T>
T getAttribute(hid_t file, const char* name, hid_t type) {
  if (H5Aexists(file, name) <= 0)
    throw std::runtime_error(std::string("attribute '") + name + "' is missing");
  Handle attr(H5Aopen(file, name, H5P_DEFAULT), H5Aclose,
              std::string("cannot open attribute ") + name);
  T value{};
  check(H5Aread(attr, type, &value), std::string("cannot read attribute ") + name);
  return value;
}

Handle collectiveTransfer() {
  Handle dxpl(H5Pcreate(H5P_DATASET_XFER), H5Pclose, "cannot create a transfer property list");
  check(H5Pset_dxpl_mpio(dxpl, H5FD_MPIO_COLLECTIVE), "cannot request collective MPI-IO");
  return dxpl;
}

/// Selects this rank's rows [first, first + rows) of the file space and the
/// whole memory space, or nothing in both when it has no rows.
void selectRows(hid_t file_space, hid_t memory_space, hsize_t first, const hsize_t (&mine)[2]) {
  if (mine[0] > 0) {
    const hsize_t start[2] = {first, 0};
    check(H5Sselect_hyperslab(file_space, H5S_SELECT_SET, start, nullptr, mine, nullptr),
          "cannot select a hyperslab");
  } else {
    check(H5Sselect_none(file_space), "cannot select nothing");
    check(H5Sselect_none(memory_space), "cannot select nothing");
  }
}

/// Collective: a 2-d dataset of rows of `row_len` elements; each rank writes
/// its `rows` rows after those of the lower ranks.
void writeRows(hid_t file, const char* name, hid_t type, const void* data, unsigned long long rows,
               hsize_t row_len, MPI_Comm comm) {
  unsigned long long offset = 0, total = 0;
  MPI_Exscan(&rows, &offset, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, comm);
  if (commRank(comm) == 0) offset = 0;  // MPI_Exscan leaves rank 0's result undefined
  MPI_Allreduce(&rows, &total, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, comm);
  const hsize_t dims[2] = {total, row_len};
  Handle file_space(H5Screate_simple(2, dims, nullptr), H5Sclose, "cannot create a dataspace");
  // No modification times in the object headers: the same state gives the
  // same bytes (determinism, docs/reliability.md).
  Handle dcpl(H5Pcreate(H5P_DATASET_CREATE), H5Pclose, "cannot create a dataset property list");
  check(H5Pset_obj_track_times(dcpl, false), "cannot switch off time tracking");
  Handle dataset(H5Dcreate2(file, name, type, file_space, H5P_DEFAULT, dcpl, H5P_DEFAULT), H5Dclose,
                 std::string("cannot create dataset ") + name);
  if (total == 0) return;  // HDF5 refuses transfers to an empty dataset (same on every rank)
  const hsize_t mine[2] = {rows, row_len};
  Handle memory_space(H5Screate_simple(2, mine, nullptr), H5Sclose, "cannot create a dataspace");
  selectRows(file_space, memory_space, offset, mine);
  const char dummy = 0;  // HDF5 wants a buffer even for an empty selection
  Handle dxpl = collectiveTransfer();
  check(H5Dwrite(dataset, type, memory_space, file_space, dxpl, rows > 0 ? data : &dummy),
        std::string("cannot write dataset ") + name);
}

/// Rows of a dataset written by writeRows.
unsigned long long rowCount(hid_t file, const char* name, hsize_t row_len) {
  if (H5Lexists(file, name, H5P_DEFAULT) <= 0)
    throw std::runtime_error(std::string("dataset '") + name + "' is missing");
  Handle dataset(H5Dopen2(file, name, H5P_DEFAULT), H5Dclose,
                 std::string("cannot open dataset ") + name);
  Handle space(H5Dget_space(dataset), H5Sclose, "cannot get a dataspace");
  hsize_t dims[2] = {0, 0};
  if (H5Sget_simple_extent_ndims(space) != 2 ||
      H5Sget_simple_extent_dims(space, dims, nullptr) < 0 || dims[1] != row_len)
    throw std::runtime_error(std::string("dataset '") + name + "' has rows of " +
                             std::to_string(dims[1]) + " elements, this build expects " +
                             std::to_string(row_len) +
                             " (written by an incompatible version of grains)");
  return dims[0];
}

/// Collective: rows [first, first + rows) of a dataset written by writeRows.
template <typename T>
std::vector<T> readRows(hid_t file, const char* name, hid_t type, hsize_t row_len,
                        unsigned long long first, unsigned long long rows) {
  const unsigned long long total = rowCount(file, name, row_len);
  if (first + rows > total)
    throw std::runtime_error(std::string("dataset '") + name + "' is shorter than its counts");
  std::vector<T> out(rows * row_len);
  if (total == 0) return out;  // as in writeRows
  Handle dataset(H5Dopen2(file, name, H5P_DEFAULT), H5Dclose,
                 std::string("cannot open dataset ") + name);
  Handle file_space(H5Dget_space(dataset), H5Sclose, "cannot get a dataspace");
  const hsize_t mine[2] = {rows, row_len};
  Handle memory_space(H5Screate_simple(2, mine, nullptr), H5Sclose, "cannot create a dataspace");
  selectRows(file_space, memory_space, first, mine);
  char dummy = 0;
  Handle dxpl = collectiveTransfer();
  check(H5Dread(dataset, type, memory_space, file_space, dxpl,
                rows > 0 ? static_cast<void*>(out.data()) : &dummy),
        std::string("cannot read dataset ") + name);
  return out;
}

void writeFile(const std::string& path, const CheckpointState& s, MPI_Comm comm) {
  const bool root = commRank(comm) == 0;
  Handle fapl(H5Pcreate(H5P_FILE_ACCESS), H5Pclose, "cannot create a file access list");
  check(H5Pset_fapl_mpio(fapl, comm, MPI_INFO_NULL), "cannot select MPI-IO");
  Handle file(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl), H5Fclose,
              "cannot create the file");
  // Attributes are written collectively: every rank passes the same values.
  putAttribute(file, "grains_checkpoint_version", H5T_NATIVE_INT, kFormatVersion);
  putAttribute(file, "body_bytes", H5T_NATIVE_ULLONG,
               static_cast<unsigned long long>(sizeof(Body)));
  putAttribute(file, "warm_start_bytes", H5T_NATIVE_ULLONG,
               static_cast<unsigned long long>(sizeof(WarmStartRecord)));
  putAttribute(file, "step", H5T_NATIVE_LONG, s.step);
  putAttribute(file, "time", H5T_NATIVE_DOUBLE, s.time);
  putAttribute(file, "initial_bodies", H5T_NATIVE_LONG, s.initial_bodies);
  putAttribute(file, "initial_max_radius", H5T_NATIVE_DOUBLE, s.initial_max_radius);
  putAttribute(file, "ranks", H5T_NATIVE_INT, commSize(comm));
  putAttribute(file, "last_repartition_step", H5T_NATIVE_LONG, s.layout.last_repartition_step);
  putAttribute(file, "repartitions", H5T_NATIVE_LONG, s.layout.repartitions);
  const int spatial_order = s.layout.spatial_order ? 1 : 0;
  putAttribute(file, "spatial_order", H5T_NATIVE_INT, spatial_order);

  // Bodies and impulses are trivially copyable: stored as raw rows of bytes
  // (the version and row sizes above guard against a different layout).
  const std::vector<unsigned char> bodies = bytesWithoutPadding(s.bodies);
  writeRows(file, "bodies", H5T_NATIVE_UCHAR, bodies.data(), s.bodies.size(), sizeof(Body), comm);
  const long long body_count = static_cast<long long>(s.bodies.size());
  writeRows(file, "body_counts", H5T_NATIVE_LLONG, &body_count, 1, 1, comm);
  writeRows(file, "warm_start", H5T_NATIVE_UCHAR, s.warm_start.data(), s.warm_start.size(),
            sizeof(WarmStartRecord), comm);
  const long long record_count = static_cast<long long>(s.warm_start.size());
  writeRows(file, "warm_start_counts", H5T_NATIVE_LLONG, &record_count, 1, 1, comm);
  std::vector<double> boxes;
  if (root)
    for (const RankBox& b : s.layout.boxes)
      boxes.insert(boxes.end(), {b.lo.x(), b.lo.y(), b.lo.z(), b.hi.x(), b.hi.y(), b.hi.z()});
  writeRows(file, "boxes", H5T_NATIVE_DOUBLE, boxes.data(), boxes.size() / 6, 6, comm);
  writeRows(file, "config", H5T_NATIVE_CHAR, s.config_yaml.data(), root ? s.config_yaml.size() : 0,
            1, comm);
  file.close("cannot close (flush) the file");
}

CheckpointState readFile(const std::string& path, MPI_Comm comm) {
  const int rank = commRank(comm), size = commSize(comm);
  Handle fapl(H5Pcreate(H5P_FILE_ACCESS), H5Pclose, "cannot create a file access list");
  check(H5Pset_fapl_mpio(fapl, comm, MPI_INFO_NULL), "cannot select MPI-IO");
  Handle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, fapl), H5Fclose,
              "not a readable HDF5 file (truncated or corrupt?)");
  if (H5Aexists(file, "grains_checkpoint_version") <= 0)
    throw std::runtime_error("not a grains checkpoint (no grains_checkpoint_version attribute)");
  const int version = getAttribute<int>(file, "grains_checkpoint_version", H5T_NATIVE_INT);
  const auto body_bytes = getAttribute<unsigned long long>(file, "body_bytes", H5T_NATIVE_ULLONG);
  const auto record_bytes =
      getAttribute<unsigned long long>(file, "warm_start_bytes", H5T_NATIVE_ULLONG);
  if (version != kFormatVersion || body_bytes != sizeof(Body) ||
      record_bytes != sizeof(WarmStartRecord))
    throw std::runtime_error(
        "written in format " + std::to_string(version) + " with " + std::to_string(body_bytes) +
        "-byte bodies, this build reads format " + std::to_string(kFormatVersion) + " with " +
        std::to_string(sizeof(Body)) + "-byte bodies (restart with the grains that wrote it)");

  CheckpointState s;
  s.step = getAttribute<long>(file, "step", H5T_NATIVE_LONG);
  s.time = getAttribute<double>(file, "time", H5T_NATIVE_DOUBLE);
  s.initial_bodies = getAttribute<long>(file, "initial_bodies", H5T_NATIVE_LONG);
  s.initial_max_radius = getAttribute<double>(file, "initial_max_radius", H5T_NATIVE_DOUBLE);
  s.ranks = getAttribute<int>(file, "ranks", H5T_NATIVE_INT);
  const std::vector<char> config =
      readRows<char>(file, "config", H5T_NATIVE_CHAR, 1, 0, rowCount(file, "config", 1));
  s.config_yaml.assign(config.begin(), config.end());

  const auto ranks = static_cast<unsigned long long>(s.ranks);
  const auto body_counts = readRows<long long>(file, "body_counts", H5T_NATIVE_LLONG, 1, 0, ranks);
  const auto record_counts =
      readRows<long long>(file, "warm_start_counts", H5T_NATIVE_LLONG, 1, 0, ranks);
  s.same_layout = s.ranks == size;
  unsigned long long body_first = 0, body_rows = 0, record_first = 0, record_rows = 0;
  if (s.same_layout) {
    for (int k = 0; k < rank; ++k) {
      body_first += static_cast<unsigned long long>(body_counts[static_cast<std::size_t>(k)]);
      record_first += static_cast<unsigned long long>(record_counts[static_cast<std::size_t>(k)]);
    }
    body_rows = static_cast<unsigned long long>(body_counts[static_cast<std::size_t>(rank)]);
    record_rows = static_cast<unsigned long long>(record_counts[static_cast<std::size_t>(rank)]);
    s.layout.last_repartition_step =
        getAttribute<long>(file, "last_repartition_step", H5T_NATIVE_LONG);
    s.layout.repartitions = getAttribute<long>(file, "repartitions", H5T_NATIVE_LONG);
    // Checkpoints written before parallel.body_order kept bodies by GID.
    s.layout.spatial_order = H5Aexists(file, "spatial_order") > 0 &&
                             getAttribute<int>(file, "spatial_order", H5T_NATIVE_INT) != 0;
    const auto boxes =
        readRows<double>(file, "boxes", H5T_NATIVE_DOUBLE, 6, 0, rowCount(file, "boxes", 6));
    for (std::size_t k = 0; k + 5 < boxes.size(); k += 6) {
      RankBox b;
      b.lo = Vec3(boxes[k], boxes[k + 1], boxes[k + 2]);
      b.hi = Vec3(boxes[k + 3], boxes[k + 4], boxes[k + 5]);
      s.layout.boxes.push_back(b);
    }
  } else {
    // Contiguous blocks of bodies; the caller partitions them afresh and
    // keeps the impulses of the contacts its bodies own.
    const unsigned long long total = rowCount(file, "bodies", sizeof(Body));
    const auto n = static_cast<unsigned long long>(size);
    const auto r = static_cast<unsigned long long>(rank);
    body_first = r * (total / n) + std::min(r, total % n);
    body_rows = total / n + (r < total % n ? 1 : 0);
    record_rows = rowCount(file, "warm_start", sizeof(WarmStartRecord));
  }
  const auto body_bytes_read = readRows<unsigned char>(file, "bodies", H5T_NATIVE_UCHAR,
                                                       sizeof(Body), body_first, body_rows);
  s.bodies.resize(body_rows);
  std::copy(body_bytes_read.begin(), body_bytes_read.end(),
            reinterpret_cast<unsigned char*>(s.bodies.data()));
  const auto record_bytes_read = readRows<unsigned char>(
      file, "warm_start", H5T_NATIVE_UCHAR, sizeof(WarmStartRecord), record_first, record_rows);
  s.warm_start.resize(record_rows);
  std::copy(record_bytes_read.begin(), record_bytes_read.end(),
            reinterpret_cast<unsigned char*>(s.warm_start.data()));
  file.close("cannot close the file");
  return s;
}

/// Step of a checkpoint file name, or -1 for any other name.
long stepOf(const std::string& name) {
  const std::string prefix = kPrefix, suffix = kSuffix;
  if (name.size() <= prefix.size() + suffix.size() || name.rfind(prefix, 0) != 0 ||
      name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0)
    return -1;
  const std::string digits =
      name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
  if (!std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return -1;
  return std::stol(digits);
}

/// Rank 0's part of writeCheckpointKeeping: delete old checkpoints and
/// leftovers of interrupted writes.
void prune(const std::string& dir, long keep) {
  const std::vector<std::string> complete = listCheckpoints(dir);
  const std::size_t k = static_cast<std::size_t>(std::max(1L, keep));
  for (std::size_t i = 0; i + k < complete.size(); ++i) fs::remove(complete[i]);
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    const std::string tmp = ".tmp";
    if (name.size() > tmp.size() && name.compare(name.size() - tmp.size(), tmp.size(), tmp) == 0 &&
        stepOf(name.substr(0, name.size() - tmp.size())) >= 0)
      fs::remove(entry.path());
  }
}

}  // namespace

void writeCheckpoint(const std::string& path, const CheckpointState& local, MPI_Comm comm) {
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);  // failures become exceptions below
  const std::string tmp = path + ".tmp";
  std::string error;
  try {
    writeFile(tmp, local, comm);
  } catch (const std::exception& e) {
    error = "checkpoint '" + tmp + "': " + e.what();
  }
  // Only a file every rank has finished and closed replaces the name.
  MPI_Barrier(comm);
  if (error.empty() && commRank(comm) == 0) {
    std::error_code ec;
    fs::rename(tmp, path, ec);
    if (ec) error = "cannot rename '" + tmp + "' to '" + path + "': " + ec.message();
  }
  try {
    io_detail::throwIfAnyFailed(error, comm);
  } catch (const std::runtime_error& e) {
    throw CheckpointError(e.what());
  }
}

CheckpointState readCheckpoint(const std::string& path, MPI_Comm comm) {
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  std::string error;
  if (commRank(comm) == 0 && !fs::is_regular_file(path))
    error = "checkpoint '" + path + "' does not exist or is not a file";
  CheckpointState state;
  try {
    io_detail::throwIfAnyFailed(error, comm);
    try {
      state = readFile(path, comm);
    } catch (const std::exception& e) {
      error = "checkpoint '" + path + "': " + e.what();
    }
    io_detail::throwIfAnyFailed(error, comm);
  } catch (const std::runtime_error& e) {
    throw CheckpointError(e.what());
  }
  return state;
}

std::string checkpointFileName(long step) {
  char name[64];
  std::snprintf(name, sizeof name, "%s%08ld%s", kPrefix, step, kSuffix);
  return name;
}

std::vector<std::string> listCheckpoints(const std::string& dir) {
  std::vector<std::pair<long, std::string>> found;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const long step = stepOf(entry.path().filename().string());
    if (step >= 0 && entry.is_regular_file()) found.emplace_back(step, entry.path().string());
  }
  std::sort(found.begin(), found.end());
  std::vector<std::string> out;
  for (auto& f : found) out.push_back(std::move(f.second));
  return out;
}

std::string writeCheckpointKeeping(const std::string& dir, const CheckpointState& local, long keep,
                                   MPI_Comm comm) {
  const std::string path = (fs::path(dir) / checkpointFileName(local.step)).string();
  writeCheckpoint(path, local, comm);
  std::string error;
  if (commRank(comm) == 0) {
    try {
      prune(dir, keep);
    } catch (const std::exception& e) {
      error = std::string("cannot delete old checkpoints in '") + dir + "': " + e.what();
    }
  }
  try {
    io_detail::throwIfAnyFailed(error, comm);
  } catch (const std::runtime_error& e) {
    throw CheckpointError(e.what());
  }
  return path;
}

std::string resolveCheckpoint(const std::string& path) {
  std::error_code ec;
  if (!fs::is_directory(path, ec)) return path;
  const std::vector<std::string> found = listCheckpoints(path);
  if (found.empty())
    throw CheckpointError("no complete checkpoint (" + std::string(kPrefix) + "*" + kSuffix +
                          ") in directory '" + path + "'");
  return found.back();
}

}  // namespace grains
