#pragma once
// Time series as VTK XML PolyData, by default the bodies (one point per body):
//   dir/vtk/bodies_<step>_r<rank>.vtp   one piece per rank and output step
//   dir/vtk/bodies_<step>.pvtp          per step, lists every rank's piece
//   dir/bodies.pvd                      the series with physical times
// Other series (the contact network: "contacts") use their name instead of
// "bodies". See docs/output.md for the arrays and how to open them in ParaView.
#include "grains/core/body.hpp"

#include <mpi.h>

#include <string>
#include <vector>

class vtkPolyData;

namespace grains {

/// How the per-rank pieces store their arrays. The default is what ParaView
/// reads fastest: raw binary appended data, zlib compressed, 64-bit headers.
enum class VtkEncoding { BinaryCompressed, Binary, Ascii };

/// One DataSet of the .pvd collection. `file` is relative to the output dir.
struct VtkSeriesEntry {
  long step = -1;  ///< -1 if the file name is not one of ours (kept as is)
  double time = 0.0;
  std::string file;
};

class VtkSeriesWriter {
 public:
  /// Collective. Rank 0 creates `dir/vtk` (and `dir`) if missing. With
  /// `append_existing`, the entries of an existing `dir/bodies.pvd` are kept
  /// (restart); a later write(step, ...) drops kept entries with a step >= step.
  /// Without it, the series starts empty and bodies.pvd is replaced at the
  /// first write.
  VtkSeriesWriter(const std::string& dir, MPI_Comm comm, bool append_existing = false,
                  VtkEncoding encoding = VtkEncoding::BinaryCompressed,
                  std::string name = "bodies");

  /// Collective. Every rank writes its piece (also when it owns no body), then
  /// rank 0 writes the step's .pvtp and atomically rewrites bodies.pvd. Throws
  /// std::runtime_error on every rank if any rank failed. `step` must be >= 0;
  /// `step` and `time` must be the same on every rank.
  void write(long step, double time, const std::vector<Body>& owned_bodies);
  /// The same for any data: `local_piece` is this rank's piece; every rank's
  /// piece must have the same arrays (point and cell data).
  void writePolyData(long step, double time, vtkPolyData* local_piece);

  /// The series as it is in bodies.pvd after the last write (same on every rank).
  const std::vector<VtkSeriesEntry>& entries() const { return entries_; }

  const std::string& directory() const { return dir_; }
  /// dir/<name>.pvd
  std::string seriesPath() const;

  /// "vtk/bodies_000010.pvtp" (relative to the output directory).
  static std::string stepFileName(long step, const std::string& name = "bodies");
  /// "bodies_000010_r2.vtp" (relative to the vtk/ folder, as the .pvtp lists it).
  static std::string pieceFileName(long step, int rank, const std::string& name = "bodies");
  /// Parses the DataSet entries of a .pvd text written by this class.
  /// Throws std::runtime_error on malformed input.
  static std::vector<VtkSeriesEntry> parseCollection(const std::string& pvd_text,
                                                     const std::string& name = "bodies");

 private:
  std::string dir_;
  MPI_Comm comm_;
  int rank_ = 0;
  int size_ = 1;
  VtkEncoding encoding_;
  std::string name_;
  std::vector<VtkSeriesEntry> entries_;
};

}  // namespace grains
