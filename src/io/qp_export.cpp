// Writing and reading the contact QP of one step; format in qp_export.hpp.
#include "grains/io/qp_export.hpp"

#include "collective.hpp"
#include "grains/parallel/mpi_utils.hpp"

#include <yaml-cpp/yaml.h>
#include <TpetraExt_MatrixMatrix.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>
#include <utility>
#include <vector>

namespace grains {
namespace {

struct Entry {
  long long row = 0;  ///< 0-based
  long long col = 0;  ///< 0-based
  double value = 0.0;
};

/// Collective: rank 0 writes the MatrixMarket header and every rank's entries
/// (in rank order; coordinate files need no ordering). Returns this rank's
/// error message, empty on success.
std::string writeCoordinate(const std::string& path, long long rows, long long cols,
                            const std::vector<Entry>& local, MPI_Comm comm) {
  std::string text;
  text.reserve(local.size() * 48);
  char line[96];
  for (const Entry& e : local) {
    const int n =
        std::snprintf(line, sizeof line, "%lld %lld %.17g\n", e.row + 1, e.col + 1, e.value);
    text.append(line, static_cast<std::size_t>(n));
  }
  const int size = io_detail::commSize(comm);
  const int rank = io_detail::commRank(comm);
  long long mine[2] = {static_cast<long long>(text.size()), static_cast<long long>(local.size())};
  std::vector<long long> all(rank == 0 ? 2 * static_cast<std::size_t>(size) : 2);
  MPI_Gather(mine, 2, MPI_LONG_LONG, all.data(), 2, MPI_LONG_LONG, 0, comm);
  std::vector<int> counts(static_cast<std::size_t>(size), 0), offsets(counts.size(), 0);
  long long total_bytes = 0, total_entries = 0;
  if (rank == 0) {
    for (int r = 0; r < size; ++r) {
      counts[static_cast<std::size_t>(r)] = static_cast<int>(all[2 * static_cast<std::size_t>(r)]);
      offsets[static_cast<std::size_t>(r)] = static_cast<int>(total_bytes);
      total_bytes += all[2 * static_cast<std::size_t>(r)];
      total_entries += all[2 * static_cast<std::size_t>(r) + 1];
    }
  }
  std::string gathered(rank == 0 ? static_cast<std::size_t>(total_bytes) : 0, '\0');
  MPI_Gatherv(text.data(), static_cast<int>(text.size()), MPI_CHAR, gathered.data(), counts.data(),
              offsets.data(), MPI_CHAR, 0, comm);
  if (rank != 0) return "";
  try {
    std::ostringstream header;
    header << "%%MatrixMarket matrix coordinate real general\n"
           << "% written by grains\n"
           << rows << " " << cols << " " << total_entries << "\n";
    io_detail::writeFileAtomically(path, header.str() + gathered);
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

/// Entries of this rank's rows of a fill-complete matrix, global indices.
std::vector<Entry> matrixEntries(const CrsMatrix& M, double scale = 1.0,
                                 double diagonal_shift = 0.0) {
  std::vector<Entry> entries;
  const auto local = M.getLocalMatrixHost();
  const auto& row_map = *M.getRowMap();
  const auto& col_map = *M.getColMap();
  const auto rows = static_cast<LocalOrdinal>(row_map.getNodeNumElements());
  for (LocalOrdinal i = 0; i < rows; ++i) {
    const long long row = row_map.getGlobalElement(i);
    for (auto k = local.graph.row_map(i); k < local.graph.row_map(i + 1); ++k) {
      const long long col = col_map.getGlobalElement(local.graph.entries(k));
      const double v = scale * local.values(k) + (col == row ? diagonal_shift : 0.0);
      entries.push_back({row, col, v});
    }
  }
  return entries;
}

std::vector<Entry> vectorEntries(const Vector& v) {
  std::vector<Entry> entries;
  const auto& map = *v.getMap();
  const auto data = v.getLocalViewHost(Tpetra::Access::ReadOnly);
  for (std::size_t i = 0; i < map.getNodeNumElements(); ++i) {
    entries.push_back({map.getGlobalElement(static_cast<LocalOrdinal>(i)), 0, data(i, 0)});
  }
  return entries;
}

/// The assembled A = scale * D^T W D + reg I (Tpetra sparse products).
RCP<CrsMatrix> assembledA(const ContactSystem& system) {
  const auto& mobility = system.mobility->ownedMobility();
  auto W = rcp(new CrsMatrix(system.body_map, 3));
  for (std::size_t k = 0; k < mobility.size(); ++k) {
    const GlobalOrdinal first = system.body_map->getGlobalElement(static_cast<LocalOrdinal>(6 * k));
    for (int j = 0; j < 3; ++j) {
      const GlobalOrdinal row = first + j;
      const double m = mobility[k].inverse_mass;
      W->insertGlobalValues(row, Teuchos::ArrayView<const GlobalOrdinal>(&row, 1),
                            Teuchos::ArrayView<const double>(&m, 1));
      const GlobalOrdinal rot_row = first + 3 + j;
      const GlobalOrdinal cols[3] = {first + 3, first + 4, first + 5};
      const double vals[3] = {mobility[k].inverse_inertia(j, 0), mobility[k].inverse_inertia(j, 1),
                              mobility[k].inverse_inertia(j, 2)};
      W->insertGlobalValues(rot_row, Teuchos::ArrayView<const GlobalOrdinal>(cols, 3),
                            Teuchos::ArrayView<const double>(vals, 3));
    }
  }
  W->fillComplete(system.body_map, system.body_map);
  CrsMatrix WD(system.body_map, 0);
  Tpetra::MatrixMatrix::Multiply(*W, false, *system.Dt, true, WD);
  auto A = rcp(new CrsMatrix(system.constraint_map, 0));
  Tpetra::MatrixMatrix::Multiply(*system.Dt, false, WD, false, *A);
  return A;
}

std::string describe(double value) {
  std::ostringstream out;
  out.precision(17);
  out << value;
  return out.str();
}

// ---- reading ---------------------------------------------------------------

struct Coordinate {
  long long rows = 0, cols = 0;
  std::vector<Entry> entries;  ///< only those whose row passed the filter
};

template <class Keep>
Coordinate readCoordinate(const std::string& path, Keep keep) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open '" + path + "'");
  std::string line;
  long line_no = 0;
  auto fail = [&](const std::string& what) {
    throw std::runtime_error(path + ":" + std::to_string(line_no) + ": " + what);
  };
  if (!std::getline(in, line)) fail("empty file");
  ++line_no;
  if (line.rfind("%%MatrixMarket matrix coordinate real general", 0) != 0) {
    fail("expected the header '%%MatrixMarket matrix coordinate real general'");
  }
  Coordinate out;
  long long declared = -1;
  long long seen = 0;
  while (std::getline(in, line)) {
    ++line_no;
    if (line.empty() || line[0] == '%') continue;
    const char* p = line.c_str();
    char* end = nullptr;
    if (declared < 0) {
      out.rows = std::strtoll(p, &end, 10);
      p = end;
      out.cols = std::strtoll(p, &end, 10);
      p = end;
      declared = std::strtoll(p, &end, 10);
      if (end == p || out.rows < 0 || out.cols < 0 || declared < 0) {
        fail("expected 'rows cols entries'");
      }
      continue;
    }
    Entry e;
    e.row = std::strtoll(p, &end, 10) - 1;
    p = end;
    e.col = std::strtoll(p, &end, 10) - 1;
    p = end;
    e.value = std::strtod(p, &end);
    if (end == p || e.row < 0 || e.row >= out.rows || e.col < 0 || e.col >= out.cols) {
      fail("expected 'row col value' with 1-based indices within " + std::to_string(out.rows) +
           " x " + std::to_string(out.cols));
    }
    ++seen;
    if (keep(e.row)) out.entries.push_back(e);
  }
  if (declared < 0) fail("no size line");
  if (seen != declared) {
    fail("the header declares " + std::to_string(declared) + " entries, the file has " +
         std::to_string(seen) + " (truncated?)");
  }
  return out;
}

/// A matrix with the given row map from entries of this rank's rows.
RCP<CrsMatrix> buildMatrix(const RCP<const Map>& row_map, const RCP<const Map>& col_map,
                           std::vector<Entry> entries) {
  std::sort(entries.begin(), entries.end(),
            [](const Entry& a, const Entry& b) { return a.row < b.row; });
  std::vector<std::size_t> counts(row_map->getNodeNumElements(), 0);
  for (const Entry& e : entries)
    ++counts[static_cast<std::size_t>(row_map->getLocalElement(e.row))];
  const Teuchos::ArrayView<const std::size_t> per_row(counts.data(), counts.size());
  auto M = col_map.is_null() ? rcp(new CrsMatrix(row_map, per_row))
                             : rcp(new CrsMatrix(row_map, col_map, per_row));
  std::size_t k = 0;
  std::vector<GlobalOrdinal> cols;
  std::vector<double> vals;
  while (k < entries.size()) {
    const long long row = entries[k].row;
    cols.clear();
    vals.clear();
    for (; k < entries.size() && entries[k].row == row; ++k) {
      cols.push_back(entries[k].col);
      vals.push_back(entries[k].value);
    }
    M->insertGlobalValues(row, Teuchos::ArrayView<const GlobalOrdinal>(cols),
                          Teuchos::ArrayView<const double>(vals));
  }
  return M;
}

RCP<Vector> buildVector(const RCP<const Map>& map, const std::vector<Entry>& entries) {
  auto v = rcp(new Vector(map, true));
  for (const Entry& e : entries) v->replaceGlobalValue(e.row, e.value);
  return v;
}

}  // namespace

void exportQp(const std::string& dir, const ContactSystem& system, const Vector& warm_start,
              const Vector& solution, const QpExportInfo& info) {
  const MPI_Comm comm = rawMpiComm(*system.constraint_map->getComm());
  const int rank = io_detail::commRank(comm);
  std::string error;
  if (rank == 0) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) error = "cannot create QP export directory '" + dir + "': " + ec.message();
  }
  io_detail::throwIfAnyFailed(error, comm);

