#include "grains/io/checkpoint.hpp"

#include "checkpoint_fields.hpp"
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

// Bumped whenever the layout of the file changes. Format 3: one dataset per
// member with its units; format 2 (still read): Body and WarmStartRecord as
// raw struct bytes, usable only by a build with the same struct layout.
constexpr int kFormatVersion = 3;
constexpr int kRawBytesFormatVersion = 2;
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

void putStringAttribute(hid_t object, const char* name, const std::string& value) {
  Handle type(H5Tcopy(H5T_C_S1), H5Tclose, "cannot copy the string type");
  check(H5Tset_size(type, std::max<std::size_t>(1, value.size())), "cannot size a string type");
  check(H5Tset_strpad(type, H5T_STR_NULLPAD), "cannot set string padding");
  Handle space(H5Screate(H5S_SCALAR), H5Sclose, "cannot create a dataspace");
  Handle attr(H5Acreate2(object, name, type, space, H5P_DEFAULT, H5P_DEFAULT), H5Aclose,
              std::string("cannot create attribute ") + name);
  check(H5Awrite(attr, type, value.data()), std::string("cannot write attribute ") + name);
}

/// Collective: a group without modification times (determinism).
void createGroup(hid_t file, const char* name) {
  Handle gcpl(H5Pcreate(H5P_GROUP_CREATE), H5Pclose, "cannot create a group property list");
  check(H5Pset_obj_track_times(gcpl, false), "cannot switch off time tracking");
  Handle group(H5Gcreate2(file, name, H5P_DEFAULT, gcpl, H5P_DEFAULT), H5Gclose,
               std::string("cannot create group ") + name);
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

/// Datasets of one column are one-dimensional, the others two-dimensional.
int rankOf(hsize_t row_len) { return row_len == 1 ? 1 : 2; }

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

/// What a dataset holds, written as its attributes "units" and "columns".
struct Description {
  std::string units;
  std::string columns;
};

/// Collective: a dataset of rows of `row_len` elements (1-d for one element);
/// each rank writes its `rows` rows after those of the lower ranks.
void writeRows(hid_t file, const std::string& name, hid_t type, const void* data,
               unsigned long long rows, hsize_t row_len, MPI_Comm comm,
               const Description& description = {}) {
  unsigned long long offset = 0, total = 0;
  MPI_Exscan(&rows, &offset, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, comm);
  if (commRank(comm) == 0) offset = 0;  // MPI_Exscan leaves rank 0's result undefined
  MPI_Allreduce(&rows, &total, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, comm);
  const hsize_t dims[2] = {total, row_len};
  Handle file_space(H5Screate_simple(rankOf(row_len), dims, nullptr), H5Sclose,
                    "cannot create a dataspace");
  // No modification times in the object headers: the same state gives the
  // same bytes (determinism, docs/reliability.md).
  Handle dcpl(H5Pcreate(H5P_DATASET_CREATE), H5Pclose, "cannot create a dataset property list");
  check(H5Pset_obj_track_times(dcpl, false), "cannot switch off time tracking");
  Handle dataset(H5Dcreate2(file, name.c_str(), type, file_space, H5P_DEFAULT, dcpl, H5P_DEFAULT),
                 H5Dclose, "cannot create dataset " + name);
  if (!description.units.empty()) putStringAttribute(dataset, "units", description.units);
  if (!description.columns.empty()) putStringAttribute(dataset, "columns", description.columns);
  if (total == 0) return;  // HDF5 refuses transfers to an empty dataset (same on every rank)
  const hsize_t mine[2] = {rows, row_len};
  Handle memory_space(H5Screate_simple(rankOf(row_len), mine, nullptr), H5Sclose,
                      "cannot create a dataspace");
  selectRows(file_space, memory_space, offset, mine);
  const char dummy = 0;  // HDF5 wants a buffer even for an empty selection
  Handle dxpl = collectiveTransfer();
  check(H5Dwrite(dataset, type, memory_space, file_space, dxpl, rows > 0 ? data : &dummy),
        "cannot write dataset " + name);
}

/// Rows of a dataset written by writeRows (format 2 wrote one column as 2-d).
unsigned long long rowCount(hid_t file, const std::string& name, hsize_t row_len) {
  if (H5Lexists(file, name.c_str(), H5P_DEFAULT) <= 0)
    throw std::runtime_error("dataset '" + name + "' is missing");
  Handle dataset(H5Dopen2(file, name.c_str(), H5P_DEFAULT), H5Dclose,
                 "cannot open dataset " + name);
  Handle space(H5Dget_space(dataset), H5Sclose, "cannot get a dataspace");
  hsize_t dims[2] = {0, 1};
  const int ndims = H5Sget_simple_extent_ndims(space);
  if (ndims < 1 || ndims > 2 || H5Sget_simple_extent_dims(space, dims, nullptr) < 0 ||
      dims[1] != row_len)
    throw std::runtime_error("dataset '" + name + "' has rows of " + std::to_string(dims[1]) +
                             " elements, this build expects " + std::to_string(row_len) +
                             " (written by an incompatible version of grains)");
  return dims[0];
}

/// Collective: rows [first, first + rows) of a dataset written by writeRows.
template <typename T>
std::vector<T> readRows(hid_t file, const std::string& name, hid_t type, hsize_t row_len,
                        unsigned long long first, unsigned long long rows) {
  const unsigned long long total = rowCount(file, name, row_len);
  if (first + rows > total)
    throw std::runtime_error("dataset '" + name + "' is shorter than its counts");
  std::vector<T> out(rows * row_len);
  if (total == 0) return out;  // as in writeRows
  Handle dataset(H5Dopen2(file, name.c_str(), H5P_DEFAULT), H5Dclose,
                 "cannot open dataset " + name);
  Handle file_space(H5Dget_space(dataset), H5Sclose, "cannot get a dataspace");
  const hsize_t mine[2] = {rows, row_len};
  Handle memory_space(H5Screate_simple(H5Sget_simple_extent_ndims(file_space), mine, nullptr),
                      H5Sclose, "cannot create a dataspace");
  selectRows(file_space, memory_space, first, mine);
  char dummy = 0;
  Handle dxpl = collectiveTransfer();
  check(H5Dread(dataset, type, memory_space, file_space, dxpl,
                rows > 0 ? static_cast<void*>(out.data()) : &dummy),
        "cannot read dataset " + name);
  return out;
}

/// Collective: one dataset per member of Body in group "bodies".
void writeBodies(hid_t file, const std::vector<Body>& bodies, MPI_Comm comm) {
  createGroup(file, "bodies");
  const std::size_t n = bodies.size();
  for (const io_detail::BodyIntegerField& f : io_detail::bodyIntegerFields()) {
    std::vector<long long> column(n);
    for (std::size_t k = 0; k < n; ++k) column[k] = f.get(bodies[k]);
    writeRows(file, std::string("bodies/") + f.name, H5T_NATIVE_LLONG, column.data(), n, 1, comm,
              {f.units, ""});
  }
  for (const io_detail::BodyRealField& f : io_detail::bodyRealFields()) {
    const auto width = static_cast<std::size_t>(f.width);
    std::vector<double> rows(n * width);
    for (std::size_t k = 0; k < n; ++k) f.get(bodies[k], rows.data() + k * width);
    writeRows(file, std::string("bodies/") + f.name, H5T_NATIVE_DOUBLE, rows.data(), n, width, comm,
              {f.units, f.columns});
  }
}

/// Collective: bodies [first, first + rows) written by writeBodies.
std::vector<Body> readBodies(hid_t file, unsigned long long first, unsigned long long rows) {
  std::vector<Body> bodies(rows);
  for (const io_detail::BodyIntegerField& f : io_detail::bodyIntegerFields()) {
    const auto column = readRows<long long>(file, std::string("bodies/") + f.name, H5T_NATIVE_LLONG,
                                            1, first, rows);
    for (std::size_t k = 0; k < bodies.size(); ++k) f.set(bodies[k], column[k]);
  }
  for (const io_detail::BodyRealField& f : io_detail::bodyRealFields()) {
    const auto width = static_cast<std::size_t>(f.width);
    const auto values = readRows<double>(file, std::string("bodies/") + f.name, H5T_NATIVE_DOUBLE,
                                         width, first, rows);
    for (std::size_t k = 0; k < bodies.size(); ++k) f.set(bodies[k], values.data() + k * width);
  }
  return bodies;
}

/// Collective: the warm-start impulses as key columns and one impulse row each.
void writeWarmStart(hid_t file, const std::vector<WarmStartRecord>& records, MPI_Comm comm) {
  createGroup(file, "warm_start");
  const std::size_t n = records.size();
  std::vector<long long> a(n), b(n), sub(n);
  std::vector<double> impulse(n * kMaxBlockSize);
  for (std::size_t k = 0; k < n; ++k) {
    a[k] = records[k].key.a;
    b[k] = records[k].key.b;
    sub[k] = records[k].key.sub;
    std::copy(records[k].impulse.begin(), records[k].impulse.end(),
              impulse.begin() + static_cast<std::ptrdiff_t>(k * kMaxBlockSize));
  }
  const Description gid{"1 (body GID, -1 for a wall)", ""};
  writeRows(file, "warm_start/key_a", H5T_NATIVE_LLONG, a.data(), n, 1, comm, gid);
  writeRows(file, "warm_start/key_b", H5T_NATIVE_LLONG, b.data(), n, 1, comm, gid);
  writeRows(file, "warm_start/key_sub", H5T_NATIVE_LLONG, sub.data(), n, 1, comm,
            {"1 (contact point of the pair, or the wall index)", ""});
  writeRows(file, "warm_start/impulse", H5T_NATIVE_DOUBLE, impulse.data(), n, kMaxBlockSize, comm,
            {io_detail::kImpulseUnits, io_detail::kImpulseColumns});
}

/// Collective: records [first, first + rows) written by writeWarmStart.
std::vector<WarmStartRecord> readWarmStart(hid_t file, unsigned long long first,
                                           unsigned long long rows) {
  const auto a = readRows<long long>(file, "warm_start/key_a", H5T_NATIVE_LLONG, 1, first, rows);
  const auto b = readRows<long long>(file, "warm_start/key_b", H5T_NATIVE_LLONG, 1, first, rows);
  const auto sub =
      readRows<long long>(file, "warm_start/key_sub", H5T_NATIVE_LLONG, 1, first, rows);
  const auto impulse =
      readRows<double>(file, "warm_start/impulse", H5T_NATIVE_DOUBLE, kMaxBlockSize, first, rows);
  std::vector<WarmStartRecord> records(rows);
  for (std::size_t k = 0; k < records.size(); ++k) {
    records[k].key = ContactKey{a[k], b[k], sub[k]};
    std::copy_n(impulse.begin() + static_cast<std::ptrdiff_t>(k * kMaxBlockSize), kMaxBlockSize,
                records[k].impulse.begin());
  }
  return records;
}

/// Format 2 stored the structs' bytes: usable only when this build's
/// structs have the sizes the file records.
void checkRawBytesLayout(hid_t file) {
  const auto body_bytes = getAttribute<unsigned long long>(file, "body_bytes", H5T_NATIVE_ULLONG);
  const auto record_bytes =
      getAttribute<unsigned long long>(file, "warm_start_bytes", H5T_NATIVE_ULLONG);
  if (body_bytes != sizeof(Body) || record_bytes != sizeof(WarmStartRecord))
    throw std::runtime_error(
        "written in checkpoint format " + std::to_string(kRawBytesFormatVersion) +
        " (raw struct bytes) with " + std::to_string(body_bytes) + "-byte bodies, this build has " +
        std::to_string(sizeof(Body)) + "-byte bodies (restart with the grains that wrote it)");
}

/// Collective: records [first, first + rows) of a format-2 raw-bytes dataset.
template <typename T>
std::vector<T> readRawRecords(hid_t file, const char* name, unsigned long long first,
                              unsigned long long rows) {
  const auto bytes = readRows<unsigned char>(file, name, H5T_NATIVE_UCHAR, sizeof(T), first, rows);
  std::vector<T> out(rows);
  if (!bytes.empty()) std::memcpy(static_cast<void*>(out.data()), bytes.data(), bytes.size());
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
  putAttribute(file, "step", H5T_NATIVE_LONG, s.step);
  putAttribute(file, "time", H5T_NATIVE_DOUBLE, s.time);
  putAttribute(file, "initial_bodies", H5T_NATIVE_LONG, s.initial_bodies);
  putAttribute(file, "initial_max_radius", H5T_NATIVE_DOUBLE, s.initial_max_radius);
  putAttribute(file, "ranks", H5T_NATIVE_INT, commSize(comm));
  putAttribute(file, "last_repartition_step", H5T_NATIVE_LONG, s.layout.last_repartition_step);
  putAttribute(file, "repartitions", H5T_NATIVE_LONG, s.layout.repartitions);
  const int spatial_order = s.layout.spatial_order ? 1 : 0;
  putAttribute(file, "spatial_order", H5T_NATIVE_INT, spatial_order);

  writeBodies(file, s.bodies, comm);
  const long long body_count = static_cast<long long>(s.bodies.size());
  writeRows(file, "body_counts", H5T_NATIVE_LLONG, &body_count, 1, 1, comm);
  writeWarmStart(file, s.warm_start, comm);
  const long long record_count = static_cast<long long>(s.warm_start.size());
  writeRows(file, "warm_start_counts", H5T_NATIVE_LLONG, &record_count, 1, 1, comm);
  std::vector<double> boxes;
  if (root)
    for (const RankBox& b : s.layout.boxes)
      boxes.insert(boxes.end(), {b.lo.x(), b.lo.y(), b.lo.z(), b.hi.x(), b.hi.y(), b.hi.z()});
  writeRows(file, "boxes", H5T_NATIVE_DOUBLE, boxes.data(), boxes.size() / 6, 6, comm,
            {"m", "lo_x lo_y lo_z hi_x hi_y hi_z"});
  writeRows(file, "config", H5T_NATIVE_CHAR, s.config_yaml.data(), root ? s.config_yaml.size() : 0,
            1, comm);
  std::vector<double> pistons;
  if (root)
    for (const ForceControlState& f : s.force_control)
      pistons.insert(pistons.end(), {f.displacement, f.velocity});
  writeRows(file, "force_control", H5T_NATIVE_DOUBLE, pistons.data(), pistons.size() / 2, 2, comm,
            {"m, m/s", "displacement velocity"});
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
  if (version == kRawBytesFormatVersion)
    checkRawBytesLayout(file);
  else if (version != kFormatVersion)
    throw std::runtime_error(
        "written in checkpoint format " + std::to_string(version) + ", this build reads formats " +
        std::to_string(kRawBytesFormatVersion) + " and " + std::to_string(kFormatVersion) +
        " (restart with the grains that wrote it)");
  const bool raw = version == kRawBytesFormatVersion;
  const std::string gid_rows = raw ? "bodies" : "bodies/gid";
  const hsize_t gid_row_len = raw ? sizeof(Body) : 1;
  const std::string record_rows_name = raw ? "warm_start" : "warm_start/key_a";
  const hsize_t record_row_len = raw ? sizeof(WarmStartRecord) : 1;

  CheckpointState s;
  s.step = getAttribute<long>(file, "step", H5T_NATIVE_LONG);
  s.time = getAttribute<double>(file, "time", H5T_NATIVE_DOUBLE);
  s.initial_bodies = getAttribute<long>(file, "initial_bodies", H5T_NATIVE_LONG);
  s.initial_max_radius = getAttribute<double>(file, "initial_max_radius", H5T_NATIVE_DOUBLE);
  s.ranks = getAttribute<int>(file, "ranks", H5T_NATIVE_INT);
  const std::vector<char> config =
      readRows<char>(file, "config", H5T_NATIVE_CHAR, 1, 0, rowCount(file, "config", 1));
  s.config_yaml.assign(config.begin(), config.end());
  // Every rank reads the walls' states (global quantities); older
  // checkpoints have none.
  std::vector<double> pistons;
  if (H5Lexists(file, "force_control", H5P_DEFAULT) > 0)
    pistons = readRows<double>(file, "force_control", H5T_NATIVE_DOUBLE, 2, 0,
                               rowCount(file, "force_control", 2));
  for (std::size_t k = 0; k + 1 < pistons.size(); k += 2)
    s.force_control.push_back({pistons[k], pistons[k + 1]});

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
    const unsigned long long total = rowCount(file, gid_rows, gid_row_len);
    const auto n = static_cast<unsigned long long>(size);
    const auto r = static_cast<unsigned long long>(rank);
    body_first = r * (total / n) + std::min(r, total % n);
    body_rows = total / n + (r < total % n ? 1 : 0);
    record_rows = rowCount(file, record_rows_name, record_row_len);
  }
  s.bodies = raw ? readRawRecords<Body>(file, "bodies", body_first, body_rows)
                 : readBodies(file, body_first, body_rows);
  s.warm_start =
      raw ? readRawRecords<WarmStartRecord>(file, "warm_start", record_first, record_rows)
          : readWarmStart(file, record_first, record_rows);
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
