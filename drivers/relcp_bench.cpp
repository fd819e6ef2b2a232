// Benchmarks of the constraint methods of Palmer et al. (2025) (single deepest point,
// LCP-MS multisphere, ReLCP) on the paper's test cases, printed as Markdown
// tables for docs/relcp.md. Run `relcp_bench --help`.
//   ellipsoids  section 4.2, Table 1: dt refinement of ReLCP and sub-sphere
//               refinement of LCP-MS for two sliding ellipsoids.
//   compaction  section 4.2, Table 2: constraint counts and time per step of
//               each method on a compacted ellipsoid suspension.
//   chainmail   section 4.4: true ring-ring overlap of each method.
#include "grains/dynamics/time_stepper.hpp"
#include "grains/geometry/contact_geometry.hpp"
#include "grains/parallel/mpi_startup.hpp"
#include "grains/parallel/mpi_utils.hpp"

#include <Tpetra_Core.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using namespace grains;

struct Options {
  std::map<std::string, std::string> values;
  std::string get(const std::string& key, const std::string& fallback) const {
    const auto it = values.find(key);
    return it == values.end() ? fallback : it->second;
  }
  double number(const std::string& key, double fallback) const {
    return std::stod(get(key, std::to_string(fallback)));
  }
  std::vector<double> list(const std::string& key, const std::string& fallback) const {
    std::vector<double> out;
    std::stringstream in(get(key, fallback));
    std::string item;
    while (std::getline(in, item, ',')) out.push_back(std::stod(item));
    return out;
  }
};

std::string g_solver = "bbpgd";

std::unique_ptr<Solver> makeSolver(double tolerance, const std::string& name = g_solver) {
  SolverSettings s;
  s.tolerance = tolerance;
  s.max_iterations = 100000;
  return SolverRegistry::instance().create(name, s);
}

StepperSettings overdamped(double dt, ConstraintMethod method, int subspheres, double tolerance) {
  StepperSettings s;
  s.assembly.dt = dt;
  s.assembly.motion.overdamped = true;
  s.assembly.motion.drag = 1.0;
  s.method = method;
  s.subspheres = subspheres;
  s.overlap_tolerance = tolerance;
  s.max_recursions = 100;
  s.envelope = 0.05;
  return s;
}

std::vector<Body> ownedBodies(const BodyDomain& domain) {
  return std::vector<Body>(domain.bodies().begin(),
                           domain.bodies().begin() + static_cast<long>(domain.numOwned()));
}

// ---------------------------------------------------------------- ellipsoids
// Two ellipsoids of semi-axes (1, 1, 2) in the x-y plane, long axes rotated
// 45 degrees, centres offset by `offset` (Palmer et al. (2025): 1) along x, pushed
// together along y by unit forces, local drag xi = 1 (Palmer et al. (2025) section 4.2).
// They start 0.5 apart.
std::vector<Body> twoEllipsoids(double offset) {
  const Quat q = Quat(Eigen::AngleAxisd(kPi / 4, Vec3::UnitZ())) *
                 Quat::FromTwoVectors(Vec3::UnitZ(), Vec3::UnitX());
  Body lower = makeEllipsoid(0, Vec3(1, 1, 2), 1.0, Vec3(-0.5 * offset, 0, 0), q);
  Body upper = makeEllipsoid(1, Vec3(1, 1, 2), 1.0, Vec3(0.5 * offset, 4, 0), q);
  // Lower the upper one until the gap is 0.5.
  for (int it = 0; it < 60; ++it) {
    const double gap = ellipsoidPair(lower, upper).gap;
    upper.position.y() -= 0.5 * (gap - 0.5);
  }
  lower.external_force = Vec3(0, 1, 0);
  upper.external_force = Vec3(0, -1, 0);
  return {lower, upper};
}

struct Trajectory {
  std::vector<Vec3> samples;  // (x, y, angle) of the upper ellipsoid
  int max_recursions = 0;
  long constraints = 0;  // summed over steps
  long iterations = 0;   // solver iterations summed over steps
  double max_true_overlap = 0.0;
  double seconds = 0.0;
  long steps = 0;

  // The totals and worst values of several runs (not their samples).
  void add(const Trajectory& t) {
    max_recursions = std::max(max_recursions, t.max_recursions);
    max_true_overlap = std::max(max_true_overlap, t.max_true_overlap);
    constraints += t.constraints;
    iterations += t.iterations;
    seconds += t.seconds;
    steps += t.steps;
  }
};

