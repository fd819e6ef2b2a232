// Run under mpirun with 1, 2 and 3 ranks (all on one node): ranks x threads
// beyond the node's cores give one warning, the same on every rank, naming
// the ranks, the threads and the cores; within them, none.
#include "grains/app/oversubscription.hpp"

#include <gtest/gtest.h>
#include <Tpetra_Core.hpp>

#include <string>

namespace grains {
namespace {

TEST(OversubscriptionMpi, WarnsOnlyWhenRanksTimesThreadsExceedTheCores) {
  auto comm = Tpetra::getDefaultComm();
  const int p = comm->getSize();
  EXPECT_EQ(oversubscriptionWarning(*comm, 2, 2 * p), "");
  EXPECT_EQ(oversubscriptionWarning(*comm, 64, 0), "");  // cores unknown
  const std::string text = oversubscriptionWarning(*comm, 2, 2 * p - 1);
  const std::string ranks = std::to_string(p) + (p == 1 ? " rank" : " ranks");
  EXPECT_EQ(
      text.rfind(ranks + " x 2 threads = " + std::to_string(2 * p) + " on a node with " +
                     std::to_string(2 * p - 1) + (p == 1 ? " core" : " cores") + ": oversubscribed",
                 0),
      0u)
      << text;
}

}  // namespace
}  // namespace grains
