#pragma once
// Per-step run metrics as CSV (one row per call, flushed at once so a killed
// run keeps everything written so far). Columns: docs/output.md.
#include <mpi.h>

#include <cstdint>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

namespace grains {

/// One row. Values must already be reduced over all ranks (identical on every
/// rank). `extra` columns follow the fixed ones in the given order; their names
/// are fixed by the first row written and every later row must repeat them.
struct MetricsRow {
  long step = 0;
  double time = 0.0;            ///< physical time [s]
  std::int64_t bodies = 0;      ///< global number of bodies
  std::int64_t contacts = 0;    ///< global number of contact constraints
  std::string solver;           ///< solver name
  int iterations = 0;           ///< solver iterations of this step
  double residual = 0.0;        ///< projected-gradient residual at the returned iterate
  double objective = 0.0;       ///< QP objective at the returned iterate
  bool converged = false;       ///< written as 1 / 0
  double max_overlap = 0.0;     ///< largest penetration after the step [m] (>= 0)
  double kinetic_energy = 0.0;  ///< [J]
  double wall_s = 0.0;          ///< wall-clock time of the step [s]
  std::vector<std::pair<std::string, double>> extra;
};

class MetricsWriter {
 public:
  /// Collective. Rank 0 opens `path` (truncating it, unless `append_existing`
  /// and the file exists: then its header is kept, later rows must match it,
  /// and a last line cut short by a killed run is dropped). The header is
  /// written with the first row. Rows of step >= `drop_from_step` (if >= 0)
  /// are dropped from an appended file: a restart recomputes them. Throws
  /// std::runtime_error on every rank if rank 0 cannot open or parse the file.
  MetricsWriter(const std::string& path, MPI_Comm comm, bool append_existing = false,
                long drop_from_step = -1);

  /// Collective. Rank 0 writes and flushes one row. Doubles are written with
  /// the fewest digits (15..17) that parse back to the same value. Throws
  /// std::runtime_error on every rank for an invalid or mismatched extra
  /// column or a write error.
  void writeRow(const MetricsRow& row);

  /// step,time,bodies,contacts,solver,iterations,residual,objective,converged,
  /// max_overlap,kinetic_energy,wall_s
  static const std::vector<std::string>& fixedColumns();
  /// Header in use: empty until fixed by the first row (or an appended file).
  const std::vector<std::string>& columns() const { return columns_; }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  MPI_Comm comm_;
  int rank_ = 0;
  std::ofstream out_;  ///< open on rank 0 only
  std::vector<std::string> columns_;
};

}  // namespace grains