  const FactoredOperator& F = *system.factored;
  const ConeSet& cones = system.qp.cones;
  const int block = cones.blockSize();
  const long long unknowns = static_cast<long long>(system.constraint_map->getGlobalNumElements());
  const long long contacts = unknowns / block;
  long max_gid = -1;
  for (std::size_t k = 0; k < system.body_map->getNodeNumElements(); k += 6) {
    max_gid = std::max<long>(
        max_gid,
        static_cast<long>(system.body_map->getGlobalElement(static_cast<LocalOrdinal>(k)) / 6));
  }
  max_gid = globalMax(*system.constraint_map->getComm(), max_gid);
  const long long body_columns = 6 * (static_cast<long long>(max_gid) + 1);

  auto path = [&](const char* name) { return (std::filesystem::path(dir) / name).string(); };
  auto write = [&](const char* name, long long rows, long long cols,
                   const std::vector<Entry>& entries) {
    const std::string e = writeCoordinate(path(name), rows, cols, entries, comm);
    if (error.empty()) error = e;
  };
  write("A.mtx", unknowns, unknowns, matrixEntries(*assembledA(system), F.scale, F.regularisation));
  write("b.mtx", unknowns, 1, vectorEntries(*system.qp.b));
  write("warm_start.mtx", unknowns, 1, vectorEntries(warm_start));
  write("solution.mtx", unknowns, 1, vectorEntries(solution));
  {
    // One column (mu) per contact; coulomb_rolling adds the rolling and
    // spinning bounds per unit normal impulse (mu_r rho, mu_s rho).
    const bool rolling = cones.model == FrictionModel::CoulombRolling;
    std::vector<Entry> mu;
    for (std::size_t c = 0; c < cones.localContacts(); ++c) {
      const long long row = system.constraint_map->getGlobalElement(
                                static_cast<LocalOrdinal>(static_cast<std::size_t>(block) * c)) /
                            block;
      mu.push_back({row, 0, cones.mu[c]});
      if (rolling) {
        mu.push_back({row, 1, cones.rolling[c]});
        mu.push_back({row, 2, cones.spinning[c]});
      }
    }
    write("cones.mtx", contacts, rolling ? 3 : 1, mu);
  }
  write("Dt.mtx", unknowns, body_columns, matrixEntries(*system.Dt));
  {
    std::vector<Entry> mob;
    const auto& owned = system.mobility->ownedMobility();
    for (std::size_t k = 0; k < owned.size(); ++k) {
      const long long gid = system.body_map->getGlobalElement(static_cast<LocalOrdinal>(6 * k)) / 6;
      mob.push_back({gid, 0, owned[k].inverse_mass});
      for (int i = 0; i < 9; ++i)
        mob.push_back({gid, 1 + i, owned[k].inverse_inertia(i / 3, i % 3)});
    }
    write("mobility.mtx", body_columns / 6, 10, mob);
  }
  write("u_free.mtx", body_columns, 1, vectorEntries(*system.u_free));