Trajectory runEllipsoids(RCP<const Comm> comm, double offset, double dt, ConstraintMethod method,
                         int subspheres, double end_time, double sample_every) {
  const auto all = twoEllipsoids(offset);
  BodyDomain domain(comm, comm->getRank() == 0 ? all : std::vector<Body>{});
  TimeStepper stepper(overdamped(dt, method, subspheres, 1e-5), {}, makeSolver(1e-10));
  Trajectory t;
  const long steps = std::lround(end_time / dt);
  const long every = std::max(1L, std::lround(sample_every / dt));
  const double start = MPI_Wtime();
  auto sample = [&]() {
    Vec3 s = Vec3::Zero();
    for (std::size_t i = 0; i < domain.numOwned(); ++i) {
      const Body& b = domain.bodies()[i];
      if (b.gid != 1) continue;
      const Vec3 axis = b.orientation * Vec3::UnitZ();
      s = Vec3(b.position.x(), b.position.y(), std::atan2(axis.y(), axis.x()));
    }
    double buf[3] = {s.x(), s.y(), s.z()};
    MPI_Allreduce(MPI_IN_PLACE, buf, 3, MPI_DOUBLE, MPI_SUM, rawMpiComm(*comm));
    t.samples.emplace_back(buf[0], buf[1], buf[2]);
  };
  sample();
  for (long k = 0; k < steps; ++k) {
    const auto r = stepper.step(domain, k);
    t.max_recursions = std::max(t.max_recursions, r.recursions);
    t.constraints += r.contacts;
    t.iterations += r.solve.iterations;
    t.max_true_overlap = std::max(t.max_true_overlap, r.max_true_overlap);
    if ((k + 1) % every == 0) sample();
  }
  t.seconds = MPI_Wtime() - start;
  t.steps = steps;
  return t;
}

// L2 norm in time of the difference of one component (sample spacing h).
double l2Error(const Trajectory& a, const Trajectory& ref, int component, double h) {
  const std::size_t n = std::min(a.samples.size(), ref.samples.size());
  double sum = 0.0;
  for (std::size_t k = 0; k < n; ++k) {
    double d = a.samples[k][component] - ref.samples[k][component];
    if (component == 2) d = std::remainder(d, kPi);  // the axis has no sign
    sum += d * d * h;
  }
  return std::sqrt(sum);
}

