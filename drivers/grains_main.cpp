// The `grains` executable: parses the command line, loads the config and runs.
// Only this driver decides to exit; the library reports errors by exceptions.
#include "grains/app/command_line.hpp"
#include "grains/app/qp_lab.hpp"
#include "grains/app/run_fault.hpp"
#include "grains/app/simulation.hpp"
#include "grains/config/config_loader.hpp"
#include "grains/config/time_step_advice.hpp"
#include "grains/parallel/mpi_startup.hpp"
#include "grains/scenario/body_generator.hpp"

#include <Tpetra_Core.hpp>

#include <mpi.h>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#ifdef __GLIBC__
#include <malloc.h>
#endif

namespace {

constexpr int kExitRuntime = 1;
constexpr int kExitUsage = 2;

// Every step (and every ReLCP recursion) builds and frees work arrays of the
// size of its contact system. With glibc's defaults the large ones are
// mmap'ed and handed back to the kernel when freed, so the next step pays the
// page faults and the zeroing again: 10-15 % of a settling 1000-sphere pile.
// Keeping freed memory in the heap lets the next step reuse it; the footprint
// stays at its peak, as it would with persistent buffers. Blocks above the
// largest threshold glibc accepts (32 MB: every constraint-row vector from a
// few hundred thousand bodies on) would still be mmap'ed, so mmap is off
// altogether (17 % of a step at 1M spheres, docs/performance.md). The
// environment variables MALLOC_MMAP_THRESHOLD_, MALLOC_MMAP_MAX_ and
// MALLOC_TRIM_THRESHOLD_ still decide when set.
void keepFreedMemoryForReuse() {
#ifdef __GLIBC__
  constexpr int kLargestHeapBlock = 32 * 1024 * 1024;  // glibc's upper limit on 64-bit
  if (std::getenv("MALLOC_MMAP_THRESHOLD_") == nullptr)
    mallopt(M_MMAP_THRESHOLD, kLargestHeapBlock);
  if (std::getenv("MALLOC_MMAP_MAX_") == nullptr) mallopt(M_MMAP_MAX, 0);
  if (std::getenv("MALLOC_TRIM_THRESHOLD_") == nullptr) mallopt(M_TRIM_THRESHOLD, -1);
#endif
}

int runCommand(const grains::CommandLine& cl, grains::RCP<const grains::Comm> comm) {
  using Command = grains::CommandLine::Command;
  const bool root = comm->getRank() == 0;
  switch (cl.command) {
    case Command::QpSolve: {
      grains::QpLabResult result;
      try {
        result = grains::runQpLab(cl.qp, comm);
      } catch (const std::invalid_argument& e) {
        // Unknown solver or option, unsupported model: the same on every rank.
        throw grains::UsageError(e.what());
      }
      if (root) {
        std::printf(
            "qp solve %s: %s, %d iterations (%d applications of A), objective %.10g, residual "
            "%.3e, normal impulse in [%.6g, %.6g], %lld of %lld contacts inactive, %.4f s; the "
            "run's own solution has objective %.10g\n",
            cl.qp.solver.c_str(), result.report.converged ? "converged" : "NOT converged",
            result.report.iterations, result.report.operator_applies, result.report.objective,
            result.report.residual, result.gamma_min, result.gamma_max, result.active_set,
            result.contacts, result.seconds, result.stored_objective);
        std::printf("%s\n%s\n", grains::qpLabCsvHeader().c_str(),
                    grains::qpLabCsvRow(cl.qp, result).c_str());
      }
      return result.report.converged ? 0 : 3;
    }
    case Command::QpSolvers:
      if (root) std::cout << grains::qpSolverListing();
      return 0;
    case Command::Help:
      if (root) std::cout << grains::usageText();
      return 0;
    case Command::Version:
      if (root) std::cout << "grains " << GRAINS_VERSION << "\n";
      return 0;
    case Command::Validate: {
      const auto config = grains::loadConfigFile(*cl.config_path, cl.overrides);
      // Generating the bodies also checks files and initial overlaps.
      const auto bodies = grains::generateAllBodies(config);
      if (root) {
        std::cout << "# " << *cl.config_path << ": valid, " << bodies.size() << " bodies\n";
        if (const auto warning = grains::largeTimeStepWarning(config, bodies))
          std::cout << "# warning: " << *warning << "\n";
        std::cout << grains::configToYaml(config);
      }
      return 0;
    }
    case Command::Run: {
      const auto config = cl.config_path
                              ? grains::loadConfigFile(*cl.config_path, cl.overrides)
                              : grains::loadConfigString(grains::defaultConfigYaml(),
                                                         "<built-in demo>", ".", cl.overrides);
      grains::RunOptions options;
      options.output_dir = cl.output_dir;
      options.steps = cl.steps;
      options.overwrite = cl.overwrite;
      options.log = &std::cout;
      options.export_qp_steps = cl.export_qp_steps;
      options.export_qp_dir = cl.export_qp_dir;
      options.restart_file = cl.restart_file;
      options.allow_penetration = cl.allow_penetration;
      // -q / --log-level warn: only warnings and errors.
      const bool chatty = root && static_cast<int>(config.output.log_level) >=
                                      static_cast<int>(grains::LogLevel::Info);
      if (chatty)
        std::cout << "grains " << GRAINS_VERSION << ": " << config.source << " on "
                  << comm->getSize() << " rank(s)\n";
      const auto summary = grains::runSimulation(config, options, comm);
      if (chatty)
        std::cout << "done: " << summary.steps << " steps, t=" << summary.time << " s, "
                  << summary.bodies << " bodies, " << summary.contacts << " contacts ("
                  << summary.active_contacts << " active), KE=" << summary.kinetic_energy
                  << " J, max overlap=" << summary.max_overlap << " m, "
                  << summary.unconverged_steps << " unconverged steps, " << summary.retried_steps
                  << " retried steps, " << summary.removed_bodies << " bodies removed, "
                  << summary.wall_seconds << " s wall; output in " << summary.output_dir << "\n";
      return 0;
    }
  }
  return 0;
}

// One write per message: std::cerr writes each << piece separately, and
// mpirun may interleave another rank's output between the pieces.
void reportError(const std::string& text) {
  std::fwrite(text.data(), 1, text.size(), stderr);
  std::fflush(stderr);
}

}  // namespace

