#pragma once
// The contact QP of one time step on disk, for the solver laboratory
// (`grains run --export-qp`, `grains qp solve`). A directory holds
//   problem.yaml   model, sizes, step, time, dt, scale, regularisation, and
//                  the run's solver report
//   A.mtx          A = scale D^T W D + reg I, assembled (sparse)
//   b.mtx          the linear term (unknowns x 1)
//   cones.mtx      mu per contact (contacts x 1; x 3 with the rolling and
//                  spinning bounds for coulomb_rolling)
//   Dt.mtx         D^T (unknowns x 6 * (max body gid + 1)), columns 6 gid + k (sparse)
//   mobility.mtx   per body gid: 1/m and the 3x3 inverse inertia, row-major
//                  (rows of gids without a body are 0)
//   u_free.mtx     free velocities (u, omega) per body DOF: u+ = u_free + W D gamma
//   warm_start.mtx the run's initial guess, solution.mtx the run's answer.
// The .mtx files are Tpetra::MatrixMarket's: the sparse ones "matrix
// coordinate real general" with 1-based indices, the others dense "matrix
// array real general" (column by column); 17 digits after the point, so
// every double reads back exactly. SciPy (scipy.io.mmread), MATLAB and
// Tpetra read them.
#include "grains/constraint/contact_system.hpp"
#include "grains/solver/solver.hpp"

#include <map>
#include <string>

namespace grains {

struct QpExportInfo {
  long step = 0;
  double time = 0.0;
  double dt = 0.0;
  std::string solver;
  SolveReport report;
  double tolerance = 0.0;
};

/// Collective. Creates `dir` (parents too) and writes the files above.
/// Throws std::runtime_error on every rank when any rank fails.
void exportQp(const std::string& dir, const ContactSystem& system, const Vector& warm_start,
              const Vector& solution, const QpExportInfo& info);

struct StoredQp {
  /// A is the assembled matrix; `factored` is present when Dt.mtx and
  /// mobility.mtx are (row-wise solvers such as pgs need it).
  QuadraticProgram qp;
  RCP<Vector> warm_start;
  RCP<Vector> solution;
  std::map<std::string, std::string> meta;  ///< problem.yaml as text values
  long long contacts = 0;
};

/// Collective. Reads a directory written by exportQp, contacts spread evenly
/// over the ranks of `comm` (each contact's unknowns on one rank). Throws
/// std::runtime_error naming the file and line for malformed input.
StoredQp readQp(const std::string& dir, const RCP<const Comm>& comm);

}  // namespace grains