int ellipsoids(RCP<const Comm> comm, const Options& o) {
  const bool root = comm->getRank() == 0;
  const double end = o.number("end", 12.0), h = o.number("sample", 0.1);
  const double ref_dt = o.number("ref-dt", 1e-4);
  // Several offsets: every method runs at each, against the reference at the
  // same offset, and the table gives the root mean square over the offsets
  // of each L2 error (the other columns: worst, mean, total).
  const std::vector<double> offsets = o.list("offsets", "1");
  std::vector<Trajectory> refs;
  for (double offset : offsets)
    refs.push_back(runEllipsoids(comm, offset, ref_dt, ConstraintMethod::Relcp, 1, end, h));
  // Every run's trajectory, for plots: run, offset, time, x, y, axis angle of the upper body.
  const std::string csv = o.get("trajectory", "");
  std::unique_ptr<FILE, int (*)(FILE*)> trajectories(nullptr, &std::fclose);
  if (root && !csv.empty()) {
    trajectories.reset(std::fopen(csv.c_str(), "w"));
    if (!trajectories) throw std::runtime_error("cannot write " + csv);
    std::fprintf(trajectories.get(), "run,offset,t,x,y,angle\n");
  }
  auto dump = [&](const std::string& run, double offset, const Trajectory& t) {
    if (!trajectories) return;
    for (std::size_t k = 0; k < t.samples.size(); ++k)
      std::fprintf(trajectories.get(), "\"%s\",%g,%.6g,%.10g,%.10g,%.10g\n", run.c_str(), offset,
                   static_cast<double>(k) * h, t.samples[k].x(), t.samples[k].y(),
                   t.samples[k].z());
    std::fflush(trajectories.get());
  };
  Trajectory worst_ref;
  for (std::size_t i = 0; i < offsets.size(); ++i) {
    dump("reference", offsets[i], refs[i]);
    worst_ref.add(refs[i]);
  }
  if (root) {
    std::printf(
        "Two ellipsoids, t in [0, %g], L2 errors of the upper ellipsoid's x, y and "
        "axis angle against ReLCP at dt = %g (%ld steps, %.1f s, max recursions %d, "
        "max true overlap %.2e)",
        end, ref_dt, worst_ref.steps, worst_ref.seconds, worst_ref.max_recursions,
        worst_ref.max_true_overlap);
    if (offsets.size() > 1)
      std::printf("; root mean square over %zu offsets %s", offsets.size(),
                  o.get("offsets", "").c_str());
    std::printf(
        ":\n\n| study | refinement | x | y | angle | max recursions/step | max true overlap | "
        "mean constraints/step | solver iterations/step | time [s] |\n"
        "|---|---|---|---|---|---|---|---|---|---|\n");
  }
  auto row = [&](const char* study, const std::string& label, double dt, ConstraintMethod method,
                 int subspheres) {
    double squares[3] = {0.0, 0.0, 0.0};
    Trajectory all;
    for (std::size_t i = 0; i < offsets.size(); ++i) {
      const Trajectory t = runEllipsoids(comm, offsets[i], dt, method, subspheres, end, h);
      dump(std::string(study) + " " + label, offsets[i], t);
      for (int c = 0; c < 3; ++c) squares[c] += std::pow(l2Error(t, refs[i], c, h), 2);
      all.add(t);
    }
    if (!root) return;
    const auto n = static_cast<double>(offsets.size());
    const auto steps = static_cast<double>(all.steps);
    std::printf("| %s | %s | %.4f | %.4f | %.4f | %d | %.2e | %.2f | %.1f | %.2f |\n", study,
                label.c_str(), std::sqrt(squares[0] / n), std::sqrt(squares[1] / n),
                std::sqrt(squares[2] / n), all.max_recursions, all.max_true_overlap,
                static_cast<double>(all.constraints) / steps,
                static_cast<double>(all.iterations) / steps, all.seconds);
    std::fflush(stdout);
  };
  for (double dt : o.list("dts", "0.1,0.01,0.001")) {
    char label[32];
    std::snprintf(label, sizeof label, "dt = %g", dt);
    row("ReLCP", label, dt, ConstraintMethod::Relcp, 1);
  }
  for (double dt : o.list("single-dts", "0.1,0.01")) {
    char label[32];
    std::snprintf(label, sizeof label, "dt = %g", dt);
    row("single", label, dt, ConstraintMethod::Single, 1);
  }
  const double ms_dt = o.number("ms-dt", 1e-3);
  for (double k : o.list("spheres", "3,7,13,17,23,27")) {
    const int count = static_cast<int>(k);
    char label[48];
    std::snprintf(label, sizeof label, "%d sub-spheres, dt = %g", count, ms_dt);
    row("LCP-MS", label, ms_dt, ConstraintMethod::Multisphere, count);
  }
  return 0;
}

// ---------------------------------------------------------------- compaction
// N ellipsoids (1, 1, 2) at 0.25 % volume fraction, random orientations, in
// the field F = -x (|x| - sin|x|) / |x|^2 with local drag (Palmer et al. (2025) 4.2),
// compacted with ReLCP; then each method relaxes from there into its own
// compacted state (--relax-steps) and is measured from that state.
std::vector<Body> diluteEllipsoids(long n, unsigned seed) {
  const double volume = 4.0 / 3.0 * kPi * 2.0;
  const double side = std::cbrt(static_cast<double>(n) * volume / 0.0025);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> pos(-0.5 * side + 2, 0.5 * side - 2);
  std::normal_distribution<double> gauss;
  std::vector<Body> out;
  while (static_cast<long>(out.size()) < n) {
    const Vec3 x(pos(rng), pos(rng), pos(rng));
    bool ok = true;
    for (const Body& b : out)
      if ((b.position - x).norm() < 4.2) ok = false;
    if (!ok) continue;
    Quat q(gauss(rng), gauss(rng), gauss(rng), gauss(rng));
    out.push_back(
        makeEllipsoid(static_cast<GlobalId>(out.size()), Vec3(1, 1, 2), 1.0, x, q.normalized()));
  }
  return out;
}

