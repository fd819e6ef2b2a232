// Pouring on any rank count (docs/boundaries.md#pouring): the inserted bodies
// overlap no body of any rank nor each other, have unique ids, come at the
// configured rate, and are the same bodies at the same places as on one rank.
#include "grains/scenario/insertion.hpp"
#include "grains/geometry/shape_traits.hpp"
#include "mpi_test_support.hpp"

#include <Tpetra_Core.hpp>

#include <map>

namespace grains {
namespace {

constexpr double kRadius = 0.01;

/// A dense bed of existing bodies filling the lower half of the pour
/// region: most candidate places overlap a body, owned by any rank.
std::vector<Body> existingBed() {
  std::vector<Body> all;
  GlobalId gid = 0;
  for (int i = 0; i < 10; ++i)
    for (int j = 0; j < 10; ++j)
      for (int k = 0; k < 3; ++k)
        all.push_back(makeSphere(gid++, kRadius, 1.0,
                                 Vec3(0.021 * i + 0.01, 0.021 * j + 0.01, 0.021 * k + 0.01)));
  return all;
}

InsertionSource source() {
  InsertionSource s;
  s.name = "hopper";
  s.bodies.shape = ShapeKind::Sphere;
  s.bodies.radius = kRadius;
  s.bodies.radius_spread = 0.2;
  s.bodies.density = 1000.0;
  s.region.kind = Region::Kind::Box;
  s.region.min_corner = Vec3(0.0, 0.0, 0.0);
  s.region.max_corner = Vec3(0.21, 0.21, 0.16);
  s.rate = 2000.0;  // 2 bodies per step of 1 ms
  s.end = 0.05;     // 100 bodies
  s.velocity = Vec3(0.0, 0.0, -1.0);
  s.velocity_spread = 0.1;
  s.attempts = 100;
  return s;
}

struct Sphere {
  Vec3 position;
  double radius;
};

/// Pours for `steps` steps of 1 ms on `comm` (bodies never move) and
/// returns every body by id, gathered on every rank (an id owned twice is a
/// test failure).
std::map<GlobalId, Sphere> pour(RCP<const Comm> comm, long steps, long& inserted, long& missed) {
  BodyDomain domain(comm, test::myBlock(existingBed(), *comm));
  inserted = missed = 0;
  for (long step = 1; step <= steps; ++step) {
    const InsertionResult r = insertBodies(domain, {source()}, 7, step, 1e-3);
    inserted += r.inserted[0];
    missed += r.missed;
    domain.migrate();  // as the step would
  }
  std::vector<double> rows;
  for (std::size_t i = 0; i < domain.numOwned(); ++i) {
    const Body& b = domain.bodies()[i];
    rows.insert(rows.end(), {static_cast<double>(b.gid), b.position.x(), b.position.y(),
                             b.position.z(), b.radius});
  }
  const std::vector<double> all = test::allGather(domain.comm(), rows);
  std::map<GlobalId, Sphere> out;
  for (std::size_t k = 0; k + 4 < all.size(); k += 5) {
    const auto gid = static_cast<GlobalId>(all[k]);
    EXPECT_EQ(out.count(gid), 0u) << "body " << gid << " twice";
    out[gid] = Sphere{Vec3(all[k + 1], all[k + 2], all[k + 3]), all[k + 4]};
  }
  return out;
}

TEST(Insertion, CountsFollowTheRateAndTheEnd) {
  InsertionSource s = source();
  EXPECT_EQ(insertedBy(s, -1e-3, 1e-3), 0);
  EXPECT_EQ(insertedBy(s, 0.0, 1e-3), 2);
  EXPECT_EQ(insertedBy(s, 0.0299, 1e-3), 2 * 30);  // t = 29.9 ms: the step starting at 29 ms
  EXPECT_EQ(insertedBy(s, 1.0, 1e-3), 100);        // capped at rate * (end - start)
  s.every = 0.01;                                  // batches of 20 every 10 ms
  EXPECT_EQ(insertedBy(s, 0.0, 1e-3), 20);
  EXPECT_EQ(insertedBy(s, 0.009, 1e-3), 20);
  EXPECT_EQ(insertedBy(s, 0.01, 1e-3), 40);
  s.end.reset();
  s.count = 30;
  s.start = 0.5;
  EXPECT_EQ(insertedBy(s, 0.49, 1e-3), 0);
  EXPECT_EQ(insertedBy(s, 0.5, 1e-3), 20);
  EXPECT_EQ(insertedBy(s, 0.6, 1e-3), 30);
}

TEST(Insertion, NoOverlapsUniqueIdsAndTheSameBodiesOnAnyRankCount) {
  auto world = Tpetra::getDefaultComm();
  long inserted = 0, missed = 0;
  const auto bodies = pour(world, 60, inserted, missed);
  EXPECT_EQ(inserted + missed, 100);  // 2 per step for 50 steps, then none
  EXPECT_EQ(missed, 0) << "the upper part of the region has room for every body";
  const auto bed = static_cast<GlobalId>(existingBed().size());
  ASSERT_EQ(bodies.size(), static_cast<std::size_t>(bed + inserted));
  long poured = 0;
  for (const auto& [gid, b] : bodies) {
    if (gid < bed) continue;
    ++poured;
    // Ids from the source's own range; radii r (1 +- 0.2); inside the region.
    EXPECT_GE(gid, insertedBodyId(0, 0));
    EXPECT_LT(gid, insertedBodyId(0, 100));
    EXPECT_GE(b.radius, 0.8 * kRadius);
    EXPECT_LE(b.radius, 1.2 * kRadius);
    EXPECT_GE(b.position.z(), b.radius);
    EXPECT_LE(b.position.z(), 0.16 - b.radius);
  }
  EXPECT_EQ(poured, inserted);
  // No poured body overlaps another body, poured or not (on whatever rank
  // that one lives).
  double worst = 0.0;
  for (auto a = bodies.begin(); a != bodies.end(); ++a)
    for (auto b = std::next(a); b != bodies.end(); ++b) {
      if (a->first < bed && b->first < bed) continue;
      const double gap =
          (a->second.position - b->second.position).norm() - a->second.radius - b->second.radius;
      worst = std::max(worst, -gap);
    }
  EXPECT_EQ(worst, 0.0) << "poured bodies overlap by up to " << worst << " m";

  // The same bodies at the same places as a pour on one rank.
  MPI_Comm self_raw = MPI_COMM_NULL;
  MPI_Comm_split(rawMpiComm(*world), world->getRank() == 0 ? 0 : MPI_UNDEFINED, 0, &self_raw);
  if (world->getRank() != 0) return;
  auto self = rcp(new Teuchos::MpiComm<int>(Teuchos::opaqueWrapper(self_raw, MPI_Comm_free)));
  long serial_inserted = 0, serial_missed = 0;
  const auto serial = pour(self, 60, serial_inserted, serial_missed);
  EXPECT_EQ(serial_inserted, inserted);
  ASSERT_EQ(serial.size(), bodies.size());
  for (const auto& [gid, b] : serial) {
    ASSERT_EQ(bodies.count(gid), 1u) << "body " << gid;
    EXPECT_EQ(b.position, bodies.at(gid).position) << "body " << gid;
    EXPECT_EQ(b.radius, bodies.at(gid).radius) << "body " << gid;
  }
}

}  // namespace
}  // namespace grains
