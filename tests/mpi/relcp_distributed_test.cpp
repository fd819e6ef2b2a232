// Run under mpirun with 1, 2 and 3 ranks: ReLCP (Palmer et al. (2025) eq. 24) on rods
// compacting under a radial field gives the same motion on any rank count,
// including the recursions' constraints between bodies of different ranks
// (compared against a one-rank run on a sub-communicator of rank 0).
#include "grains/dynamics/time_stepper.hpp"
#include "grains/parallel/mpi_utils.hpp"
#include "mpi_test_support.hpp"

#include <gtest/gtest.h>
#include <Teuchos_DefaultMpiComm.hpp>
#include <Tpetra_Core.hpp>

#include <cstring>
#include <map>
#include <optional>
#include <random>

namespace grains {
namespace {

using test::myBlock;

// Deterministic non-overlapping random rods (bounding spheres apart).
std::vector<Body> randomRods(int n, double box, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> pos(-0.5 * box, 0.5 * box), dir(-1.0, 1.0);
  std::vector<Body> all;
  while (static_cast<int>(all.size()) < n) {
    Vec3 axis(dir(rng), dir(rng), dir(rng));
    if (axis.norm() < 0.1) continue;
    const Body cand = makeSpherocylinder(static_cast<GlobalId>(all.size()), 0.1, 0.4, 1.0,
                                         Vec3(pos(rng), pos(rng), pos(rng)), axis);
    bool ok = true;
    for (const Body& b : all)
      if ((b.position - cand.position).norm() < 1.0) ok = false;
    if (ok) all.push_back(cand);
  }
  return all;
}

struct RunResult {
  std::map<GlobalId, test::Pose> poses;
  long relcp_added = 0;
  long contacts = 0;  // summed over the steps
  double worst_overlap = 0.0;
  bool resolved = true;
};

struct RunOptions {
  bool adaptive_envelope = true;
  double envelope = 0.05;
  bool predict_contacts = false;
  double field_strength = 2.0;
  /// Set: LCP-MS with 5 sub-spheres per rod and this sub-sphere buffer
  /// instead of ReLCP.
  std::optional<double> multisphere_buffer;
};

RunResult compact(RCP<const Comm> comm, const std::vector<Body>& all, int steps,
                  const RunOptions& options = {}) {
  ParallelSection parallel;
  parallel.repartition_every = 5;
  parallel.min_repartition_interval = 1;
  BodyDomain domain(comm, myBlock(all, *comm), parallel);
  StepperSettings s;
  s.assembly.dt = 0.2;
  s.assembly.motion.overdamped = true;
  s.assembly.motion.force_field.kind = ForceFieldKind::RadialCompaction;
  s.assembly.motion.force_field.strength = options.field_strength;
  s.method = ConstraintMethod::Relcp;
  if (options.multisphere_buffer) {
    s.method = ConstraintMethod::Multisphere;
    s.subspheres = 5;
    s.subsphere_buffer = *options.multisphere_buffer;
  }
  s.envelope = options.envelope;
  s.overlap_tolerance = 1e-6;
  s.max_recursions = 40;
  s.adaptive_envelope = options.adaptive_envelope;
  s.predict_contacts = options.predict_contacts;
  SolverSettings solver;
  solver.tolerance = 1e-10;
  solver.max_iterations = 5000;
  TimeStepper stepper(s, {}, SolverRegistry::instance().create("apgd", solver));
  RunResult out;
  for (int step = 0; step < steps; ++step) {
    const auto report = stepper.step(domain, step);
    out.relcp_added += report.relcp_added;
    out.contacts += report.contacts;
    out.worst_overlap = std::max(out.worst_overlap, report.max_true_overlap);
    out.resolved = out.resolved && report.relcp_resolved;
  }
  out.poses = test::gatherPoses(domain);
  return out;
}

// The one-rank run of `all` on a sub-communicator of rank 0 (other ranks: none).
std::optional<RunResult> serialOnRankZero(const Comm& world, const std::vector<Body>& all,
                                          int steps, const RunOptions& options = {}) {
  MPI_Comm self_raw = MPI_COMM_NULL;
  MPI_Comm_split(rawMpiComm(world), world.getRank() == 0 ? 0 : MPI_UNDEFINED, 0, &self_raw);
  if (world.getRank() != 0) return std::nullopt;
  auto self = rcp(new Teuchos::MpiComm<int>(Teuchos::opaqueWrapper(self_raw, MPI_Comm_free)));
  return compact(self, all, steps, options);
}

TEST(RelcpDistributed, SameCompactionOnAnyRankCount) {
  auto world = Tpetra::getDefaultComm();
  const auto all = randomRods(20, 4.0, 11);
  const int steps = 14;
  const RunResult distributed = compact(world, all, steps);
  ASSERT_EQ(distributed.poses.size(), all.size()) << "bodies lost or duplicated";
  EXPECT_GT(distributed.relcp_added, 0) << "the run should exercise the recursion";
  EXPECT_TRUE(distributed.resolved);
  EXPECT_LT(distributed.worst_overlap, 1e-6);

  const auto serial = serialOnRankZero(*world, all, steps);
  if (!serial) return;
  EXPECT_EQ(serial->relcp_added, distributed.relcp_added);
  const double max_diff = test::maxPoseDifference(serial->poses, distributed.poses);
  EXPECT_LT(max_diff, 1e-6) << "states differ between 1 and " << world->getSize() << " ranks";
}

// contact.adaptive_envelope: false. Only the recursion finds the pairs a step
// brings together (the halo still covers them), so it appends more
// constraints than with the adaptive envelope, and the result is the same on
// any rank count.
TEST(RelcpDistributed, FixedEnvelopeSameCompactionOnAnyRankCount) {
  auto world = Tpetra::getDefaultComm();
  const auto all = randomRods(20, 4.0, 11);
  const int steps = 14;
  // A thin envelope, which the adaptive one would widen to the approach.
  const double envelope = 0.002;
  RunOptions fixed;
  fixed.adaptive_envelope = false;
  fixed.envelope = envelope;
  const RunResult distributed = compact(world, all, steps, fixed);
  ASSERT_EQ(distributed.poses.size(), all.size()) << "bodies lost or duplicated";
  EXPECT_TRUE(distributed.resolved);
  EXPECT_LT(distributed.worst_overlap, 1e-6);
  RunOptions adaptive_options;
  adaptive_options.envelope = envelope;
  const RunResult adaptive = compact(world, all, steps, adaptive_options);
  EXPECT_GT(distributed.relcp_added, adaptive.relcp_added);

  const auto serial = serialOnRankZero(*world, all, steps, fixed);
  if (!serial) return;
  EXPECT_EQ(serial->relcp_added, distributed.relcp_added);
  const double max_diff = test::maxPoseDifference(serial->poses, distributed.poses);
  EXPECT_LT(max_diff, 1e-6) << "states differ between 1 and " << world->getSize() << " ranks";
}

// contact.predict_contacts with the fixed envelope: the pairs the free motion
// (drag mobility times the compaction force, ghosts included) closes within
// the step are constrained up front, so the recursion appends fewer; the
// result is again the same on any rank count.
TEST(RelcpDistributed, PredictedContactsSameCompactionOnAnyRankCount) {
  auto world = Tpetra::getDefaultComm();
  const auto all = randomRods(20, 4.0, 11);
  const int steps = 14;
  const double envelope = 0.002;
  RunOptions predicting;
  predicting.adaptive_envelope = false;
  predicting.envelope = envelope;
  predicting.predict_contacts = true;
  const RunResult predicted = compact(world, all, steps, predicting);
  ASSERT_EQ(predicted.poses.size(), all.size()) << "bodies lost or duplicated";
  EXPECT_TRUE(predicted.resolved);
  EXPECT_LT(predicted.worst_overlap, 1e-6);
  RunOptions recursion_options = predicting;
  recursion_options.predict_contacts = false;
  const RunResult recursion_only = compact(world, all, steps, recursion_options);
  EXPECT_LT(predicted.relcp_added, recursion_only.relcp_added);

  const auto serial = serialOnRankZero(*world, all, steps, predicting);
  if (!serial) return;
  EXPECT_EQ(serial->relcp_added, predicted.relcp_added);
  const double max_diff = test::maxPoseDifference(serial->poses, predicted.poses);
  EXPECT_LT(max_diff, 1e-6) << "states differ between 1 and " << world->getSize() << " ranks";
}

// LCP-MS with the sub-sphere buffer (SimToolBox's colBuf): the buffer adds
// constraints between sub-spheres of bodies on different ranks, which the
// halo must carry; the run is the same on any rank count (without the
// buffer's reach in the halo, 2 and 3 ranks lose 76 and 803 constraints).
TEST(RelcpDistributed, MultisphereBufferSameCompactionOnAnyRankCount) {
  auto world = Tpetra::getDefaultComm();
  // Stretched along x, so that the ranks hold slabs and the halo matters.
  auto all = randomRods(40, 4.0, 11);
  for (Body& b : all) b.position.x() *= 4.0;
  const int steps = 14;
  RunOptions buffered;
  buffered.field_strength = 0.2;       // the adaptive envelope stays near 0.1
  buffered.multisphere_buffer = 10.0;  // sub-sphere gaps up to 2.0, beyond it
  const RunResult distributed = compact(world, all, steps, buffered);
  ASSERT_EQ(distributed.poses.size(), all.size()) << "bodies lost or duplicated";
  RunOptions plain = buffered;
  plain.multisphere_buffer = 0.0;
  EXPECT_GT(distributed.contacts, compact(world, all, steps, plain).contacts);

  const auto serial = serialOnRankZero(*world, all, steps, buffered);
  if (!serial) return;
  EXPECT_EQ(serial->contacts, distributed.contacts);
  const double max_diff = test::maxPoseDifference(serial->poses, distributed.poses);
  EXPECT_LT(max_diff, 1e-6) << "states differ between 1 and " << world->getSize() << " ranks";
}

}  // namespace
}  // namespace grains
