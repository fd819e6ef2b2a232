// Run under mpirun with 1, 2 and 3 ranks: a colony grown from one cell
// (Palmer et al. (2025) section 4.3) has the same cells, with the same unique ids and the
// same positions, on any rank count, while repartitioning spreads it from the
// first rank's region over all ranks (compared against a one-rank run on a
// sub-communicator of rank 0).
#include "grains/dynamics/growth.hpp"
#include "grains/dynamics/time_stepper.hpp"
#include "grains/parallel/mpi_utils.hpp"
#include "mpi_test_support.hpp"

#include <gtest/gtest.h>
#include <Teuchos_DefaultMpiComm.hpp>
#include <Tpetra_Core.hpp>

#include <cmath>
#include <map>

namespace grains {
namespace {

struct ColonyRun {
  std::vector<long> counts;  ///< global cell count after each step
  std::map<GlobalId, test::Pose> poses;
  double worst_overlap = 0.0;
  double last_imbalance = 0.0;
  long repartitions = 0;
  bool resolved = true;
};

ColonyRun growColony(RCP<const Comm> comm, int steps) {
  std::vector<Body> mine;
  if (comm->getRank() == 0) {
    Body first = makeSpherocylinder(0, 0.25, 0.75, 1.0, Vec3::Zero(), Vec3(1.0, 0.3, 0.0));
    first.growth_rate = 1.0;
    mine.push_back(first);
  }
  ParallelSection parallel;
  parallel.imbalance_threshold = 1.2;
  parallel.min_repartition_interval = 5;
  BodyDomain domain(comm, mine, parallel);
  StepperSettings s;
  s.assembly.dt = 0.02;
  s.assembly.motion.overdamped = true;
  s.assembly.motion.planar = true;
  s.method = ConstraintMethod::Relcp;
  s.envelope = 0.05;
  s.overlap_tolerance = 1e-6;
  s.max_recursions = 40;
  GrowthSettings growth;
  growth.division_length = 4.0;
  growth.reorientation = 0.01 * kPi / 180.0;
  growth.planar = true;
  growth.roots = 1;
  s.growth = growth;
  SolverSettings solver;
  solver.tolerance = 1e-11;
  solver.max_iterations = 20000;
  TimeStepper stepper(s, {}, SolverRegistry::instance().create("kucera", solver));
  ColonyRun out;
  for (int step = 0; step < steps; ++step) {
    const StepReport report = stepper.step(domain, step);
    out.counts.push_back(report.bodies);
    out.worst_overlap = std::max(out.worst_overlap, report.max_true_overlap);
    out.resolved = out.resolved && report.relcp_resolved;
    out.last_imbalance = report.domain.load_imbalance;
    out.repartitions = report.domain.repartitions;
  }
  out.poses = test::gatherPoses(domain);
  return out;
}

TEST(ColonyDistributed, SameCellsOnAnyRankCount) {
  auto world = Tpetra::getDefaultComm();
  // Five doublings at g = 1, dt = 0.02 (35 steps each): 32 cells.
  const int steps = 5 * 35 + 3;
  const ColonyRun distributed = growColony(world, steps);
  ASSERT_EQ(distributed.counts.back(), 32);
  EXPECT_EQ(distributed.poses.size(), 32u) << "cells lost or duplicated in migration";
  EXPECT_TRUE(distributed.resolved);
  EXPECT_LT(distributed.worst_overlap, 1e-6);
  if (world->getSize() > 1) {
    EXPECT_GT(distributed.repartitions, 0) << "the colony must spread over the ranks";
    EXPECT_LT(distributed.last_imbalance, 1.6);
  }

  MPI_Comm self_raw = MPI_COMM_NULL;
  MPI_Comm_split(rawMpiComm(*world), world->getRank() == 0 ? 0 : MPI_UNDEFINED, 0, &self_raw);
  if (world->getRank() != 0) return;
  auto self = rcp(new Teuchos::MpiComm<int>(Teuchos::opaqueWrapper(self_raw, MPI_Comm_free)));
  const ColonyRun serial = growColony(self, steps);
  EXPECT_EQ(serial.counts, distributed.counts) << "cell count per step differs";
  const double max_diff = test::maxPoseDifference(serial.poses, distributed.poses);
  EXPECT_LT(max_diff, 1e-6) << "colonies differ between 1 and " << world->getSize() << " ranks";
}

}  // namespace
}  // namespace grains