  if (rank == 0) {
    std::ostringstream meta;
    meta << "# contact QP exported by grains: min 1/2 g^T A g + b^T g over the cones\n"
         << "format: grains-qp-1\n"
         << "model: " << frictionModelName(cones.model) << "\n"
         << "block_size: " << block << "\n"
         << "contacts: " << contacts << "\n"
         << "unknowns: " << unknowns << "\n"
         << "body_columns: " << body_columns << "\n"
         << "step: " << info.step << "\n"
         << "time: " << describe(info.time) << "\n"
         << "dt: " << describe(info.dt) << "\n"
         << "scale: " << describe(F.scale) << "\n"
         << "regularisation: " << describe(F.regularisation) << "\n"
         << "run_solver: " << info.solver << "\n"
         << "run_tolerance: " << describe(info.tolerance) << "\n"
         << "run_iterations: " << info.report.iterations << "\n"
         << "run_residual: " << describe(info.report.residual) << "\n"
         << "run_objective: " << describe(info.report.objective) << "\n"
         << "run_converged: " << (info.report.converged ? "true" : "false") << "\n";
    try {
      io_detail::writeFileAtomically(path("problem.yaml"), meta.str());
    } catch (const std::exception& e) {
      if (error.empty()) error = e.what();
    }
  }
  io_detail::throwIfAnyFailed(error, comm);
}

