#pragma once
// Helpers shared by the solver tests (serial and MPI): small dense problems
// built identically on every rank, distributed as Tpetra objects, and exact
// references (active-set enumeration, problems with a known solution).
#include "grains/solver/quadratic_program.hpp"
#include "grains/solver/solver.hpp"

#include <Eigen/Dense>
#include <Teuchos_CommHelpers.hpp>
#include <Tpetra_Core.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace grains::test {

inline RCP<const Comm> defaultComm() { return Tpetra::getDefaultComm(); }

/// Contacts spread contiguously over the ranks; block_size rows per contact.
inline RCP<const Map> contactRowMap(int contacts, int block_size,
                                    const RCP<const Comm>& comm = defaultComm()) {
  Map contact_map(static_cast<Tpetra::global_size_t>(contacts), 0, comm);
  std::vector<GlobalOrdinal> rows;
  for (std::size_t k = 0; k < contact_map.getNodeNumElements(); ++k) {
    const GlobalOrdinal c = contact_map.getGlobalElement(static_cast<LocalOrdinal>(k));
    for (int j = 0; j < block_size; ++j) rows.push_back(block_size * c + j);
  }
  return rcp(new Map(static_cast<Tpetra::global_size_t>(contacts * block_size), rows.data(),
                     rows.size(), 0, comm));
}

inline RCP<Vector> makeVector(const RCP<const Map>& map, const Eigen::VectorXd& global) {
  auto v = rcp(new Vector(map, false));
  for (std::size_t k = 0; k < map->getNodeNumElements(); ++k) {
    const auto lid = static_cast<LocalOrdinal>(k);
    v->replaceLocalValue(lid, global[map->getGlobalElement(lid)]);
  }
  return v;
}

/// The whole vector on every rank.
inline Eigen::VectorXd gather(const Vector& v) {
  const auto map = v.getMap();
  Eigen::VectorXd local =
      Eigen::VectorXd::Zero(static_cast<Eigen::Index>(map->getGlobalNumElements()));
  auto data = v.getLocalViewHost(Tpetra::Access::ReadOnly);
  for (std::size_t k = 0; k < map->getNodeNumElements(); ++k)
    local[map->getGlobalElement(static_cast<LocalOrdinal>(k))] = data(k, 0);
  Eigen::VectorXd global(local.size());
  Teuchos::reduceAll(*map->getComm(), Teuchos::REDUCE_SUM, static_cast<int>(local.size()),
                     local.data(), global.data());
  return global;
}

/// Dense global matrix -> CrsMatrix with this rank's rows (square, row map = domain map).
inline RCP<CrsMatrix> denseToCrs(const Eigen::MatrixXd& A, const RCP<const Map>& map) {
  auto M = rcp(new CrsMatrix(map, static_cast<std::size_t>(A.cols())));
  std::vector<GlobalOrdinal> cols;
  std::vector<double> vals;
  for (std::size_t k = 0; k < map->getNodeNumElements(); ++k) {
    const GlobalOrdinal row = map->getGlobalElement(static_cast<LocalOrdinal>(k));
    cols.clear();
    vals.clear();
    for (Eigen::Index j = 0; j < A.cols(); ++j) {
      if (A(row, j) != 0.0) {
        cols.push_back(j);
        vals.push_back(A(row, j));
      }
    }
    M->insertGlobalValues(row, Teuchos::ArrayView<const GlobalOrdinal>(cols),
                          Teuchos::ArrayView<const double>(vals));
  }
  M->fillComplete(map, map);
  return M;
}

/// A global problem in factored form, identical on every rank:
/// A = scale * Dt W Dt^T + reg * I.
struct DenseFactored {
  Eigen::MatrixXd Dt;                  ///< rows x 6 * bodies
  std::vector<BodyMobility> mobility;  ///< per body
  double scale = 1.0;
  double regularisation = 0.0;

  int bodies() const { return static_cast<int>(mobility.size()); }
  Eigen::MatrixXd W() const {
    Eigen::MatrixXd w = Eigen::MatrixXd::Zero(6 * bodies(), 6 * bodies());
    for (int b = 0; b < bodies(); ++b) {
      w.block<3, 3>(6 * b, 6 * b) = mobility[b].inverse_mass * Mat3::Identity();
      w.block<3, 3>(6 * b + 3, 6 * b + 3) = mobility[b].inverse_inertia;
    }
    return w;
  }
  Eigen::MatrixXd A() const {
    return scale * Dt * W() * Dt.transpose() +
           regularisation * Eigen::MatrixXd::Identity(Dt.rows(), Dt.rows());
  }
};

