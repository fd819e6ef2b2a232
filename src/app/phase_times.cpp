#include "grains/app/phase_times.hpp"

#include "grains/parallel/mpi_utils.hpp"

#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <stdexcept>

namespace grains {

void PhaseTimes::addStep(const StepReport& r) {
  broad_ += r.time_broad;
  narrow_ += std::max(0.0, r.time_detect - r.time_broad);
  assembly_ += r.time_assemble;
  solve_ += r.time_solve;
  relcp_ += r.time_relcp;
  update_ += r.time_update;
  communication_ += r.time_domain;
}

std::vector<std::pair<std::string, double>> PhaseTimes::phases(double loop_seconds) const {
  std::vector<std::pair<std::string, double>> out = {
      {"neighbour search", broad_},      {"narrow phase", narrow_},
      {"assembly", assembly_},           {"solve", solve_},
      {"relcp search", relcp_},          {"update", update_},
      {"communication", communication_}, {"output", output_}};
  double covered = 0.0;
  for (const auto& phase : out) covered += phase.second;
  out.emplace_back("other", std::max(0.0, loop_seconds - covered));
  return out;
}

std::vector<PhaseTiming> reducePhaseTimes(
    const Comm& comm, const std::vector<std::pair<std::string, double>>& local) {
  const int n = static_cast<int>(local.size());
  std::vector<double> values(local.size()), mins(local.size()), maxs(local.size()),
      sums(local.size());
  for (std::size_t i = 0; i < local.size(); ++i) values[i] = local[i].second;
  const MPI_Comm raw = rawMpiComm(comm);
  MPI_Allreduce(values.data(), mins.data(), n, MPI_DOUBLE, MPI_MIN, raw);
  MPI_Allreduce(values.data(), maxs.data(), n, MPI_DOUBLE, MPI_MAX, raw);
  MPI_Allreduce(values.data(), sums.data(), n, MPI_DOUBLE, MPI_SUM, raw);
  std::vector<PhaseTiming> rows;
  for (std::size_t i = 0; i < local.size(); ++i)
    rows.push_back({local[i].first, mins[i], sums[i] / comm.getSize(), maxs[i]});
  return rows;
}

std::string formatTimingTable(const std::vector<PhaseTiming>& rows, double wall_seconds,
                              int ranks) {
  char line[160];
  std::snprintf(line, sizeof line, "timing over %d rank(s), %.3f s wall:\n", ranks, wall_seconds);
  std::string out = line;
  std::snprintf(line, sizeof line, "  %-18s %11s %11s %11s %7s\n", "phase", "min [s]", "mean [s]",
                "max [s]", "% wall");
  out += line;
  for (const PhaseTiming& r : rows) {
    const double share = wall_seconds > 0.0 ? 100.0 * r.mean / wall_seconds : 0.0;
    std::snprintf(line, sizeof line, "  %-18s %11.4f %11.4f %11.4f %6.1f%%\n", r.phase.c_str(),
                  r.min, r.mean, r.max, share);
    out += line;
  }
  return out;
}

void writeTimingCsv(const std::string& path, const std::vector<PhaseTiming>& rows,
                    double wall_seconds) {
  std::ofstream out(path);
  if (!out) throw std::runtime_error("cannot write " + path);
  out << "phase,min_s,mean_s,max_s,percent_of_wall\n";
  char line[200];
  for (const PhaseTiming& r : rows) {
    const double share = wall_seconds > 0.0 ? 100.0 * r.mean / wall_seconds : 0.0;
    std::snprintf(line, sizeof line, "%s,%.6g,%.6g,%.6g,%.4g\n", r.phase.c_str(), r.min, r.mean,
                  r.max, share);
    out << line;
  }
  out << "total wall," << wall_seconds << "," << wall_seconds << "," << wall_seconds << ",100\n";
  if (!out) throw std::runtime_error("error while writing " + path);
}

}  // namespace grains