StoredQp readQp(const std::string& dir, const RCP<const Comm>& comm) {
  auto path = [&](const char* name) { return (std::filesystem::path(dir) / name).string(); };
  StoredQp out;
  const std::string meta_path = path("problem.yaml");
  YAML::Node meta;
  try {
    meta = YAML::LoadFile(meta_path);
  } catch (const std::exception& e) {
    throw std::runtime_error("cannot read '" + meta_path + "': " + e.what());
  }
  if (!meta.IsMap() || !meta["format"] || meta["format"].as<std::string>() != "grains-qp-1") {
    throw std::runtime_error("'" + meta_path + "': expected 'format: grains-qp-1'");
  }
  for (const auto& item : meta)
    out.meta[item.first.as<std::string>()] = item.second.as<std::string>();
  auto number = [&](const std::string& key) {
    if (!out.meta.count(key))
      throw std::runtime_error("'" + meta_path + "': missing key '" + key + "'");
    char* end = nullptr;
    const double v = std::strtod(out.meta[key].c_str(), &end);
    if (*end != '\0') {
      throw std::runtime_error("'" + meta_path + "': " + key + " = '" + out.meta[key] +
                               "' is not a number");
    }
    return v;
  };
  FrictionModel model;
  try {
    model = parseFrictionModel(out.meta.count("model") ? out.meta["model"] : "");
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error("'" + meta_path + "': model: " + e.what());
  }
  const int block = unknownsPerContact(model);
  out.contacts = static_cast<long long>(number("contacts"));
  const long long unknowns = static_cast<long long>(number("unknowns"));
  if (unknowns != block * out.contacts) {
    throw std::runtime_error(
        "'" + meta_path + "': unknowns = " + std::to_string(unknowns) +
        " but contacts x block_size = " + std::to_string(block * out.contacts));
  }

  // Contacts spread evenly; each contact's block of unknowns on one rank.
  const Map contact_map(static_cast<Tpetra::global_size_t>(out.contacts), 0, comm);
  const long long first = contact_map.getNodeNumElements() ? contact_map.getMinGlobalIndex() : 0;
  const long long last = first + static_cast<long long>(contact_map.getNodeNumElements());
  std::vector<GlobalOrdinal> rows;
  for (long long c = first; c < last; ++c)
    for (int j = 0; j < block; ++j) rows.push_back(block * c + j);
  const auto invalid = Teuchos::OrdinalTraits<Tpetra::global_size_t>::invalid();
  auto row_map =
      rcp(new Map(static_cast<Tpetra::global_size_t>(unknowns), rows.data(), rows.size(), 0, comm));
  auto mine = [&](long long row) { return row >= block * first && row < block * last; };
  auto mine_contact = [&](long long c) { return c >= first && c < last; };

  auto check_shape = [&](const char* name, const Coordinate& m, long long r, long long c) {
    if (m.rows != r || m.cols != c) {
      throw std::runtime_error("'" + path(name) + "': size " + std::to_string(m.rows) + " x " +
                               std::to_string(m.cols) + ", expected " + std::to_string(r) + " x " +
                               std::to_string(c));
    }
  };
  // Every rank reads what it needs; an error on one rank is an error on all.
  std::string error;
  Coordinate A, b, warm, solution, mu, Dt, mobility;
  bool factored = false;
  try {
    A = readCoordinate(path("A.mtx"), mine);
    check_shape("A.mtx", A, unknowns, unknowns);
    b = readCoordinate(path("b.mtx"), mine);
    check_shape("b.mtx", b, unknowns, 1);
    warm = readCoordinate(path("warm_start.mtx"), mine);
    check_shape("warm_start.mtx", warm, unknowns, 1);
    solution = readCoordinate(path("solution.mtx"), mine);
    check_shape("solution.mtx", solution, unknowns, 1);
    mu = readCoordinate(path("cones.mtx"), mine_contact);
    check_shape("cones.mtx", mu, out.contacts, model == FrictionModel::CoulombRolling ? 3 : 1);
    factored =
        std::filesystem::exists(path("Dt.mtx")) && std::filesystem::exists(path("mobility.mtx"));
    if (factored) {
      Dt = readCoordinate(path("Dt.mtx"), mine);
      mobility = readCoordinate(path("mobility.mtx"), [](long long) { return true; });
      if (Dt.rows != unknowns || Dt.cols != 6 * mobility.rows || mobility.cols != 10) {
        throw std::runtime_error("'" + path("Dt.mtx") + "' and '" + path("mobility.mtx") +
                                 "' do not match: expected unknowns x 6 bodies and bodies x 10");
      }
      std::set<long long> listed;
      for (const Entry& e : mobility.entries) listed.insert(e.row);
      for (const Entry& e : Dt.entries) {
        if (!listed.count(e.col / 6)) {
          throw std::runtime_error("'" + path("Dt.mtx") + "' references body " +
                                   std::to_string(e.col / 6) +
                                   ", which mobility.mtx does not list");
        }
      }
    }
  } catch (const std::exception& e) {
    error = e.what();
  }
  io_detail::throwIfAnyFailed(error, rawMpiComm(*comm));

  auto Amat = buildMatrix(row_map, Teuchos::null, A.entries);
  Amat->fillComplete(row_map, row_map);
  out.qp.A = Amat;
  out.qp.b = buildVector(row_map, b.entries);
  out.warm_start = buildVector(row_map, warm.entries);
  out.solution = buildVector(row_map, solution.entries);
  out.qp.cones.model = model;
  const auto local_contacts = static_cast<std::size_t>(last - first);
  out.qp.cones.mu.assign(local_contacts, 0.0);
  if (model == FrictionModel::CoulombRolling) {
    out.qp.cones.rolling.assign(local_contacts, 0.0);
    out.qp.cones.spinning.assign(local_contacts, 0.0);
  }
  for (const Entry& e : mu.entries) {
    const auto c = static_cast<std::size_t>(e.row - first);
    if (e.col == 0) out.qp.cones.mu[c] = e.value;
    if (e.col == 1) out.qp.cones.rolling[c] = e.value;
    if (e.col == 2) out.qp.cones.spinning[c] = e.value;
  }

  if (factored) {
    // Bodies: every gid listed in mobility.mtx, spread evenly for the domain map.
    std::map<long long, BodyMobility> table;
    for (const Entry& e : mobility.entries) {
      BodyMobility& w = table[e.row];
      if (e.col == 0)
        w.inverse_mass = e.value;
      else
        w.inverse_inertia((e.col - 1) / 3, (e.col - 1) % 3) = e.value;
    }
    std::vector<long long> gids;
    for (const auto& item : table) gids.push_back(item.first);
    const Map body_split(static_cast<Tpetra::global_size_t>(gids.size()), 0, comm);
    std::vector<GlobalOrdinal> owned_dofs;
    for (std::size_t k = 0; k < body_split.getNodeNumElements(); ++k) {
      const long long gid =
          gids[static_cast<std::size_t>(body_split.getGlobalElement(static_cast<LocalOrdinal>(k)))];
      for (int j = 0; j < 6; ++j) owned_dofs.push_back(6 * gid + j);
    }
    auto domain = rcp(new Map(invalid, owned_dofs.data(), owned_dofs.size(), 0, comm));
    std::set<long long> touched;
    for (const Entry& e : Dt.entries) touched.insert(e.col / 6);
    std::vector<GlobalOrdinal> col_dofs;
    auto F = rcp(new FactoredOperator);
    for (long long body : touched) {  // every one is listed (checked above)
      for (int j = 0; j < 6; ++j) col_dofs.push_back(6 * body + j);
      F->mobility.push_back(table.at(body));
    }
    auto col_map = rcp(new Map(invalid, col_dofs.data(), col_dofs.size(), 0, comm));
    auto DtMat = buildMatrix(row_map, col_map, Dt.entries);
    DtMat->fillComplete(domain, row_map);
    F->Dt = DtMat;
    F->scale = number("scale");
    F->regularisation = number("regularisation");
    out.qp.factored = F;
  }
  return out;
}

}  // namespace grains
