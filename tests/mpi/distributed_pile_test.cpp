// Run under mpirun with 1, 2 and 3 ranks: the halo finds every pair exactly
// once, bodies are neither lost nor duplicated by migration, and a settling
// pile evolves the same on any rank count (compared against a one-rank run
// on a sub-communicator of rank 0).
#include "grains/constraint/contact_detection.hpp"
#include "grains/dynamics/time_stepper.hpp"
#include "grains/parallel/mpi_utils.hpp"
#include "mpi_test_support.hpp"

#include "open_box.hpp"

#include <gtest/gtest.h>
#include <Teuchos_DefaultMpiComm.hpp>
#include <Tpetra_Core.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <random>
#include <set>
#include <tuple>

namespace grains {
namespace {

using test::allGather;
using test::myBlock;

// Deterministic non-overlapping random spheres in a box (same on every rank).
std::vector<Body> randomSpheres(int n, double box, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> pos(0.12, box - 0.12), rad(0.06, 0.1);
  std::vector<Body> all;
  while (static_cast<int>(all.size()) < n) {
    const Body cand = makeSphere(static_cast<GlobalId>(all.size()), rad(rng), 1.0,
                                 Vec3(pos(rng), pos(rng), 0.12 + 0.5 * pos(rng)));
    bool ok = true;
    for (const Body& b : all)
      if ((b.position - cand.position).norm() < b.radius + cand.radius) ok = false;
    if (ok) all.push_back(cand);
  }
  return all;
}

class PartitionerParam : public ::testing::TestWithParam<PartitionerKind> {};

TEST_P(PartitionerParam, HaloFindsEveryPairExactlyOnce) {
  auto comm = Tpetra::getDefaultComm();
  const auto all = randomSpheres(500, 2.0, 17);
  ParallelSection parallel;
  parallel.partitioner = GetParam();
  BodyDomain domain(comm, myBlock(all, *comm), parallel);
  // The partition really splits the bodies.
  EXPECT_EQ(domain.globalBodyCount(), 500);
  if (comm->getSize() > 1) {
    EXPECT_LT(domain.numOwned(), 500u);
  }
  const double envelope = 0.05;
  domain.refreshGhosts(2 * 0.1 + envelope);
  if (comm->getSize() > 1) {
    EXPECT_GT(domain.numGhosts(), 0u);
  }
  const auto contacts = detectContacts(domain, {}, {envelope, 0.0});
  std::vector<std::int64_t> keys;
  for (const auto& c : contacts) {
    keys.push_back(c.key.a);
    keys.push_back(c.key.b);
  }
  const auto gathered = allGather(*comm, keys);
  std::multiset<std::pair<std::int64_t, std::int64_t>> found;
  for (std::size_t k = 0; k < gathered.size(); k += 2) found.emplace(gathered[k], gathered[k + 1]);
  std::multiset<std::pair<std::int64_t, std::int64_t>> expected;
  for (std::size_t i = 0; i < all.size(); ++i)
    for (std::size_t j = i + 1; j < all.size(); ++j)
      if (sphereSphere(all[i].position, all[i].radius, all[j].position, all[j].radius).gap <=
          envelope)
        expected.emplace(all[i].gid, all[j].gid);
  EXPECT_GT(expected.size(), 100u);
  EXPECT_EQ(found, expected);
}

struct PileState {
  std::map<GlobalId, Vec3> positions;
  long contacts = 0;
  double max_residual = 0.0;
};

PileState settle(RCP<const Comm> comm, const std::vector<Body>& all, int steps,
                 PartitionerKind partitioner, BodyOrder order = BodyOrder::Gid) {
  ParallelSection parallel;
  parallel.partitioner = partitioner;
  parallel.body_order = order;
  parallel.repartition_every = 50;  // many repartitions and migrations
  parallel.min_repartition_interval = 1;
  BodyDomain domain(comm, myBlock(all, *comm), parallel);
  const std::vector<Wall> walls = test::openBox(0.0, 2.0);
  StepperSettings settings;
  settings.assembly.dt = 2e-3;
  settings.assembly.motion.gravity = Vec3(0, 0, -9.81);
  settings.assembly.friction = FrictionModel::Coulomb;
  settings.mu = 0.3;
  settings.envelope = 0.02;
  SolverSettings solver;
  solver.tolerance = 1e-11;
  solver.max_iterations = 5000;
  TimeStepper stepper(settings, walls, SolverRegistry::instance().create("bbpgd", solver));
  PileState state;
  for (int step = 0; step < steps; ++step) {
    const auto report = stepper.step(domain, step);
    state.contacts = report.contacts;
    state.max_residual = std::max(state.max_residual, report.solve.residual);
  }
  std::vector<std::int64_t> gids;
  std::vector<double> xs;
  for (std::size_t i = 0; i < domain.numOwned(); ++i) {
    gids.push_back(domain.bodies()[i].gid);
    for (int k = 0; k < 3; ++k) xs.push_back(domain.bodies()[i].position[k]);
  }
  const auto all_gids = allGather(*comm, gids);
  // Positions travel as raw bits through the int64 gather.
  std::vector<std::int64_t> bits(xs.size());
  std::memcpy(bits.data(), xs.data(), xs.size() * sizeof(double));
  const auto all_bits = allGather(*comm, bits);
  std::vector<double> all_x(all_bits.size());
  std::memcpy(all_x.data(), all_bits.data(), all_bits.size() * sizeof(double));
  for (std::size_t k = 0; k < all_gids.size(); ++k) {
    EXPECT_EQ(state.positions.count(all_gids[k]), 0u) << "duplicate GID " << all_gids[k];
    state.positions[all_gids[k]] = Vec3(all_x[3 * k], all_x[3 * k + 1], all_x[3 * k + 2]);
  }
  return state;
}

// A pile settled on the world in `order` against the same pile on one rank
// in GID order: the same contacts, positions within the solver's accuracy.
void expectSameAsOneRank(PartitionerKind partitioner, BodyOrder order) {
  auto world = Tpetra::getDefaultComm();
  const auto all = randomSpheres(150, 2.0, 5);
  const int steps = 200;
  const PileState distributed = settle(world, all, steps, partitioner, order);
  ASSERT_EQ(distributed.positions.size(), all.size()) << "bodies lost or duplicated";
  EXPECT_LT(distributed.max_residual, 1e-11);

  MPI_Comm self_raw = MPI_COMM_NULL;
  MPI_Comm_split(rawMpiComm(*world), world->getRank() == 0 ? 0 : MPI_UNDEFINED, 0, &self_raw);
  if (world->getRank() != 0) return;
  auto self = rcp(new Teuchos::MpiComm<int>(Teuchos::opaqueWrapper(self_raw, MPI_Comm_free)));
  const PileState serial = settle(self, all, steps, partitioner, BodyOrder::Gid);
  EXPECT_GT(serial.contacts, 150) << "the pile should be in contact after 200 steps";
  EXPECT_EQ(serial.contacts, distributed.contacts);
  double max_diff = 0.0;
  for (const auto& [gid, x] : serial.positions)
    max_diff = std::max(max_diff, (x - distributed.positions.at(gid)).norm());
  EXPECT_LT(max_diff, 1e-6) << "positions differ between 1 and " << world->getSize()
                            << " ranks (body order "
                            << (order == BodyOrder::Spatial ? "spatial" : "gid") << ")";
}

TEST_P(PartitionerParam, SameEvolutionOnAnyRankCount) {
  expectSameAsOneRank(GetParam(), BodyOrder::Gid);
}

// parallel.body_order: spatial keeps each rank's bodies along a Morton curve:
// neighbours in space are neighbours in memory, whatever order the input had,
// and the order depends only on the bodies (not on the order they came in).
TEST(SpatialBodyOrder, NeighboursInSpaceAreNearInMemory) {
  auto comm = Tpetra::getDefaultComm();
  const auto all = randomSpheres(500, 2.0, 23);  // GIDs in random spatial order
  ParallelSection parallel;
  parallel.body_order = BodyOrder::Spatial;
  BodyDomain spatial(comm, myBlock(all, *comm), parallel);
  std::vector<Body> reversed(all.rbegin(), all.rend());
  BodyDomain from_reversed(comm, myBlock(reversed, *comm), parallel);
  parallel.body_order = BodyOrder::Gid;
  BodyDomain by_gid(comm, myBlock(all, *comm), parallel);

  auto meanStep = [](const BodyDomain& d) {
    double sum = 0.0;
    for (std::size_t i = 1; i < d.numOwned(); ++i)
      sum += (d.bodies()[i].position - d.bodies()[i - 1].position).norm();
    return d.numOwned() > 1 ? sum / static_cast<double>(d.numOwned() - 1) : 0.0;
  };
  ASSERT_EQ(spatial.numOwned(), by_gid.numOwned());
  ASSERT_GT(spatial.numOwned(), 100u);
  std::set<GlobalId> spatial_gids, gid_gids;
  for (std::size_t i = 0; i < spatial.numOwned(); ++i) {
    spatial_gids.insert(spatial.bodies()[i].gid);
    gid_gids.insert(by_gid.bodies()[i].gid);
    EXPECT_EQ(spatial.bodies()[i].gid, from_reversed.bodies()[i].gid) << "at " << i;
  }
  EXPECT_EQ(spatial_gids, gid_gids) << "the order must not change what a rank owns";
  EXPECT_LT(meanStep(spatial), 0.5 * meanStep(by_gid))
      << "spatial " << meanStep(spatial) << " m between consecutive bodies, by GID "
      << meanStep(by_gid) << " m";

  // The order follows the motion, at the steps that are multiples of
  // sort_every: a body moved to the other end of this rank's bodies moves
  // there in memory too.
  Body& first = spatial.bodies()[0];
  const GlobalId moved = first.gid;
  first.position = spatial.bodies()[spatial.numOwned() - 1].position + Vec3(0.0, 0.0, 1e-3);
  spatial.maybeSortSpatially(1);  // not a multiple of sort_every (20): kept
  EXPECT_EQ(spatial.bodies()[0].gid, moved);
  spatial.maybeSortSpatially(40);
  EXPECT_NE(spatial.bodies()[0].gid, moved);
  EXPECT_TRUE(spatial.bodies()[spatial.numOwned() - 2].gid == moved ||
              spatial.bodies()[spatial.numOwned() - 1].gid == moved)
      << "the moved body should sit at the end of this rank's order";
}

// parallel.body_order: auto (the default) takes the spatial order when bodies
// consecutive in GID order lie far apart, and keeps GID order for input that
// is in spatial order already.
TEST(SpatialBodyOrder, AutoDecidesFromTheInputOrder) {
  auto comm = Tpetra::getDefaultComm();
  std::vector<Body> scattered = randomSpheres(500, 2.0, 23);
  // The same bodies renumbered along a snake through rows of 0.2 m cells
  // (x back and forth within a row, rows back and forth within a layer), as
  // a lattice generator or a file written in spatial order lists them.
  std::vector<Body> in_order = scattered;
  auto snake = [](const Body& b) {
    const auto z = static_cast<long>(std::floor(b.position.z() / 0.2));
    const long y_cell = static_cast<long>(std::floor(b.position.y() / 0.2));
    const long y = z % 2 == 0 ? y_cell : -y_cell;
    const double x = (y_cell + z) % 2 == 0 ? b.position.x() : -b.position.x();
    return std::make_tuple(z, y, x);
  };
  std::sort(in_order.begin(), in_order.end(),
            [&snake](const Body& a, const Body& b) { return snake(a) < snake(b); });
  for (std::size_t i = 0; i < in_order.size(); ++i) in_order[i].gid = static_cast<GlobalId>(i);
  const ParallelSection defaults;
  ASSERT_EQ(defaults.body_order, BodyOrder::Auto);
  BodyDomain from_scattered(comm, myBlock(scattered, *comm), defaults);
  BodyDomain from_ordered(comm, myBlock(in_order, *comm), defaults);
  EXPECT_EQ(from_scattered.bodyOrder(), BodyOrder::Spatial);
  EXPECT_EQ(from_ordered.bodyOrder(), BodyOrder::Gid);
  EXPECT_TRUE(from_scattered.layout().spatial_order);
  EXPECT_FALSE(from_ordered.layout().spatial_order);
}

// The same with the spatial body order on the world: the order changes only
// the order of the sums, and contacts are found in body order, not key order.
TEST(SpatialBodyOrder, SameEvolutionAsGidOrder) {
  expectSameAsOneRank(PartitionerKind::Rcb, BodyOrder::Spatial);
}

INSTANTIATE_TEST_SUITE_P(DistributedPile, PartitionerParam,
                         ::testing::Values(PartitionerKind::Rcb, PartitionerKind::MultiJagged));

}  // namespace
}  // namespace grains
