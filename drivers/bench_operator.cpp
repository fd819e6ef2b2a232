// Throughput of the contact operator A = dt D^T W D + eps I against the memory
// bandwidth measured in the same process (a STREAM-like triad), with 1 and 2
// OpenMP threads, and against Tpetra's own CrsMatrix products. Runs are
// interleaved (1 thread, 2 threads, Tpetra, 1 thread, ...) because the
// machines here are noisy; medians and minima are printed, ratios from the
// same run.
//
//   bench_operator [--bodies N] [--repeats R] [--applies K] [--stream-mib M]
// Under mpirun the bodies are split between the ranks (Zoltan2).
#include "grains/constraint/contact_detection.hpp"
#include "grains/constraint/contact_system.hpp"
#include "grains/parallel/mpi_startup.hpp"
#include "grains/parallel/mpi_utils.hpp"

#include <mpi.h>
#include <Tpetra_Core.hpp>

#ifdef _OPENMP
#include <omp.h>
#endif

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using namespace grains;

struct Options {
  long bodies = 100000;
  int repeats = 7;
  int applies = 20;
  long stream_mib = 256;
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string key = argv[i];
    if (key == "--help" || key == "-h") {
      std::printf(
          "bench_operator [--bodies N=100000] [--repeats R=7] [--applies K=20] "
          "[--stream-mib M=256]\n");
      std::exit(0);
    }
    if (i + 1 >= argc) throw std::invalid_argument("option " + key + " needs a value");
    const std::string value = argv[++i];
    if (key == "--bodies")
      o.bodies = std::stol(value);
    else if (key == "--repeats")
      o.repeats = std::stoi(value);
    else if (key == "--applies")
      o.applies = std::stoi(value);
    else if (key == "--stream-mib")
      o.stream_mib = std::stol(value);
    else
      throw std::invalid_argument("unknown option " + key + " (see --help)");
  }
  if (o.bodies < 8 || o.repeats < 1 || o.applies < 1 || o.stream_mib < 1)
    throw std::invalid_argument("--bodies >= 8, --repeats, --applies, --stream-mib >= 1");
  return o;
}

// Spheres (r = 0.1) on a jittered simple cubic lattice of spacing 0.2: every
// sphere within the envelope of its six neighbours, like a dense pile (about
// three frictional contacts, nine rows, per sphere). Ten layers high; this
// rank's share is its slab of the global index range.
std::vector<Body> latticeSlab(long total, const Comm& comm) {
  const long layers = 10;
  const long side = static_cast<long>(std::ceil(std::sqrt(static_cast<double>(total) / layers)));
  const long rank = comm.getRank(), ranks = comm.getSize();
  const long first = total * rank / ranks, last = total * (rank + 1) / ranks;
  std::vector<Body> out;
  for (long k = first; k < last; ++k) {
    std::mt19937_64 rng(static_cast<std::uint64_t>(k) * 7919u + 1u);
    std::uniform_real_distribution<double> jitter(-0.002, 0.002), unit(-1.0, 1.0);
    const long x = k % side, y = (k / side) % side, z = k / (side * side);
    Body b = makeSphere(
        static_cast<GlobalId>(k), 0.1, 6.28,
        Vec3(0.2 * static_cast<double>(x) + jitter(rng), 0.2 * static_cast<double>(y) + jitter(rng),
             0.1 + 0.2 * static_cast<double>(z) + jitter(rng)));
    b.velocity = Vec3(unit(rng), unit(rng), unit(rng));
    out.push_back(b);
  }
  return out;
}

void setThreads(int threads) {
#ifdef _OPENMP
  omp_set_num_threads(threads);
#else
  (void)threads;
#endif
}

int maxThreads() {
#ifdef _OPENMP
  return omp_get_max_threads();
#else
  return 1;
#endif
}

// Slowest rank's time of fn(), after a barrier.
template <typename Fn>
double timed(const Comm& comm, Fn fn) {
  comm.barrier();
  const double start = MPI_Wtime();
  fn();
  return globalMax(comm, MPI_Wtime() - start);
}

// STREAM triad a = b + s c over this rank's arrays: bytes counted as STREAM
// does (two reads, one write per element), summed over the ranks.
double triadSeconds(std::vector<double>& a, const std::vector<double>& b,
                    const std::vector<double>& c) {
  const long n = static_cast<long>(a.size());
  double* pa = a.data();
  const double* pb = b.data();
  const double* pc = c.data();
  const double start = MPI_Wtime();
#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; ++i) pa[i] = pb[i] + 3.0 * pc[i];
  return MPI_Wtime() - start;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

double minimum(const std::vector<double>& v) { return *std::min_element(v.begin(), v.end()); }

}  // namespace

