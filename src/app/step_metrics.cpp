#include "grains/app/step_metrics.hpp"

#include <map>

namespace grains {

void appendWallLoadColumns(MetricsRow& row, const std::vector<Wall>& walls,
                           const std::vector<WallLoad>& loads) {
  std::vector<std::string> names;
  std::map<std::string, WallLoad> sum;
  for (std::size_t w = 0; w < walls.size(); ++w) {
    const std::string& name = walls[w].load_name;
    if (name.empty()) continue;
    if (sum.count(name) == 0) names.push_back(name);
    WallLoad& total = sum[name];
    if (w < loads.size()) {
      total.force += loads[w].force;
      total.torque += loads[w].torque;
    }
  }
  for (const std::string& name : names) {
    std::string column = "wall_" + name;
    for (char& c : column)
      if (c == ',' || c == '"' || c == ' ' || c == '\r' || c == '\n') c = '_';
    const WallLoad& load = sum[name];
    const char* axes = "xyz";
    for (int k = 0; k < 3; ++k) row.extra.emplace_back(column + "_f" + axes[k], load.force[k]);
    for (int k = 0; k < 3; ++k) row.extra.emplace_back(column + "_t" + axes[k], load.torque[k]);
  }
}

MetricsRow stepMetricsRow(long step, double time, const SupervisedStep& done, double wall,
                          double envelope) {
  const StepReport& last = done.report;
  MetricsRow row;
  row.step = step;
  row.time = time;
  row.bodies = last.bodies;
  row.contacts = last.contacts;
  row.solver = last.solve.solver;
  row.iterations = last.solve.iterations;
  row.residual = last.solve.residual;
  row.objective = last.solve.objective;
  row.converged = !done.unconverged;
  row.max_overlap = last.max_overlap;
  row.kinetic_energy = last.kinetic_energy;
  row.wall_s = wall;
  const DomainStats& d = last.domain;
  auto real = [](auto value) { return static_cast<double>(value); };
  row.extra = {{"kinetic_energy_translational", last.kinetic_energy_translational},
               {"kinetic_energy_rotational", last.kinetic_energy_rotational},
               {"active_contacts", real(last.active_contacts)},
               {"envelope", envelope},
               {"bodies_min", real(d.bodies_min)},
               {"bodies_max", real(d.bodies_max)},
               {"bodies_mean", d.bodies_mean},
               {"contacts_min", real(last.contacts_min)},
               {"contacts_max", real(last.contacts_max)},
               {"contacts_mean", last.contacts_mean},
               {"load_imbalance", d.load_imbalance},
               {"repartitions", real(d.repartitions)},
               {"bytes_sent_max", real(d.bytes_sent_max)},
               {"bytes_sent_mean", d.bytes_sent_mean},
               {"time_domain_s", last.time_domain},
               {"time_detect_s", last.time_detect},
               {"time_broad_s", last.time_broad},
               {"time_assemble_s", last.time_assemble},
               {"time_solve_s", last.time_solve},
               {"time_update_s", last.time_update},
               {"recursions", real(last.recursions)},
               {"iterations_first_solve", real(last.first_solve_iterations)},
               {"operator_applies", real(last.solve.operator_applies)},
               {"relcp_added", real(last.relcp_added)},
               {"relcp_resolved", last.relcp_resolved ? 1.0 : 0.0},
               {"max_true_overlap", last.max_true_overlap},
               {"max_constraint_overlap", last.max_constraint_overlap},
               {"time_relcp_s", last.time_relcp},
               {"divisions", real(last.divisions)},
               {"halvings", real(done.halvings)},
               {"bodies_removed", real(done.removed)}};
  row.extra.insert(row.extra.end(), done.boundary_columns.begin(), done.boundary_columns.end());
  return row;
}

}  // namespace grains
