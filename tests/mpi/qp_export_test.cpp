// A contact QP assembled from a small pile, exported and read back on 1, 2 and
// 3 ranks: the assembled A must act like the matrix-free operator, b, the
// cones and the solution must come back exactly, and the factored form read
// back must reproduce A (so row-wise solvers work on stored problems).
#include "grains/io/qp_export.hpp"
#include "grains/app/qp_lab.hpp"
#include "grains/constraint/contact_detection.hpp"
#include "grains/constraint/contact_system.hpp"
#include "grains/parallel/body_domain.hpp"
#include "grains/solver/solver.hpp"

#include <gtest/gtest.h>
#include <Tpetra_Core.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace grains {
namespace {

std::vector<Body> pileOfRank(int rank, int size) {
  // 4 x 4 x 3 touching spheres (radius 0.5, spacing 0.99: small overlaps).
  std::vector<Body> all;
  GlobalId gid = 0;
  for (int k = 0; k < 3; ++k)
    for (int j = 0; j < 4; ++j)
      for (int i = 0; i < 4; ++i) {
        Body b = makeSphere(gid++, 0.5, 1.0 + 0.1 * i, Vec3(0.99 * i, 0.99 * j, 0.5 + 0.99 * k));
        b.velocity = Vec3(0.01 * j, -0.02 * i, -0.1);
        all.push_back(b);
      }
  std::vector<Body> mine;
  for (const Body& b : all)
    if (static_cast<int>(b.gid % size) == rank) mine.push_back(b);
  return mine;
}

TEST(QpExport, RoundTripPreservesTheProblem) {
  auto comm = Tpetra::getDefaultComm();
  const std::string dir =
      (std::filesystem::temp_directory_path() / "grains_qp_export_test").string();
  for (FrictionModel model :
       {FrictionModel::Frictionless, FrictionModel::Coulomb, FrictionModel::CoulombRolling}) {
    SCOPED_TRACE(frictionModelName(model));
    ParallelSection parallel;
    BodyDomain domain(comm, pileOfRank(comm->getRank(), comm->getSize()), parallel);
    domain.repartition();
    domain.migrate();
    domain.refreshGhosts(0.1);
    const std::vector<Wall> walls = {Wall::plane(Vec3::Zero(), Vec3::UnitZ(), "floor")};
    DetectionSettings detection;
    detection.envelope = 0.05;
    detection.mu = model == FrictionModel::Frictionless ? 0.0 : 0.4;
    const auto contacts = detectContacts(domain, walls, detection);
    AssemblySettings settings;
    settings.dt = 0.01;
    settings.friction = model;
    settings.rolling_friction = 0.1;  // used by coulomb_rolling only
    settings.spinning_friction = 0.05;
    settings.compliance = 1e-4;
    settings.motion.gravity = Vec3(0, 0, -9.81);
    const ContactSystem system = assembleContactSystem(domain, contacts, settings);
    Vector solution(system.constraint_map);
    solution.randomize(0.0, 1.0);
    Vector warm(system.constraint_map);
    warm.putScalar(0.5);
    QpExportInfo info;
    info.step = 3;
    info.dt = settings.dt;
    info.solver = "apgd";
    if (comm->getRank() == 0) std::filesystem::remove_all(dir);
    comm->barrier();
    exportQp(dir, system, warm, solution, info);

    const StoredQp stored = readQp(dir, comm);
    const auto n = static_cast<long long>(system.constraint_map->getGlobalNumElements());
    ASSERT_GT(n, 20);
    ASSERT_EQ(static_cast<long long>(stored.qp.map()->getGlobalNumElements()), n);
    EXPECT_EQ(stored.qp.cones.model, model);
    // cones.mtx carries every coefficient of the model (checked through the
    // residual below, which sees the rolling and spinning bounds too).
    EXPECT_EQ(stored.qp.cones.rolling.size(),
              model == FrictionModel::CoulombRolling ? stored.qp.cones.localContacts() : 0u);
    // Same quadratic form on a probe vector: the objective and the
    // natural residual are invariant under redistribution of the unknowns.
    const double b_norm = system.qp.b->norm2();
    EXPECT_NEAR(stored.qp.b->norm2(), b_norm, 1e-12 * b_norm);
    EXPECT_NEAR(stored.solution->norm2(), solution.norm2(), 1e-12 * solution.norm2());
    const QpMeasures original = evaluateMeasures(system.qp, solution);
    const QpMeasures reread = evaluateMeasures(stored.qp, *stored.solution);
    EXPECT_NEAR(reread.objective, original.objective, 1e-10 * (1.0 + std::abs(original.objective)));
    EXPECT_NEAR(reread.residual, original.residual, 1e-10 * (1.0 + original.residual));
    // The factored form read back must be the same A: pgs works on D^T and W
    // only, while its reported residual is measured with the assembled A.
    ASSERT_FALSE(stored.qp.factored.is_null());
    SolverSettings solver_settings;
    solver_settings.tolerance = 1e-9;
    solver_settings.max_iterations = 20000;
    // pgs has no coulomb_rolling; bbpgd then solves the stored problem.
    const char* row_solver = model == FrictionModel::CoulombRolling ? "bbpgd" : "pgs";
    auto pgs = SolverRegistry::instance().create(row_solver, solver_settings, model);
    auto apgd = SolverRegistry::instance().create("apgd", solver_settings, model);
    Vector from_file(stored.qp.map(), true);
    const SolveReport on_file = pgs->solve(stored.qp, from_file);
    Vector in_run(system.constraint_map, true);
    const SolveReport in_memory = apgd->solve(system.qp, in_run);
    EXPECT_TRUE(on_file.converged) << on_file.residual;
    EXPECT_TRUE(in_memory.converged) << in_memory.residual;
    EXPECT_NEAR(on_file.objective, in_memory.objective,
                1e-7 * (1.0 + std::abs(in_memory.objective)));
  }
}

// `grains qp solve --history`: every row carries the median and the 99th
// percentile of the contacts' residuals next to the worst one; they are
// ordered, they part from the worst contact on the way, and the last row is
// the returned iterate's.
TEST(QpLab, HistoryRecordsTheSpreadOfTheResidual) {
  auto comm = Tpetra::getDefaultComm();
  const auto tmp = std::filesystem::temp_directory_path();
  const std::string tag = "_np" + std::to_string(comm->getSize());
  const std::string dir = (tmp / ("grains_qp_lab_history" + tag)).string();
  const std::string csv = (tmp / ("grains_qp_lab_history" + tag + ".csv")).string();
  BodyDomain domain(comm, pileOfRank(comm->getRank(), comm->getSize()), ParallelSection{});
  domain.refreshGhosts(0.1);
  const std::vector<Wall> walls = {Wall::plane(Vec3::Zero(), Vec3::UnitZ(), "floor")};
  const auto contacts = detectContacts(domain, walls, DetectionSettings{0.05, 0.4});
  AssemblySettings settings;
  settings.dt = 0.01;
  settings.friction = FrictionModel::Coulomb;
  settings.motion.gravity = Vec3(0, 0, -9.81);
  const ContactSystem system = assembleContactSystem(domain, contacts, settings);
  Vector zero(system.constraint_map, true);
  if (comm->getRank() == 0) std::filesystem::remove_all(dir);
  comm->barrier();
  exportQp(dir, system, zero, zero, QpExportInfo{});

  QpSolveRequest request;
  request.dir = dir;
  request.solver = "apgd";
  request.tolerance = 1e-8;
  request.max_iterations = 20000;
  request.history_path = csv;
  request.history_every = 5;
  const QpLabResult result = runQpLab(request, comm);
  ASSERT_TRUE(result.report.converged) << result.report.residual;
  if (comm->getRank() != 0) return;
  std::ifstream in(csv);
  std::string line;
  ASSERT_TRUE(std::getline(in, line));
  EXPECT_EQ(line,
            "iteration,seconds,objective,residual,active_set,complementarity_mean,"
            "complementarity_max,residual_q50,residual_q99");
  std::vector<std::vector<double>> rows;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::vector<double> row;
    for (std::string field; std::getline(fields, field, ',');) row.push_back(std::stod(field));
    ASSERT_EQ(row.size(), 9u) << line;
    rows.push_back(row);
  }
  ASSERT_GT(rows.size(), 3u);
  for (const auto& row : rows) {
    const double worst = row[3], q50 = row[7], q99 = row[8];
    EXPECT_LE(q50, q99) << "iteration " << row[0];
    EXPECT_LE(q99, worst) << "iteration " << row[0];
    EXPECT_GE(q50, 0.0);
  }
  EXPECT_GT(rows.front()[7], 0.0);
  // On the way the contacts converge at different rates: the quantiles part
  // from the worst contact.
  EXPECT_TRUE(std::any_of(rows.begin(), rows.end(),
                          [](const std::vector<double>& row) { return row[7] < 0.5 * row[3]; }));
  EXPECT_EQ(static_cast<int>(rows[1][0]), 5);
  EXPECT_EQ(static_cast<int>(rows.back()[0]), result.report.iterations);
  EXPECT_NEAR(rows.back()[3], result.report.residual, 1e-6 * result.report.residual);
  EXPECT_LE(rows.back()[8], 1e-8);
}

