#pragma once
// Checkpoints: the whole state of a run in one HDF5 file, written
// collectively with MPI-IO (docs/restart.md). A checkpoint is written under a
// temporary name and renamed when complete, so a run killed mid-write leaves
// the previous checkpoint intact.
#include "grains/constraint/warm_start.hpp"
#include "grains/core/body.hpp"
#include "grains/core/force_control.hpp"
#include "grains/parallel/body_domain.hpp"

#include <mpi.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace grains {

/// A missing, foreign, truncated or incompatible checkpoint file; the message
/// names the file.
class CheckpointError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// One rank's share of a checkpoint. The random generators need no state of
/// their own: they are seeded from simulation.seed in the stored config.
struct CheckpointState {
  long step = 0;      ///< steps completed
  double time = 0.0;  ///< [s]
  /// Run constants derived from the initial bodies: the growth's daughter ids
  /// and 2^k stop use the initial count, the default envelope the radius.
  long initial_bodies = 0;
  double initial_max_radius = 0.0;
  std::string config_yaml;  ///< the effective config (configToYaml)
  std::vector<Body> bodies;
  std::vector<WarmStartRecord> warm_start;
  /// One state per wall (force-controlled walls: where the piston is; the
  /// same on every rank). Empty in checkpoints written without it.
  std::vector<ForceControlState> force_control;
  int ranks = 1;  ///< ranks of the run that wrote it
  DomainLayout layout;
  /// Read: true when comm has as many ranks as the writer; then each rank got
  /// exactly the bodies, impulses and layout the writing rank had. Otherwise
  /// the bodies are split in contiguous blocks, every rank holds all
  /// impulses and the layout is empty (partition afresh).
  bool same_layout = false;
};

/// Collective: writes every rank's share to `path` (via `path + ".tmp"`).
void writeCheckpoint(const std::string& path, const CheckpointState& local, MPI_Comm comm);
/// Collective: reads `path`; throws CheckpointError on every rank if it
/// cannot be used.
CheckpointState readCheckpoint(const std::string& path, MPI_Comm comm);

/// `checkpoint_<step, 8 digits>.h5`.
std::string checkpointFileName(long step);
/// Complete checkpoints in `dir` (temporary files excluded), oldest first.
std::vector<std::string> listCheckpoints(const std::string& dir);
/// Collective: writes `dir/checkpointFileName(step)` and then deletes all
/// but the newest `keep` checkpoints and stale temporary files. Returns the path.
std::string writeCheckpointKeeping(const std::string& dir, const CheckpointState& local, long keep,
                                   MPI_Comm comm);
/// `path` itself, or for a directory its newest complete checkpoint.
/// Throws CheckpointError if there is none.
std::string resolveCheckpoint(const std::string& path);

}  // namespace grains
