// The OpenMP block kernels of the contact operator against Tpetra's own
// sparse products, on 1, 2 and 3 ranks: with ghosts, the reverse Import that
// sums ghost columns into their owners and the Import back must give exactly
// what D^T's CrsMatrix apply gives.
#include "grains/constraint/contact_detection.hpp"
#include "grains/constraint/contact_system.hpp"
#include "mpi_test_support.hpp"

#include <gtest/gtest.h>
#include <Tpetra_Core.hpp>

#ifdef _OPENMP
#include <omp.h>
#endif

#include <random>

namespace grains {
namespace {

// Spheres (r = 0.1) on a jittered 10 x 10 x 3 lattice of spacing 0.21, so
// each is within the envelope of its neighbours (identical on every rank),
// with random orientations and anisotropic inertia so W has full 3x3 blocks.
std::vector<Body> packedSpheres(unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> jitter(-0.004, 0.004), unit(-1.0, 1.0);
  std::vector<Body> all;
  for (int z = 0; z < 3; ++z)
    for (int y = 0; y < 10; ++y)
      for (int x = 0; x < 10; ++x) {
        Body b = makeSphere(
            static_cast<GlobalId>(all.size()), 0.1, 1.0 + 0.5 * unit(rng),
            Vec3(0.21 * x + jitter(rng), 0.21 * y + jitter(rng), 0.105 + 0.21 * z + jitter(rng)));
        b.orientation =
            Quat(Eigen::AngleAxisd(unit(rng), Vec3(unit(rng), unit(rng), 1).normalized()));
        b.inertia = Vec3(0.01, 0.02, 0.03) * b.mass;
        all.push_back(b);
      }
  return all;
}

struct Fixture {
  RCP<const Comm> comm = Tpetra::getDefaultComm();
  BodyDomain domain;
  std::vector<Contact> contacts;
  AssemblySettings settings;
  ContactSystem sys;

