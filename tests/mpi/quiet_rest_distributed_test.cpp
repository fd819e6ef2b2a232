// Run under mpirun with 1, 2 and 3 ranks: the quiet pile of
// tests/unit/dynamics/quiet_rest_test.cpp with an overlap slop and rolling
// and spinning resistance (quiet_pile.hpp) comes to rest at next to no
// iterations per step on any rank count, and exactly as it does on one rank
// (apgd's iterates are the same bits on any rank count).
#include "grains/dynamics/time_stepper.hpp"
#include "mpi_test_support.hpp"

#include "quiet_pile.hpp"

#include <gtest/gtest.h>
#include <Teuchos_CommHelpers.hpp>
#include <Teuchos_DefaultMpiComm.hpp>
#include <Tpetra_Core.hpp>

#include <algorithm>

namespace grains {
namespace {

/// The pile settled on all ranks and, on rank 0, alone: the one-rank
/// reference (the other ranks wait; oversubscribed Open MPI yields while
/// waiting), gathered and broadcast so every rank can compare.
struct RunAndReference {
  test::QuietPileRun distributed;
  double largest = 0.0;        ///< over all ranks
  std::vector<double> speeds;  ///< all bodies, sorted
  double reference_iterations = 0.0, reference_largest = 0.0;
  std::vector<double> reference_speeds;
};

RunAndReference settleOnAllRanksAndAlone(const RestTolerance& rest,
                                         const test::PileContacts& contacts) {
  const RCP<const Comm> world = Tpetra::getDefaultComm();
  RunAndReference out;
  out.distributed = test::settleQuietPile(world, rest, 900, 100, contacts);
  test::QuietPileRun alone;
  if (world->getRank() == 0) {
    const RCP<const Comm> self = rcp(new Teuchos::MpiComm<int>(MPI_COMM_SELF));
    alone = test::settleQuietPile(self, rest, 900, 100, contacts);
    std::sort(alone.speeds.begin(), alone.speeds.end());
  }
  double reference[2] = {alone.iterations_per_step, alone.largest_local_speed};
  Teuchos::broadcast(*world, 0, 2, reference);
  out.reference_iterations = reference[0];
  out.reference_largest = reference[1];
  out.reference_speeds = alone.speeds;
  int count = static_cast<int>(out.reference_speeds.size());
  Teuchos::broadcast(*world, 0, &count);
  out.reference_speeds.resize(static_cast<std::size_t>(count));
  Teuchos::broadcast(*world, 0, count, out.reference_speeds.data());

  Teuchos::reduceAll(*world, Teuchos::REDUCE_MAX, out.distributed.largest_local_speed,
                     Teuchos::outArg(out.largest));
  out.speeds = test::allGather(*world, out.distributed.speeds);
  std::sort(out.speeds.begin(), out.speeds.end());
  return out;
}

TEST(QuietRestDistributed, APileAtRestCostsNextToNoIterationsOnAnyRankCount) {
  const RunAndReference run =
      settleOnAllRanksAndAlone(RestTolerance::recommended(), test::PileContacts{1e-4, 0.05});
  EXPECT_EQ(run.distributed.unconverged, 0);
  EXPECT_LE(run.distributed.iterations_per_step, 2.0);
  // As in QuietRest: no sphere above the rest floor's 0.01 tau / dt, the median
  // sphere at a small fraction of it.
  EXPECT_LT(run.largest, 2e-6);
  EXPECT_LT(run.speeds[run.speeds.size() / 2], 1e-7);
  EXPECT_EQ(run.distributed.iterations_per_step, run.reference_iterations);
  EXPECT_EQ(run.largest, run.reference_largest);
  EXPECT_EQ(run.speeds, run.reference_speeds);
}

TEST(QuietRestDistributed, TheBulkOfTheContactsSetsTheStopAlikeOnAnyRankCount) {
  // The warm start's miss taken at a quantile of the contacts: counted over
  // all ranks, so every rank count stops every step at the same iterate.
  // Without friction-holding extras the pile's floor spheres keep spinning,
  // so the steps at rest still iterate, each to the bulk's target.
  // With bulk_stop the solves also stop at that quantile, counted the same way.
  RestTolerance rest = RestTolerance::recommended();
  rest.quantile = 0.9;
  for (const bool bulk_stop : {false, true}) {
    SCOPED_TRACE(bulk_stop ? "stop at the bulk" : "stop at the worst contact");
    rest.bulk_stop = bulk_stop;
    const RunAndReference run = settleOnAllRanksAndAlone(rest, test::PileContacts{});
    EXPECT_EQ(run.distributed.unconverged, 0);
    EXPECT_GT(run.distributed.iterations_per_step, 0.0);
    EXPECT_EQ(run.distributed.iterations_per_step, run.reference_iterations);
    EXPECT_EQ(run.largest, run.reference_largest);
    EXPECT_EQ(run.speeds, run.reference_speeds);
  }
}

}  // namespace
}  // namespace grains