// relcp_envelope < 0: ReLCP detects within the adaptive envelope (>= 0.1)
// like LCP-MS; otherwise within this fixed distance, leaving the pairs a
// step brings closer to its recursion (contact.adaptive_envelope: false).
StepperSettings compactionSettings(double dt, ConstraintMethod method, int subspheres,
                                   double relcp_envelope, double ms_buffer) {
  StepperSettings s = overdamped(dt, method, subspheres, 1e-4);
  s.subsphere_buffer = ms_buffer;
  s.assembly.motion.force_field.kind = ForceFieldKind::RadialCompaction;
  s.assembly.motion.force_field.strength = 1.0;
  s.envelope = 0.1;
  if (method == ConstraintMethod::Relcp && relcp_envelope >= 0.0) {
    s.envelope = relcp_envelope;
    s.adaptive_envelope = false;
  }
  return s;
}

std::vector<Body> gatherBodies(const Comm& comm, const std::vector<Body>& mine) {
  const MPI_Comm raw = rawMpiComm(comm);
  int bytes = static_cast<int>(mine.size() * sizeof(Body));
  std::vector<int> counts(static_cast<std::size_t>(comm.getSize()));
  MPI_Allgather(&bytes, 1, MPI_INT, counts.data(), 1, MPI_INT, raw);
  std::vector<int> displs(counts.size(), 0);
  for (std::size_t k = 1; k < counts.size(); ++k) displs[k] = displs[k - 1] + counts[k - 1];
  std::vector<Body> all(static_cast<std::size_t>(displs.back() + counts.back()) / sizeof(Body));
  MPI_Allgatherv(mine.data(), bytes, MPI_BYTE, all.data(), counts.data(), displs.data(), MPI_BYTE,
                 raw);
  std::sort(all.begin(), all.end(), [](const Body& a, const Body& b) { return a.gid < b.gid; });
  return all;
}

int compaction(RCP<const Comm> comm, const Options& o) {
  const bool root = comm->getRank() == 0;
  const long n = std::lround(o.number("n", 500));
  const double settle_dt = o.number("settle-dt", 0.1);
  const double settle_time = o.number("settle-time", 300);
  const int compare_steps = static_cast<int>(o.number("compare-steps", 10));
  const int relax_steps = static_cast<int>(o.number("relax-steps", 0));
  const double relcp_envelope = o.number("relcp-envelope", -1.0);
  const double ms_buffer = o.number("ms-buffer", 0.0);
  std::vector<Body> start = diluteEllipsoids(n, 7);
  {
    BodyDomain domain(comm, root ? start : std::vector<Body>{});
    TimeStepper stepper(compactionSettings(settle_dt, ConstraintMethod::Relcp, 1, -1.0, 0.0), {},
                        makeSolver(1e-6));
    const long steps = std::lround(settle_time / settle_dt);
    const double t0 = MPI_Wtime();
    for (long k = 0; k < steps; ++k) {
      const auto r = stepper.step(domain, k);
      if (root && (k + 1) % std::max(1L, steps / 10) == 0)
        std::printf("compacting: t = %.1f  constraints %ld  recursions %d  overlap %.2e  %.1f s\n",
                    static_cast<double>(k + 1) * settle_dt, r.contacts, r.recursions,
                    r.max_true_overlap, MPI_Wtime() - t0);
    }
    start = gatherBodies(*comm, ownedBodies(domain));
  }
  double radius = 0.0;
  for (const Body& b : start) radius = std::max(radius, b.position.norm());
  if (root)
    std::printf(
        "\n%ld ellipsoids compacted with ReLCP (dt = %g, t = %g) into radius %.1f; each method "
        "then relaxes %d steps (dt = %g, apgd) into its own compacted state and runs %d steps "
        "(%s) from there; LCP-MS buffer %g x (r_i + r_j):\n\n| method | dt | constraints "
        "(last step) | per body | ReLCP uses fewer by | mean recursions | max true overlap | "
        "time/step [s] | ReLCP faster by |\n|---|---|---|---|---|---|---|---|---|\n",
        n, settle_dt, settle_time, radius, relax_steps, settle_dt, compare_steps, g_solver.c_str(),
        ms_buffer);
  std::map<double, std::pair<long, double>> relcp_at;  // dt -> constraints, time per step
  for (double k : o.list("spheres", "0,3,7,13,17")) {
    const int count = static_cast<int>(k);
    const ConstraintMethod method =
        count == 0 ? ConstraintMethod::Relcp : ConstraintMethod::Multisphere;
    const std::string label = count == 0 ? "ReLCP" : "LCP-MS " + std::to_string(count);
    // Palmer et al. (2025) Table 2 compares each simulation's final state. A union of
    // inscribed sub-spheres is slimmer than the ellipsoid, so LCP-MS bodies
    // pack further than ReLCP left them; APGD makes the relaxation affordable
    // whichever solver is measured.
    std::vector<Body> own = start;
    if (relax_steps > 0) {
      BodyDomain domain(comm, root ? start : std::vector<Body>{});
      TimeStepper stepper(
          compactionSettings(settle_dt, method, std::max(count, 1), relcp_envelope, ms_buffer), {},
          makeSolver(1e-6, "apgd"));
      for (int s = 0; s < relax_steps; ++s) {
        const auto r = stepper.step(domain, s);
        if (root && (s + 1) % std::max(1, relax_steps / 5) == 0) {
          std::printf("  %s relaxing: step %d  constraints %ld\n", label.c_str(), s + 1,
                      r.contacts);
          std::fflush(stdout);
        }
      }
      own = gatherBodies(*comm, ownedBodies(domain));
    }
    for (double dt : o.list("dts", "0.01,0.1")) {
      BodyDomain domain(comm, root ? own : std::vector<Body>{});
      TimeStepper stepper(
          compactionSettings(dt, method, std::max(count, 1), relcp_envelope, ms_buffer), {},
          makeSolver(1e-6));
      long constraints = 0;
      double overlap = 0.0, recursions = 0.0;
      const double t0 = MPI_Wtime();
      for (int s = 0; s < compare_steps; ++s) {
        const auto r = stepper.step(domain, s);
        constraints = r.contacts;
        overlap = std::max(overlap, r.max_true_overlap);
        recursions += r.recursions;
      }
      const double per_step = (MPI_Wtime() - t0) / compare_steps;
      if (count == 0) relcp_at[dt] = {constraints, per_step};
      if (!root) continue;
      const auto ref = relcp_at.find(dt);
      char fewer[32] = "", faster[32] = "";
      if (ref != relcp_at.end()) {
        std::snprintf(fewer, sizeof fewer, "%.1fx",
                      static_cast<double>(constraints) / static_cast<double>(ref->second.first));
        std::snprintf(faster, sizeof faster, "%.1fx", per_step / ref->second.second);
      }
      std::printf("| %s | %g | %ld | %.1f | %s | %.2f | %.2e | %.4f | %s |\n", label.c_str(), dt,
                  constraints, static_cast<double>(constraints) / static_cast<double>(n), fewer,
                  recursions / compare_steps, overlap, per_step, faster);
      std::fflush(stdout);
    }
  }
  return 0;
}

