// Outlets (docs/boundaries.md#outlets) on any rank count: the bodies that
// reached an outlet are removed, counted and their masses summed, the same
// bits on every rank count.
#include "grains/scenario/outlets.hpp"
#include "grains/geometry/shape_traits.hpp"
#include "mpi_test_support.hpp"

#include <Tpetra_Core.hpp>

namespace grains {
namespace {

TEST(Outlets, RemoveCountAndWeighTheBodiesThatReachedThem) {
  auto comm = Tpetra::getDefaultComm();
  // 40 spheres in a column, z = 0.1 k - 1, masses 0.1 + 0.01 k: those below
  // z = 0 (k < 10) go to the plane outlet, those in the box (k >= 35) to it.
  std::vector<Body> all;
  double below = 0.0, boxed = 0.0;
  for (int k = 0; k < 40; ++k) {
    const double mass = 0.1 + 0.01 * k;
    all.push_back(makeSphere(k, 0.01, mass, Vec3(0.0, 0.0, 0.1 * k - 1.0)));
    if (k < 10) below += mass;
    if (k >= 35) boxed += mass;
  }
  BodyDomain domain(comm, test::myBlock(all, *comm));
  OutletSpec floor;
  floor.kind = OutletSpec::Kind::Plane;
  floor.name = "floor";
  floor.point = Vec3(0, 0, -0.05);
  floor.normal = Vec3::UnitZ();
  OutletSpec bin;
  bin.kind = OutletSpec::Kind::Box;
  bin.name = "bin";
  bin.min = Vec3(-1, -1, 2.45);
  bin.max = Vec3(1, 1, 10);
  const std::vector<OutletDischarge> taken = dischargeOutlets(domain, {floor, bin});
  ASSERT_EQ(taken.size(), 2u);
  EXPECT_EQ(taken[0].count, 10);
  EXPECT_EQ(taken[1].count, 5);
  EXPECT_NEAR(taken[0].mass, below, 1e-14);
  EXPECT_NEAR(taken[1].mass, boxed, 1e-14);
  EXPECT_EQ(domain.globalBodyCount(), 25);
  for (std::size_t i = 0; i < domain.numOwned(); ++i) {
    const Body& b = domain.bodies()[i];
    EXPECT_FALSE(insideOutlet(floor, b.position) || insideOutlet(bin, b.position)) << b.gid;
  }
  // Emptied: nothing more to take.
  const std::vector<OutletDischarge> again = dischargeOutlets(domain, {floor, bin});
  EXPECT_EQ(again[0].count + again[1].count, 0);
  EXPECT_EQ(again[0].mass, 0.0);

  // The masses are the same bits as on one rank.
  MPI_Comm self_raw = MPI_COMM_NULL;
  MPI_Comm_split(rawMpiComm(*comm), comm->getRank() == 0 ? 0 : MPI_UNDEFINED, 0, &self_raw);
  if (comm->getRank() != 0) return;
  auto self = rcp(new Teuchos::MpiComm<int>(Teuchos::opaqueWrapper(self_raw, MPI_Comm_free)));
  BodyDomain serial(self, all);
  const std::vector<OutletDischarge> one = dischargeOutlets(serial, {floor, bin});
  EXPECT_EQ(one[0].mass, taken[0].mass);
  EXPECT_EQ(one[1].mass, taken[1].mass);
}

}  // namespace
}  // namespace grains
