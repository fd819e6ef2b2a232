#pragma once
// The files of the measurements (docs/measurements.md): one CSV per
// measurement (one row per output step) and, for grids, a series of VTK
// image data (.vti) with its .pvd collection. Rank 0 writes; the others
// pass no data.
#include <array>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "grains/core/types.hpp"

namespace grains {

class MeasurementCsv {
 public:
  /// Rank 0 (`writer`) opens `path` with `columns` as header. With `append`,
  /// an existing file keeps its rows of steps before `first_step` (a restart
  /// recomputes the others). Throws std::runtime_error when it cannot write.
  MeasurementCsv(const std::string& path, std::vector<std::string> columns, bool writer,
                 bool append, long first_step);
  /// One row (step, time, then the values, as many as the columns after them).
  void write(long step, double time, const std::vector<double>& values);

 private:
  std::string path_;
  std::vector<std::string> columns_;
  bool writer_ = false;
  std::ofstream out_;
};

/// Cell data of one grid frame, cell index x fastest.
struct GridFrame {
  Vec3 origin = Vec3::Zero();   ///< lower corner [m]
  Vec3 spacing = Vec3::Ones();  ///< cell size [m]
  std::array<int, 3> cells = {1, 1, 1};
  /// name -> components (1, 3 or 9) and values (cells x components).
  std::vector<std::pair<std::string, std::pair<int, std::vector<double>>>> arrays;
};

class GridSeries {
 public:
  /// Rank 0 (`writer`) writes dir/vtk/measurements_<name>_<step>.vti and
  /// dir/measurements_<name>.pvd; with `append`, the collection keeps its
  /// frames of steps before `first_step`.
  GridSeries(const std::string& dir, const std::string& name, bool writer, bool append,
             long first_step);
  void write(long step, double time, const GridFrame& frame);

 private:
  std::string dir_, name_;
  bool writer_ = false;
  std::vector<std::pair<double, std::string>> frames_;  ///< time, file (relative to dir)
  std::vector<long> steps_;
};

}  // namespace grains