inline BodyMobility randomMobility(std::mt19937& rng) {
  std::uniform_real_distribution<double> u(0.5, 2.0);
  std::normal_distribution<double> n(0.0, 1.0);
  BodyMobility w;
  w.inverse_mass = u(rng);
  Mat3 R;
  for (int i = 0; i < 9; ++i) R.data()[i] = 0.3 * n(rng);
  w.inverse_inertia = R * R.transpose() + u(rng) * Mat3::Identity();
  return w;
}

/// Contact-like D^T: contact c joins bodies (n, m); rows (normal, tangent u, tangent w)
/// per DESIGN.md: body n gets [-v, -(r_n x v)], body m gets [v, r_m x v].
inline DenseFactored randomContactProblem(std::mt19937& rng, int bodies, int contacts,
                                          int block_size, double scale, double reg) {
  std::normal_distribution<double> n(0.0, 1.0);
  std::uniform_int_distribution<int> pick(0, bodies - 1);
  DenseFactored p;
  p.scale = scale;
  p.regularisation = reg;
  for (int b = 0; b < bodies; ++b) p.mobility.push_back(randomMobility(rng));
  p.Dt = Eigen::MatrixXd::Zero(contacts * block_size, 6 * bodies);
  for (int c = 0; c < contacts; ++c) {
    const int a = pick(rng);
    int m = pick(rng);
    if (m == a) m = (a + 1) % bodies;
    Vec3 normal(n(rng), n(rng), n(rng));
    normal.normalize();
    Vec3 t1 = normal.unitOrthogonal();
    Vec3 t2 = normal.cross(t1);
    const Vec3 ra(n(rng), n(rng), n(rng));
    const Vec3 rm(n(rng), n(rng), n(rng));
    const Vec3 dirs[3] = {normal, t1, t2};
    for (int k = 0; k < block_size; ++k) {
      const int row = block_size * c + k;
      p.Dt.block<1, 3>(row, 6 * a) = -dirs[k].transpose();
      p.Dt.block<1, 3>(row, 6 * a + 3) = -ra.cross(dirs[k]).transpose();
      p.Dt.block<1, 3>(row, 6 * m) = dirs[k].transpose();
      p.Dt.block<1, 3>(row, 6 * m + 3) = rm.cross(dirs[k]).transpose();
    }
  }
  return p;
}

/// Dense random D^T (every entry nonzero): A = Dt W Dt^T + reg I is a dense
/// "M^T M + small diagonal" matrix.
inline DenseFactored randomDenseProblem(std::mt19937& rng, int rows, int bodies, double reg) {
  std::normal_distribution<double> n(0.0, 1.0);
  DenseFactored p;
  p.regularisation = reg;
  for (int b = 0; b < bodies; ++b) p.mobility.push_back(randomMobility(rng));
  p.Dt = Eigen::MatrixXd(rows, 6 * bodies);
  for (Eigen::Index i = 0; i < p.Dt.size(); ++i) p.Dt.data()[i] = n(rng);
  return p;
}

