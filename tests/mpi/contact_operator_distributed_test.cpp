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
