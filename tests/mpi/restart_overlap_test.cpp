// Run under mpirun with 1 to 4 ranks: the restart's overlap check finds a
// pair that overlaps across a rank boundary as well as within a rank, and
// every rank gets the same message naming the deepest pair.
#include "grains/app/restart_checks.hpp"
#include "grains/geometry/shape_traits.hpp"
#include "grains/parallel/mpi_utils.hpp"
#include "mpi_test_support.hpp"

#include <gtest/gtest.h>
#include <Tpetra_Core.hpp>

#include <string>
#include <vector>

namespace grains {
namespace {

/// 40 spheres of radius 0.1 along x, 0.25 apart (gaps of 0.05), with body
/// `moved` shifted `depth` + 0.05 towards its right neighbour.
std::vector<Body> row(GlobalId moved, double depth) {
  std::vector<Body> all;
  for (GlobalId gid = 0; gid < 40; ++gid)
    all.push_back(makeSphere(gid, 0.1, 1.0, Vec3(0.25 * static_cast<double>(gid), 0.0, 0.0)));
  if (moved >= 0) all[static_cast<std::size_t>(moved)].position.x() += depth + 0.05;
  return all;
}

/// The check's message, and whether bodies `moved` and `moved` + 1 are
/// owned by different ranks.
std::string overlapMessage(GlobalId moved, double depth, bool* across = nullptr) {
  auto comm = Tpetra::getDefaultComm();
  BodyDomain domain(comm, test::myBlock(row(moved, depth), *comm));
  long owns = 0;  // bit 0: this rank owns `moved`, bit 1: `moved` + 1
  for (std::size_t i = 0; i < domain.numOwned(); ++i) {
    if (domain.bodies()[i].gid == moved) owns |= 1;
    if (domain.bodies()[i].gid == moved + 1) owns |= 2;
  }
  if (across) *across = globalMax(*comm, owns == 3 ? 1L : 0L) == 0;
  return restartBodyOverlap(domain, ContactSection{});
}

TEST(RestartOverlapMpi, FindsTheDeepestPairOnAnyRank) {
  EXPECT_EQ(overlapMessage(-1, 0.0), "");
  EXPECT_EQ(overlapMessage(19, 0.004), "");  // within 5 % of the radius
  // Bodies 19 and 20 sit in the middle of the row: on 2 and 4 ranks on
  // either side of a boundary.
  bool across = false;
  const std::string text = overlapMessage(19, 0.04, &across);
  if (Tpetra::getDefaultComm()->getSize() % 2 == 0) {
    EXPECT_TRUE(across) << "the pair should straddle a rank boundary";
  }
  EXPECT_EQ(text.rfind("bodies 19 at (4.84, 0, 0) and 20 at (5, 0, 0) overlap by 0.04 m, more "
                       "than the tolerance of 0.005 m (1 pair overlaps that deep)",
                       0),
            0u)
      << text;
  // The same text on every rank.
  const auto lengths = test::allGather(*Tpetra::getDefaultComm(),
                                       std::vector<std::int64_t>{std::int64_t(text.size())});
  for (std::int64_t n : lengths) EXPECT_EQ(n, static_cast<std::int64_t>(text.size()));
}

}  // namespace
}  // namespace grains
