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

TEST(QuietRestDistributed, APileAtRestCostsNextToNoIterationsOnAnyRankCount) {
  const RCP<const Comm> world = Tpetra::getDefaultComm();
  const test::PileContacts held{1e-4, 0.05};
  const test::QuietPileRun distributed =
      test::settleQuietPile(world, RestTolerance::recommended(), 900, 100, held);
  // Rank 0 also runs the whole pile alone: the one-rank reference (the
  // other ranks wait; oversubscribed Open MPI yields while waiting).
  test::QuietPileRun alone;
  if (world->getRank() == 0) {
    const RCP<const Comm> self = rcp(new Teuchos::MpiComm<int>(MPI_COMM_SELF));
    alone = test::settleQuietPile(self, RestTolerance::recommended(), 900, 100, held);
    std::sort(alone.speeds.begin(), alone.speeds.end());
  }
  double reference[2] = {alone.iterations_per_step, alone.largest_local_speed};
  Teuchos::broadcast(*world, 0, 2, reference);
  std::vector<double> reference_speeds = alone.speeds;
  int count = static_cast<int>(reference_speeds.size());
  Teuchos::broadcast(*world, 0, &count);
  reference_speeds.resize(static_cast<std::size_t>(count));
  Teuchos::broadcast(*world, 0, count, reference_speeds.data());

  double largest = 0.0;
  Teuchos::reduceAll(*world, Teuchos::REDUCE_MAX, distributed.largest_local_speed,
                     Teuchos::outArg(largest));
  std::vector<double> speeds = test::allGather(*world, distributed.speeds);
  std::sort(speeds.begin(), speeds.end());

  EXPECT_EQ(distributed.unconverged, 0);
  EXPECT_LE(distributed.iterations_per_step, 2.0);
  EXPECT_LT(largest, 1e-7);
  EXPECT_EQ(distributed.iterations_per_step, reference[0]);
  EXPECT_EQ(largest, reference[1]);
  EXPECT_EQ(speeds, reference_speeds);
}

}  // namespace
}  // namespace grains