/// Distributed D^T: this rank's rows, a column map of the bodies its rows touch
/// (sorted by body id, 6 columns each), the body-DOF domain map spread over the
/// ranks, and the mobility per column-map body.
inline RCP<FactoredOperator> distribute(const DenseFactored& p, const RCP<const Map>& row_map) {
  const auto comm = row_map->getComm();
  Map body_map(static_cast<Tpetra::global_size_t>(p.bodies()), 0, comm);
  std::vector<GlobalOrdinal> owned_dofs;
  for (std::size_t k = 0; k < body_map.getNodeNumElements(); ++k) {
    const GlobalOrdinal b = body_map.getGlobalElement(static_cast<LocalOrdinal>(k));
    for (int j = 0; j < 6; ++j) owned_dofs.push_back(6 * b + j);
  }
  auto domain = rcp(new Map(static_cast<Tpetra::global_size_t>(6 * p.bodies()), owned_dofs.data(),
                            owned_dofs.size(), 0, comm));
  std::set<int> touched;
  for (std::size_t k = 0; k < row_map->getNodeNumElements(); ++k) {
    const GlobalOrdinal row = row_map->getGlobalElement(static_cast<LocalOrdinal>(k));
    for (int b = 0; b < p.bodies(); ++b) {
      if (p.Dt.block(row, 6 * b, 1, 6).cwiseAbs().maxCoeff() > 0.0) touched.insert(b);
    }
  }
  std::vector<GlobalOrdinal> col_dofs;
  auto F = rcp(new FactoredOperator);
  for (int b : touched) {
    for (int j = 0; j < 6; ++j) col_dofs.push_back(6 * b + j);
    F->mobility.push_back(p.mobility[b]);
  }
  const auto invalid = Teuchos::OrdinalTraits<Tpetra::global_size_t>::invalid();
  auto col_map = rcp(new Map(invalid, col_dofs.data(), col_dofs.size(), 0, comm));
  auto Dt = rcp(new CrsMatrix(row_map, col_map, 6 * std::max<std::size_t>(touched.size(), 1)));
  std::vector<GlobalOrdinal> cols;
  std::vector<double> vals;
  for (std::size_t k = 0; k < row_map->getNodeNumElements(); ++k) {
    const GlobalOrdinal row = row_map->getGlobalElement(static_cast<LocalOrdinal>(k));
    cols.clear();
    vals.clear();
    for (int c : col_dofs) {
      if (p.Dt(row, c) != 0.0) {
        cols.push_back(c);
        vals.push_back(p.Dt(row, c));
      }
    }
    Dt->insertGlobalValues(row, Teuchos::ArrayView<const GlobalOrdinal>(cols),
                           Teuchos::ArrayView<const double>(vals));
  }
  Dt->fillComplete(domain, row_map);
  F->Dt = Dt;
  F->scale = p.scale;
  F->regularisation = p.regularisation;
  return F;
}

/// A distributed QP with A given explicitly (CrsMatrix) and, optionally, the factored form.
inline QuadraticProgram makeQp(const Eigen::MatrixXd& A, const Eigen::VectorXd& b,
                               FrictionModel model, const std::vector<double>& mu_global,
                               const DenseFactored* factored = nullptr) {
  const int block = unknownsPerContact(model);
  const int contacts = static_cast<int>(b.size()) / block;
  const auto map = contactRowMap(contacts, block);
  QuadraticProgram qp;
  qp.A = denseToCrs(A, map);
  qp.b = makeVector(map, b);
  qp.cones.model = model;
  for (std::size_t k = 0; k < map->getNodeNumElements(); k += static_cast<std::size_t>(block)) {
    const GlobalOrdinal c = map->getGlobalElement(static_cast<LocalOrdinal>(k)) / block;
    qp.cones.mu.push_back(mu_global.empty() ? 0.0 : mu_global[c]);
  }
  if (factored) qp.factored = distribute(*factored, map);
  return qp;
}

inline QuadraticProgram makeQp(const DenseFactored& p, const Eigen::VectorXd& b,
                               FrictionModel model, const std::vector<double>& mu_global = {}) {
  return makeQp(p.A(), b, model, mu_global, &p);
}

/// Exact LCP solution (z >= 0, Az + b >= 0, complementary) by enumerating all
/// 2^n active sets; for A positive definite it is unique.
inline Eigen::VectorXd solveLcpByEnumeration(const Eigen::MatrixXd& A, const Eigen::VectorXd& b) {
  const int n = static_cast<int>(b.size());
  for (unsigned mask = 0; mask < (1u << n); ++mask) {
    std::vector<int> active;
    for (int i = 0; i < n; ++i)
      if (mask & (1u << i)) active.push_back(i);
    Eigen::VectorXd z = Eigen::VectorXd::Zero(n);
    if (!active.empty()) {
      const int k = static_cast<int>(active.size());
      Eigen::MatrixXd As(k, k);
      Eigen::VectorXd bs(k);
      for (int r = 0; r < k; ++r) {
        bs[r] = -b[active[r]];
        for (int c = 0; c < k; ++c) As(r, c) = A(active[r], active[c]);
      }
      const Eigen::VectorXd zs = As.ldlt().solve(bs);
      for (int r = 0; r < k; ++r) z[active[r]] = zs[r];
    }
    const Eigen::VectorXd w = A * z + b;
    bool ok = true;
    for (int i = 0; i < n && ok; ++i) {
      const bool is_active = mask & (1u << i);
      ok = is_active ? z[i] >= -1e-12 : w[i] >= -1e-12;
    }
    if (ok) return z;
  }
  return Eigen::VectorXd::Constant(n, std::nan(""));
}

