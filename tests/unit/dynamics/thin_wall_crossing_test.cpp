// The tunnelling warning's detection: bodies whose centre passes through a
// thin wall in one step, counted, with the smallest GID and its wall.
#include "grains/dynamics/thin_wall_crossing.hpp"
#include "grains/geometry/shape_traits.hpp"

#include <gtest/gtest.h>
#include <Tpetra_Core.hpp>

namespace grains {
namespace {

TEST(ThinWallCrossing, FindsTheBodiesThatPassedThroughAndNamesTheFirst) {
  const auto comm = Tpetra::getDefaultComm();
  if (comm->getSize() != 1) GTEST_SKIP() << "one-rank test";
  const std::vector<Wall> walls = {
      Wall::plane(Vec3::Zero(), Vec3::UnitZ(), "floor"),
      Wall::disc(Vec3(0, 0, 1), Vec3::UnitZ(), 2.0, 0.5, "ring"),
      Wall::cone(Vec3(0, 0, 3), Vec3::UnitZ(), 0.5, 1.5, 1.0, "hopper")};
  std::vector<Body> before, after;
  auto add = [&](GlobalId gid, const Vec3& from, const Vec3& to) {
    before.push_back(makeSphere(gid, 0.05, 1.0, from));
    after.push_back(makeSphere(gid, 0.05, 1.0, to));
  };
  add(7, Vec3(1, 0, 1.1), Vec3(1, 0, 0.9));      // through the ring
  add(3, Vec3(0, 0, 1.1), Vec3(0, 0, 0.9));      // through its hole: fine
  add(5, Vec3(0.9, 0, 3.5), Vec3(1.1, 0, 3.5));  // through the hopper's band
  add(9, Vec3(0, 0, 0.1), Vec3(0, 0, -0.1));     // behind the floor: not a thin wall
  const ThinWallCrossings found = findThinWallCrossings(*comm, before, after, before.size(), walls);
  EXPECT_EQ(found.count, 2);
  EXPECT_EQ(found.first, 5);
  EXPECT_EQ(found.wall, 2);
  // Owned bodies only: a ghost's crossing is its owner's to report.
  const ThinWallCrossings owned_only = findThinWallCrossings(*comm, before, after, 1, walls);
  EXPECT_EQ(owned_only.count, 1);
  EXPECT_EQ(owned_only.first, 7);
  EXPECT_EQ(owned_only.wall, 1);
  // Nothing crossed: no body named.
  const ThinWallCrossings none = findThinWallCrossings(*comm, before, before, before.size(), walls);
  EXPECT_EQ(none.count, 0);
  EXPECT_EQ(none.first, kNoBody);
}

}  // namespace
}  // namespace grains