int main(int argc, char** argv) {
  grains::preferQuickSingletonStartup();  // before MPI_Init
  Tpetra::ScopeGuard scope(&argc, &argv);
  auto comm = Tpetra::getDefaultComm();
  try {
    const Options opt = parse(argc, argv);
    const bool root = comm->getRank() == 0;
    const int threads_available = std::max(2, maxThreads());

    BodyDomain domain(comm, latticeSlab(opt.bodies, *comm));
    domain.refreshGhosts(0.2 + 0.02);
    const std::vector<Wall> walls{Wall::plane(Vec3::Zero(), Vec3::UnitZ())};
    const auto contacts = detectContacts(domain, walls, {0.02, 0.3});
    AssemblySettings settings;
    settings.dt = 5e-3;
    settings.friction = FrictionModel::Coulomb;
    const ContactSystem sys = assembleContactSystem(domain, contacts, settings);
    const long rows = globalSum(*comm, static_cast<long>(sys.constraint_map->getNodeNumElements()));
    const double bytes =
        static_cast<double>(globalSum(*comm, static_cast<long>(sys.A->bytesPerApply())));

    Vector x(sys.constraint_map), y(sys.constraint_map);
    x.randomize();
    Vector t(sys.body_map), wt(sys.body_map);
    auto tpetraApply = [&] {
      sys.Dt->apply(x, t, Teuchos::TRANS);
      sys.mobility->apply(t, wt);
      sys.Dt->apply(wt, y, Teuchos::NO_TRANS, settings.dt, 0.0);
    };

    const std::size_t stream_n =
        static_cast<std::size_t>(opt.stream_mib) * 1024 * 1024 / (3 * sizeof(double));
    std::vector<double> a(stream_n, 0.0), b(stream_n, 1.0), c(stream_n, 2.0);
    const double stream_bytes =
        static_cast<double>(globalSum(*comm, static_cast<long>(3 * sizeof(double) * stream_n)));

    // Warm up every path once (first touch, Import buffers).
    for (int threads : {1, 2}) {
      setThreads(threads);
      sys.A->apply(x, y);
      triadSeconds(a, b, c);
    }
    tpetraApply();

    std::vector<double> apply_s[3], stream_s[2];
    for (int rep = 0; rep < opt.repeats; ++rep) {
      for (int threads : {1, 2}) {
        setThreads(threads);
        const auto slot = static_cast<std::size_t>(threads - 1);
        stream_s[slot].push_back(timed(*comm, [&] { triadSeconds(a, b, c); }));
        apply_s[slot].push_back(timed(*comm,
                                      [&] {
                                        for (int k = 0; k < opt.applies; ++k) sys.A->apply(x, y);
                                      }) /
                                opt.applies);
      }
      setThreads(1);
      apply_s[2].push_back(timed(*comm,
                                 [&] {
                                   for (int k = 0; k < opt.applies; ++k) tpetraApply();
                                 }) /
                           opt.applies);
    }
    setThreads(threads_available);

    if (root) {
      std::printf("bodies %ld  ranks %d  constraint rows %ld  bytes/apply (model) %.1f MB\n",
                  opt.bodies, comm->getSize(), rows, bytes / 1e6);
      std::printf("stream triad arrays %ld MiB per rank, %d repeats x %d applies, interleaved\n\n",
                  opt.stream_mib, opt.repeats, opt.applies);
      std::printf("%-28s %12s %12s %12s %12s\n", "case", "ms med", "ms min", "GB/s med",
                  "GB/s max");
      const char* names[3] = {"A apply, 1 thread", "A apply, 2 threads",
                              "Tpetra D^T W D, 1 thread"};
      for (int k = 0; k < 3; ++k)
        std::printf("%-28s %12.3f %12.3f %12.2f %12.2f\n", names[k], 1e3 * median(apply_s[k]),
                    1e3 * minimum(apply_s[k]), bytes / median(apply_s[k]) / 1e9,
                    bytes / minimum(apply_s[k]) / 1e9);
      for (int k = 0; k < 2; ++k)
        std::printf("%-28s %12.3f %12.3f %12.2f %12.2f\n",
                    k == 0 ? "stream triad, 1 thread" : "stream triad, 2 threads",
                    1e3 * median(stream_s[k]), 1e3 * minimum(stream_s[k]),
                    stream_bytes / median(stream_s[k]) / 1e9,
                    stream_bytes / minimum(stream_s[k]) / 1e9);
      std::printf("\n");
      for (int k = 0; k < 2; ++k) {
        const double frac_med = median(stream_s[k]) / median(apply_s[k]) * bytes / stream_bytes;
        const double frac_best = minimum(stream_s[k]) / minimum(apply_s[k]) * bytes / stream_bytes;
        std::printf("fraction of triad bandwidth, %d thread%s: median %.2f, best %.2f\n", k + 1,
                    k ? "s" : "", frac_med, frac_best);
      }
      std::printf("2 threads / 1 thread speedup of the apply: median %.2f, best %.2f\n",
                  median(apply_s[0]) / median(apply_s[1]),
                  minimum(apply_s[0]) / minimum(apply_s[1]));
      std::printf("contact-frame kernels / Tpetra products, 1 thread: median %.2f, best %.2f\n",
                  median(apply_s[2]) / median(apply_s[0]),
                  minimum(apply_s[2]) / minimum(apply_s[0]));
    }
  } catch (const std::exception& e) {
    if (comm->getRank() == 0) std::fprintf(stderr, "bench_operator: %s\n", e.what());
    return 1;
  }
  return 0;
}