/// A solution gamma* and a b that make it optimal: per contact one of the
/// cases interior (gradient 0), zero (gradient strictly inside the dual cone)
/// or boundary (gradient on the dual boundary, orthogonal to gamma*).
/// The dual of {|t| <= mu n} is {mu |v| <= a}. Returns b; gamma* in `solution`.
inline Eigen::VectorXd knownSolutionRhs(std::mt19937& rng, const Eigen::MatrixXd& A,
                                        FrictionModel model, const std::vector<double>& mu,
                                        Eigen::VectorXd& solution) {
  std::uniform_real_distribution<double> u(0.2, 1.0);
  std::normal_distribution<double> n(0.0, 1.0);
  const int block = unknownsPerContact(model);
  const int contacts = static_cast<int>(A.rows()) / block;
  solution = Eigen::VectorXd::Zero(A.rows());
  Eigen::VectorXd gradient = Eigen::VectorXd::Zero(A.rows());
  for (int c = 0; c < contacts; ++c) {
    const int kind = c % 3;  // 0 interior, 1 zero, 2 boundary
    if (model == FrictionModel::Frictionless) {
      if (kind == 1)
        gradient[c] = u(rng);
      else
        solution[c] = u(rng);
      continue;
    }
    const double m = mu[c];
    Eigen::Vector2d e(n(rng), n(rng));
    e.normalize();
    const double gn = u(rng);
    if (kind == 0) {
      solution.segment<3>(3 * c) << gn, 0.5 * m * gn * e;
    } else if (kind == 1) {
      gradient.segment<3>(3 * c) << gn, 0.5 * (gn / m) * e;
    } else {
      solution.segment<3>(3 * c) << gn, m * gn * e;
      const double s = u(rng);
      gradient.segment<3>(3 * c) << s * m, -s * e;
    }
  }
  return gradient - A * solution;
}

inline double objective(const Eigen::MatrixXd& A, const Eigen::VectorXd& b,
                        const Eigen::VectorXd& x) {
  return 0.5 * x.dot(A * x) + b.dot(x);
}

struct RunResult {
  SolveReport report;
  Eigen::VectorXd gamma;  ///< the returned iterate, gathered on every rank
  QpMeasures measures;    ///< evaluateMeasures at the returned iterate
};

/// Creates the solver through the registry and solves from `warm_start`.
inline RunResult run(const std::string& solver, const QuadraticProgram& qp,
                     const Eigen::VectorXd& warm_start, double tolerance, int max_iterations,
                     std::map<std::string, double> options = {}) {
  SolverSettings settings;
  settings.tolerance = tolerance;
  settings.max_iterations = max_iterations;
  settings.options = std::move(options);
  const auto s = SolverRegistry::instance().create(solver, settings, qp.cones.model);
  auto gamma = makeVector(qp.map(), warm_start);
  RunResult r;
  r.report = s->solve(qp, *gamma);
  r.gamma = gather(*gamma);
  r.measures = evaluateMeasures(qp, *gamma);
  return r;
}

/// Every registered solver: a new solver is tested as soon as it is registered.
inline std::vector<std::string> allSolvers() { return SolverRegistry::instance().names(); }

/// The registered solvers that solve `model` directly (no friction fixed point).
inline std::vector<std::string> solversFor(FrictionModel model) {
  std::vector<std::string> names;
  for (const auto& name : allSolvers()) {
    if (SolverRegistry::instance().find(name)->solvesDirectly(model)) names.push_back(name);
  }
  return names;
}

/// (solver, model) pairs for every model in `models` that the solver solves directly.
inline std::vector<std::tuple<std::string, FrictionModel>> solverModelPairs(
    const std::vector<FrictionModel>& models) {
  std::vector<std::tuple<std::string, FrictionModel>> pairs;
  for (const auto& name : allSolvers()) {
    for (FrictionModel m : models) {
      if (SolverRegistry::instance().find(name)->solvesDirectly(m)) pairs.emplace_back(name, m);
    }
  }
  return pairs;
}

}  // namespace grains::test
