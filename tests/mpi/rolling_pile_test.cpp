// Run under mpirun with 1, 2 and 3 ranks: a pile with rolling and spinning
// resistance (six unknowns per contact, warm starts carried by migrating
// bodies) settles the same on any rank count as on one rank.
#include "grains/dynamics/time_stepper.hpp"
#include "grains/parallel/mpi_utils.hpp"
#include "mpi_test_support.hpp"

#include "open_box.hpp"

#include <gtest/gtest.h>
#include <Teuchos_DefaultMpiComm.hpp>
#include <Tpetra_Core.hpp>

#include <algorithm>
#include <map>
#include <random>

namespace grains {
namespace {

using test::allGather;
using test::myBlock;

std::vector<Body> randomSpheres(int n, double box, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> pos(0.12, box - 0.12), rad(0.06, 0.1), spin(-5.0, 5.0);
  std::vector<Body> all;
  while (static_cast<int>(all.size()) < n) {
    Body cand = makeSphere(static_cast<GlobalId>(all.size()), rad(rng), 1.0,
                           Vec3(pos(rng), pos(rng), 0.12 + 0.5 * pos(rng)));
    cand.angular_velocity = Vec3(spin(rng), spin(rng), spin(rng));
    bool ok = true;
    for (const Body& b : all)
      if ((b.position - cand.position).norm() < b.radius + cand.radius) ok = false;
    if (ok) all.push_back(cand);
  }
  return all;
}

struct PileState {
  std::map<GlobalId, std::array<double, 6>> state;  // position, angular velocity
  long contacts = 0;
  double max_residual = 0.0;
};

PileState settle(RCP<const Comm> comm, const std::vector<Body>& all, int steps) {
  ParallelSection parallel;
  parallel.repartition_every = 40;  // migrations carry the six-entry warm starts
  parallel.min_repartition_interval = 1;
  BodyDomain domain(comm, myBlock(all, *comm), parallel);
  const std::vector<Wall> walls = test::openBox(0.0, 1.5);
  StepperSettings settings;
  settings.assembly.dt = 2e-3;
  settings.assembly.motion.gravity = Vec3(0, 0, -9.81);
  settings.assembly.friction = FrictionModel::CoulombRolling;
  settings.assembly.rolling_friction = 0.05;
  settings.assembly.spinning_friction = 0.05;
  settings.mu = 0.4;
  settings.envelope = 0.02;
  SolverSettings solver;
  solver.tolerance = 1e-11;
  solver.max_iterations = 20000;
  TimeStepper stepper(
      settings, walls,
      SolverRegistry::instance().create("apgd", solver, FrictionModel::CoulombRolling));
  PileState out;
  for (int step = 0; step < steps; ++step) {
    const auto report = stepper.step(domain, step);
    out.contacts = report.contacts;
    out.max_residual = std::max(out.max_residual, report.solve.residual);
  }
  std::vector<std::int64_t> gids;
  std::vector<double> values;
  for (std::size_t i = 0; i < domain.numOwned(); ++i) {
    const Body& b = domain.bodies()[i];
    gids.push_back(b.gid);
    for (int k = 0; k < 3; ++k) values.push_back(b.position[k]);
    for (int k = 0; k < 3; ++k) values.push_back(b.angular_velocity[k]);
  }
  const auto all_gids = allGather(*comm, gids);
  const std::vector<double> all_values = allGather(*comm, values);
  for (std::size_t k = 0; k < all_gids.size(); ++k) {
    EXPECT_EQ(out.state.count(all_gids[k]), 0u) << "duplicate GID " << all_gids[k];
    std::array<double, 6> s;
    for (int j = 0; j < 6; ++j) s[static_cast<std::size_t>(j)] = all_values[6 * k + j];
    out.state[all_gids[k]] = s;
  }
  return out;
}

TEST(RollingPile, SameEvolutionOnAnyRankCount) {
  auto world = Tpetra::getDefaultComm();
  const auto all = randomSpheres(80, 1.5, 11);
  const int steps = 150;
  const PileState distributed = settle(world, all, steps);
  ASSERT_EQ(distributed.state.size(), all.size()) << "bodies lost or duplicated";

  MPI_Comm self_raw = MPI_COMM_NULL;
  MPI_Comm_split(rawMpiComm(*world), world->getRank() == 0 ? 0 : MPI_UNDEFINED, 0, &self_raw);
  if (world->getRank() != 0) return;
  auto self = rcp(new Teuchos::MpiComm<int>(Teuchos::opaqueWrapper(self_raw, MPI_Comm_free)));
  const PileState serial = settle(self, all, steps);
  EXPECT_GT(serial.contacts, 80) << "the pile should be in contact";
  EXPECT_EQ(serial.contacts, distributed.contacts);
  double position_diff = 0.0, spin_diff = 0.0;
  for (const auto& [gid, s] : serial.state) {
    const auto& d = distributed.state.at(gid);
    for (int k = 0; k < 3; ++k) {
      position_diff = std::max(position_diff, std::abs(s[k] - d[k]));
      spin_diff = std::max(spin_diff, std::abs(s[3 + k] - d[3 + k]));
    }
  }
  EXPECT_LT(position_diff, 1e-6) << "on " << world->getSize() << " ranks";
  EXPECT_LT(spin_diff, 1e-4) << "on " << world->getSize() << " ranks";
}

}  // namespace
}  // namespace grains