int usage() {
  std::printf(
      "usage: relcp_bench COMMAND [--solver NAME (default bbpgd)] ...\n"
      "       relcp_bench ellipsoids [--end T] [--trajectory CSV] [--ref-dt DT] [--dts a,b] "
      "[--single-dts a,b]\n"
      "                              [--ms-dt DT] [--spheres 3,7,...] [--sample H]\n"
      "                              [--offsets 1,...] (x offsets of the centres; with several,\n"
      "                              root mean square errors over them)\n"
      "       relcp_bench compaction [--n N] [--settle-dt DT] [--settle-time T]\n"
      "                              [--compare-steps S] [--dts a,b] [--spheres 0,3,7,...]\n"
      "                              [--relcp-envelope E] [--relax-steps R] [--ms-buffer B]\n"
      "                              (0 in --spheres means ReLCP; --relcp-envelope: ReLCP detects\n"
      "                              within E instead of the adaptive envelope; --relax-steps:\n"
      "                              each method first relaxes R steps into its own compacted\n"
      "                              state; --ms-buffer: LCP-MS also constrains sub-sphere pairs\n"
      "                              closer than B x (r_i + r_j), SimToolBox's colBuf)\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  grains::preferQuickSingletonStartup();  // before MPI_Init
  Tpetra::ScopeGuard scope(&argc, &argv);
  if (argc < 2) return usage();
  const std::string command = argv[1];
  Options o;
  for (int i = 2; i + 1 < argc; i += 2) {
    std::string key = argv[i];
    if (key.rfind("--", 0) != 0) return usage();
    o.values[key.substr(2)] = argv[i + 1];
  }
  g_solver = o.get("solver", g_solver);
  auto comm = Tpetra::getDefaultComm();
  try {
    if (command == "ellipsoids") return ellipsoids(comm, o);
    if (command == "compaction") return compaction(comm, o);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "relcp_bench: %s\n", e.what());
    return 1;
  }
  return usage();
}