// A run whose solver reads no rows of D^T assembles no CSR copy of it; the
// export, which writes D^T and A from it, must say so before it creates
// anything.
TEST(QpExport, RefusesASystemAssembledWithoutTheRowsOfDt) {
  auto comm = Tpetra::getDefaultComm();
  const std::string dir =
      (std::filesystem::temp_directory_path() / "grains_qp_export_lean_test").string();
  if (comm->getRank() == 0) std::filesystem::remove_all(dir);
  comm->barrier();
  BodyDomain domain(comm, pileOfRank(comm->getRank(), comm->getSize()), ParallelSection{});
  domain.refreshGhosts(0.1);
  const auto contacts = detectContacts(domain, {}, DetectionSettings{0.05, 0.4});
  AssemblySettings settings;
  settings.dt = 0.01;
  settings.friction = FrictionModel::Coulomb;
  settings.row_matrix = false;
  const ContactSystem system = assembleContactSystem(domain, contacts, settings);
  Vector gamma(system.constraint_map);
  try {
    exportQp(dir, system, gamma, gamma, QpExportInfo{});
    ADD_FAILURE() << "exportQp accepted a system without the CSR copy of D^T";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("row_matrix"), std::string::npos) << e.what();
  }
  comm->barrier();
  EXPECT_FALSE(std::filesystem::exists(dir));
}

}  // namespace
}  // namespace grains