int main(int argc, char** argv) {
  keepFreedMemoryForReuse();
  const std::vector<std::string> args(argv + 1, argv + argc);
  // Kokkos (started by Tpetra) reads --help and its --kokkos-* options from
  // the command line, and would print its own help before grains' usage: it
  // gets the program name only (MPI takes nothing from argv either).
  int init_argc = 1;
  grains::preferQuickSingletonStartup();  // before MPI_Init
  Tpetra::ScopeGuard scope(&init_argc, &argv);
  auto comm = Tpetra::getDefaultComm();
  const bool root = comm->getRank() == 0;
  try {
    const grains::CommandLine cl = grains::parseCommandLine(args);
    return runCommand(cl, comm);
  } catch (const grains::UsageError& e) {
    // Deterministic on every rank: each rank returns the same code.
    if (root) reportError(std::string("grains: error: ") + e.what() + "\n(see grains --help)\n");
    return kExitUsage;
  } catch (const grains::RunFault& e) {
    // Detected on every rank together: reported once, no abort needed.
    if (root) reportError(std::string("grains: error: ") + e.what() + "\n");
    return kExitRuntime;
  } catch (const grains::ConfigError& e) {
    if (root) reportError(std::string("grains: error: ") + e.what() + "\n");
    return kExitUsage;
  } catch (const std::exception& e) {
    // May have happened on one rank only: report it from that rank and abort all.
    reportError("grains: error (rank " + std::to_string(comm->getRank()) + "): " + e.what() + "\n");
    if (comm->getSize() > 1) MPI_Abort(MPI_COMM_WORLD, kExitRuntime);
    return kExitRuntime;
  }
}