  Fixture() : domain(comm, test::myBlock(packedSpheres(23), *Tpetra::getDefaultComm())) {
    domain.refreshGhosts(0.3);
    contacts = detectContacts(domain, {Wall::plane(Vec3::Zero(), Vec3::UnitZ())}, {0.05, 0.3});
    settings.dt = 1e-3;
    settings.friction = FrictionModel::Coulomb;
    settings.compliance = 1e-5;
    settings.damping_steps = 3.0;
    sys = assembleContactSystem(domain, contacts, settings);
  }
};

TEST(ContactOperatorDistributed, MatchesTpetraSparseProducts) {
  Fixture f;
  const long total = globalSum(*f.comm, static_cast<long>(f.contacts.size()));
  EXPECT_GT(total, 300) << "the packing should be dense enough to couple many bodies";
  if (f.comm->getSize() > 1) {
    EXPECT_FALSE(f.sys.Dt->getGraph()->getImporter().is_null())
        << "contacts with ghosts should need the Import path";
    EXPECT_EQ(f.sys.A->layout().importer, f.sys.Dt->getGraph()->getImporter());
  }

  Vector x(f.sys.constraint_map), z(f.sys.constraint_map);
  x.randomize();
  z.randomize();
  // Reference: Tpetra's own products, then the regularisation.
  Vector t(f.sys.body_map), wt(f.sys.body_map), reference(f.sys.constraint_map);
  f.sys.Dt->apply(x, t, Teuchos::TRANS);
  f.sys.mobility->apply(t, wt);
  f.sys.Dt->apply(wt, reference, Teuchos::NO_TRANS, f.settings.dt, 0.0);
  const double reg = 4.0 * f.settings.compliance / (f.settings.dt * (1.0 + 4.0 * 3.0));
  reference.update(reg, x, 1.0);

  // y = alpha A x + beta y through the block kernels.
  const double alpha = 0.7, beta = -0.4;
  Vector y(z, Teuchos::Copy);
  f.sys.A->apply(x, y, Teuchos::NO_TRANS, alpha, beta);
  // Applying twice reuses the work vectors and must give the same numbers.
  Vector y2(z, Teuchos::Copy);
  f.sys.A->apply(x, y2, Teuchos::NO_TRANS, alpha, beta);

  const auto yv = y.getData(), y2v = y2.getData(), rv = reference.getData(), zv = z.getData();
  double scale = 0.0;
  for (long i = 0; i < yv.size(); ++i) scale = std::max(scale, std::abs(rv[i]));
  scale = globalMax(*f.comm, scale);
  ASSERT_GT(scale, 0.0);
  for (long i = 0; i < yv.size(); ++i) {
    EXPECT_NEAR(yv[i], alpha * rv[i] + beta * zv[i], 1e-12 * scale) << "row " << i;
    EXPECT_EQ(yv[i], y2v[i]);
  }
}

// The largest |entry| over all ranks, for relative comparisons.
double globalScale(const Comm& comm, const Vector& v) {
  const auto data = v.getData();
  double scale = 0.0;
  for (long i = 0; i < data.size(); ++i) scale = std::max(scale, std::abs(data[i]));
  return globalMax(comm, scale);
}

void expectSameVectors(const Comm& comm, const Vector& got, const Vector& expected,
                       const char* what) {
  const double scale = globalScale(comm, expected);
  ASSERT_GT(scale, 0.0) << what;
  const auto g = got.getData(), e = expected.getData();
  ASSERT_EQ(g.size(), e.size()) << what;
  for (long i = 0; i < g.size(); ++i) EXPECT_NEAR(g[i], e[i], 1e-12 * scale) << what << " " << i;
}

TEST(ContactOperatorDistributed, BodyImpulsesAndRightHandSideMatchTpetraProducts) {
  Fixture f;
  Vector gamma(f.sys.constraint_map), reference(f.sys.body_map), got(f.sys.body_map);
  gamma.randomize();
  f.sys.Dt->apply(gamma, reference, Teuchos::TRANS);
  expectSameVectors(*f.comm, *bodyImpulses(f.sys, gamma), reference, "D gamma, body");

  Vector u(f.sys.body_map), rates(f.sys.constraint_map), rows(f.sys.constraint_map);
  u.randomize();
  f.sys.Dt->apply(u, rates, Teuchos::NO_TRANS, 0.3, 0.0);
  f.sys.A->applyDt(u, 0.3, rows);
  expectSameVectors(*f.comm, rows, rates, "0.3 D^T u, row");

  // b = dt D^T u_free + gap terms (overlaps relaxed, speculative gaps exact).
  f.sys.Dt->apply(*f.sys.u_free, rates, Teuchos::NO_TRANS, f.settings.dt, 0.0);
  const auto b = f.sys.b->getData(), r = rates.getData();
  for (std::size_t ci = 0; ci < f.contacts.size(); ++ci) {
    const double gap = f.contacts[ci].geometry.gap;
    const double term = gap < 0.0 ? 4.0 / (1.0 + 4.0 * 3.0) * gap : gap;
    EXPECT_NEAR(b[3 * static_cast<long>(ci)], r[3 * static_cast<long>(ci)] + term, 1e-12)
        << "normal row of contact " << ci;
    EXPECT_NEAR(b[3 * static_cast<long>(ci) + 1], r[3 * static_cast<long>(ci) + 1], 1e-12);
  }
}

// Assemblies that share AssemblyMaps reuse the maps and the Import plan while
// every rank's owned bodies and touched ghosts stay the same; when one rank's
// touched ghosts change, every rank rebuilds them (the build is collective)
// and the operator is still exact.
TEST(ContactOperatorDistributed, MapsAreReusedUntilSomeRankTouchesOtherGhosts) {
  Fixture f;
  AssemblyMaps maps;
  const ContactSystem first = assembleContactSystem(f.domain, f.contacts, f.settings, &maps);
  const ContactSystem again = assembleContactSystem(f.domain, f.contacts, f.settings, &maps);
  EXPECT_EQ(maps.builds(), 1);
  EXPECT_EQ(first.body_map.get(), again.body_map.get());
  EXPECT_EQ(first.Dt->getColMap().get(), again.Dt->getColMap().get());
  const auto importer = again.Dt->getGraph()->getImporter();
  if (f.comm->getSize() == 1) {
    EXPECT_TRUE(importer.is_null());
    EXPECT_EQ(again.Dt->getColMap().get(), again.body_map.get());
  } else {
    ASSERT_FALSE(importer.is_null());
    EXPECT_EQ(importer.get(), maps.importer().get());
  }

  // The last rank drops its contacts with ghosts: its column map shrinks.
  std::vector<Contact> fewer;
  const bool last = f.comm->getRank() == f.comm->getSize() - 1;
  for (const Contact& c : f.contacts) {
    const auto owned = static_cast<int>(f.domain.numOwned());
    if (last && (c.body_b >= owned || c.body_a >= owned)) continue;
    fewer.push_back(c);
  }
  const bool dropped = globalMax(*f.comm, static_cast<long>(fewer.size() != f.contacts.size())) > 0;
  const ContactSystem changed = assembleContactSystem(f.domain, fewer, f.settings, &maps);
  EXPECT_EQ(maps.builds(), dropped ? 2 : 1);
  if (last) {
    EXPECT_EQ(changed.Dt->getColMap()->getNodeNumElements(), 6 * f.domain.numOwned());
  }
  Vector x(changed.constraint_map), t(changed.body_map), wt(changed.body_map),
      reference(changed.constraint_map), y(changed.constraint_map);
  x.randomize();
  changed.Dt->apply(x, t, Teuchos::TRANS);
  changed.mobility->apply(t, wt);
  changed.Dt->apply(wt, reference, Teuchos::NO_TRANS, f.settings.dt, 0.0);
  const double reg = 4.0 * f.settings.compliance / (f.settings.dt * (1.0 + 4.0 * 3.0));
  reference.update(reg, x, 1.0);
  changed.A->apply(x, y);
  expectSameVectors(*f.comm, y, reference, "A x after the rebuild, row");
}

void expectSameBits(const Vector& got, const Vector& expected, const char* what) {
  const auto g = got.getData(), e = expected.getData();
  ASSERT_EQ(g.size(), e.size()) << what;
  for (long i = 0; i < g.size(); ++i) EXPECT_EQ(g[i], e[i]) << what << " " << i;
}

// Runs whose solver does not read the rows of D^T assemble no CSR copy of
// it: the operator, b, D gamma and diag(A) must be the same bits without it.
TEST(ContactOperatorDistributed, WithoutTheCsrCopyEverythingIsTheSameBits) {
  Fixture f;
  AssemblySettings lean = f.settings;
  lean.row_matrix = false;
  const ContactSystem sys = assembleContactSystem(f.domain, f.contacts, lean);
  EXPECT_TRUE(sys.Dt.is_null());
  EXPECT_TRUE(sys.factored->Dt.is_null());
  EXPECT_EQ(sys.A->layout().importer.is_null(), f.comm->getSize() == 1);
  ASSERT_TRUE(sys.constraint_map->isSameAs(*f.sys.constraint_map));
  EXPECT_EQ(sys.factored->diagonal, f.sys.factored->diagonal);
  expectSameBits(*sys.b, *f.sys.b, "b, row");

  Vector x(sys.constraint_map), lean_ax(sys.constraint_map), full_ax(sys.constraint_map);
  x.randomize();
  sys.A->apply(x, lean_ax);
  f.sys.A->apply(x, full_ax);
  expectSameBits(lean_ax, full_ax, "A x, row");
  expectSameBits(*bodyImpulses(sys, x), *bodyImpulses(f.sys, x), "D gamma, body");
}

#ifdef _OPENMP
TEST(ContactOperatorDistributed, ThreadCountDoesNotChangeTheResult) {
  Fixture f;
  Vector x(f.sys.constraint_map), one(f.sys.constraint_map), two(f.sys.constraint_map);
  x.randomize();
  const int saved = omp_get_max_threads();
  omp_set_num_threads(1);
  f.sys.A->apply(x, one);
  omp_set_num_threads(2);
  f.sys.A->apply(x, two);
  omp_set_num_threads(saved);
  // Each row and each body sums its own blocks in a fixed order: bitwise equal.
  const auto a = one.getData(), b = two.getData();
  for (long i = 0; i < a.size(); ++i) EXPECT_EQ(a[i], b[i]) << "row " << i;
}
#endif

}  // namespace
}  // namespace grains
