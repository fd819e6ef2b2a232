// Writing and reading the contact QP of one step; format in qp_export.hpp.
// The MatrixMarket text is Tpetra's (Tpetra::MatrixMarket): its writers
// gather to rank 0 and print 17 digits after the point in scientific
// notation, so every double reads back exactly; its readers parse on rank 0
// and distribute the rows.
#include "grains/io/qp_export.hpp"

#include "collective.hpp"
#include "grains/core/text.hpp"
#include "grains/parallel/mpi_utils.hpp"

#include <yaml-cpp/yaml.h>
#include <MatrixMarket_Tpetra.hpp>
#include <TpetraExt_MatrixMatrix.hpp>
#include <Tpetra_Export.hpp>
#include <Tpetra_Import.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>
#include <utility>
#include <vector>

namespace grains {
namespace {

using MatrixMarketWriter = Tpetra::MatrixMarket::Writer<CrsMatrix>;
using MatrixMarketReader = Tpetra::MatrixMarket::Reader<CrsMatrix>;
using Export = Tpetra::Export<LocalOrdinal, GlobalOrdinal, Node>;
using Import = Tpetra::Import<LocalOrdinal, GlobalOrdinal, Node>;
using GlobalSize = Tpetra::global_size_t;

/// Collective: what `print` writes (Tpetra's writers produce the text on
/// rank 0) goes to `path` through a temporary file and a rename. Returns this
/// rank's error message, empty on success.
template <class Print>
std::string writeOnRoot(const std::string& path, const Comm& comm, Print print) {
  std::ostringstream text;
  print(text);
  if (comm.getRank() != 0) return "";
  try {
    io_detail::writeFileAtomically(path, text.str());
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

/// `source` on rows 0 .. rows-1 in global-index order (Tpetra's dense
/// writer prints rows in map order); rows no entry of `source` names are 0.
RCP<MultiVector> inGlobalOrder(const MultiVector& source, long long rows) {
  auto map = rcp(new Map(static_cast<GlobalSize>(rows), 0, source.getMap()->getComm()));
  auto out = rcp(new MultiVector(map, source.getNumVectors()));
  out->doExport(source, Export(source.getMap(), map), Tpetra::INSERT);
  return out;
}

/// The same entries as `M` with the domain map `domain` (the writer takes the
/// column count from the domain map).
RCP<CrsMatrix> withDomain(const CrsMatrix& M, const RCP<const Map>& domain) {
  const auto rows = static_cast<LocalOrdinal>(M.getNodeNumRows());
  std::vector<std::size_t> counts(static_cast<std::size_t>(rows));
  for (LocalOrdinal i = 0; i < rows; ++i)
    counts[static_cast<std::size_t>(i)] = M.getNumEntriesInLocalRow(i);
  auto copy = rcp(
      new CrsMatrix(M.getRowMap(), M.getColMap(), Teuchos::ArrayView<const std::size_t>(counts)));
  for (LocalOrdinal i = 0; i < rows; ++i) {
    CrsMatrix::local_inds_host_view_type cols;
    CrsMatrix::values_host_view_type vals;
    M.getLocalRowView(i, cols, vals);
    copy->insertLocalValues(i, static_cast<LocalOrdinal>(cols.extent(0)), vals.data(), cols.data());
  }
  copy->fillComplete(domain, M.getRangeMap());
  return copy;
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
  const FactoredOperator& F = *system.factored;
  A->resumeFill();
  const auto& rows = *A->getRowMap();
  const auto& cols = *A->getColMap();
  std::vector<double> scaled;
  for (LocalOrdinal i = 0; i < static_cast<LocalOrdinal>(rows.getNodeNumElements()); ++i) {
    CrsMatrix::local_inds_host_view_type indices;
    CrsMatrix::values_host_view_type values;
    A->getLocalRowView(i, indices, values);
    scaled.resize(values.extent(0));
    for (std::size_t k = 0; k < scaled.size(); ++k) {
      const bool diagonal = cols.getGlobalElement(indices(k)) == rows.getGlobalElement(i);
      scaled[k] = F.scale * values(k) + (diagonal ? F.regularisation : 0.0);
    }
    A->replaceLocalValues(i, static_cast<LocalOrdinal>(scaled.size()), scaled.data(),
                          indices.data());
  }
  A->fillComplete(system.constraint_map, system.constraint_map);
  return A;
}

/// Throws unless a sparse file held the entries its size line declares:
/// Tpetra's reader stops at the end of the file without counting, so a
/// truncated file would read as a smaller matrix.
void checkEntryCount(const std::string& path, long entries_read, const Comm& comm) {
  long declared = -1;
  if (comm.getRank() == 0) {
    std::ifstream in(path);
    std::string line;
    while (declared < 0 && std::getline(in, line)) {
      long long rows = 0, cols = 0;
      if (!line.empty() && line[0] != '%') std::istringstream(line) >> rows >> cols >> declared;
    }
  }
  declared = globalMax(comm, declared);  // rank 0's value everywhere
  if (entries_read != declared) {
    throw std::runtime_error("the size line declares " + std::to_string(declared) +
                             " entries, the file has " + std::to_string(entries_read) +
                             " (truncated?)");
  }
}

/// A Teuchos exception's message without the headers (source line, throw
/// count, failed test) that Tpetra's readers put before each of their nested
/// messages: they say nothing about the file being read.
std::string withoutThrowSites(const std::string& what) {
  static const std::regex header(
      "\\S+:[0-9]+:\n\nThrow number = [0-9]+\n\nThrow test that evaluated to true: [^\n]*\n\n");
  return std::regex_replace(what, header, "");
}

/// Collective: creates `dir` on rank 0; throws on every rank if that failed.
void createExportDirectory(const std::string& dir, const Comm& comm) {
  std::string error;
  if (comm.getRank() == 0) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) error = "cannot create QP export directory '" + dir + "': " + ec.message();
  }
  io_detail::throwIfAnyFailed(error, rawMpiComm(comm));
}

/// The sizes of the exported arrays: rows of A, contacts, and the body rows
/// (one per gid up to the largest on any rank) of mobility.mtx.
struct ExportSizes {
  long long unknowns = 0;
  long long contacts = 0;
  long long bodies = 0;
  long long bodyColumns() const { return 6 * bodies; }
};

ExportSizes exportSizes(const ContactSystem& system, const Comm& comm) {
  ExportSizes sizes;
  sizes.unknowns = static_cast<long long>(system.constraint_map->getGlobalNumElements());
  sizes.contacts = sizes.unknowns / system.qp.cones.blockSize();
  long max_gid = -1;
  for (std::size_t k = 0; k < system.body_map->getNodeNumElements(); k += 6) {
    max_gid = std::max<long>(
        max_gid,
        static_cast<long>(system.body_map->getGlobalElement(static_cast<LocalOrdinal>(k)) / 6));
  }
  sizes.bodies = static_cast<long long>(globalMax(comm, max_gid)) + 1;
  return sizes;
}

/// cones.mtx: one column (mu) per contact; coulomb_rolling adds the rolling
/// and spinning bounds per unit normal impulse of its angular unknowns
/// (mu_r, mu_s; the unknowns are torques over the rolling radius).
MultiVector coneCoefficients(const ContactSystem& system, const RCP<const Comm>& comm) {
  const ConeSet& cones = system.qp.cones;
  const int block = cones.blockSize();
  const bool rolling = cones.model == FrictionModel::CoulombRolling;
  std::vector<GlobalOrdinal> gids;
  for (std::size_t c = 0; c < cones.localContacts(); ++c)
    gids.push_back(system.constraint_map->getGlobalElement(
                       static_cast<LocalOrdinal>(static_cast<std::size_t>(block) * c)) /
                   block);
  const auto invalid = Teuchos::OrdinalTraits<GlobalSize>::invalid();
  MultiVector mu(rcp(new Map(invalid, gids.data(), gids.size(), 0, comm)), rolling ? 3 : 1);
  for (std::size_t c = 0; c < gids.size(); ++c) {
    const auto row = static_cast<LocalOrdinal>(c);
    mu.replaceLocalValue(row, 0, cones.mu[c]);
    if (rolling) {
      mu.replaceLocalValue(row, 1, cones.rolling[c]);
      mu.replaceLocalValue(row, 2, cones.spinning[c]);
    }
  }
  return mu;
}

/// mobility.mtx: one row per body gid, 1/m and then the inverse inertia
/// row-major; the rows of gids without a body (removed, never made) stay 0.
MultiVector mobilityRows(const ContactSystem& system, const RCP<const Comm>& comm) {
  const auto& owned = system.mobility->ownedMobility();
  std::vector<GlobalOrdinal> gids;
  for (std::size_t k = 0; k < owned.size(); ++k)
    gids.push_back(system.body_map->getGlobalElement(static_cast<LocalOrdinal>(6 * k)) / 6);
  const auto invalid = Teuchos::OrdinalTraits<GlobalSize>::invalid();
  MultiVector mobility(rcp(new Map(invalid, gids.data(), gids.size(), 0, comm)), 10);
  for (std::size_t k = 0; k < owned.size(); ++k) {
    const auto row = static_cast<LocalOrdinal>(k);
    mobility.replaceLocalValue(row, 0, owned[k].inverse_mass);
    for (int i = 0; i < 9; ++i)
      mobility.replaceLocalValue(row, static_cast<std::size_t>(1 + i),
                                 owned[k].inverse_inertia(i / 3, i % 3));
  }
  return mobility;
}

/// problem.yaml: the format, the sizes, the operator's scale and
/// regularisation, and what the run's own solve reported.
std::string problemDescription(const ContactSystem& system, const ExportSizes& sizes,
                               const QpExportInfo& info) {
  const FactoredOperator& F = *system.factored;
  const ConeSet& cones = system.qp.cones;
  std::ostringstream meta;
  meta << "# contact QP exported by grains: min 1/2 g^T A g + b^T g over the cones\n"
       << "format: grains-qp-2\n"
       << "model: " << frictionModelName(cones.model) << "\n"
       << "block_size: " << cones.blockSize() << "\n"
       << "contacts: " << sizes.contacts << "\n"
       << "unknowns: " << sizes.unknowns << "\n"
       << "body_columns: " << sizes.bodyColumns() << "\n"
       << "step: " << info.step << "\n"
       << "time: " << formatNumber(info.time) << "\n"
       << "dt: " << formatNumber(info.dt) << "\n"
       << "scale: " << formatNumber(F.scale) << "\n"
       << "regularisation: " << formatNumber(F.regularisation) << "\n"
       << "run_solver: " << info.solver << "\n"
       << "run_tolerance: " << formatNumber(info.tolerance) << "\n"
       << "run_iterations: " << info.report.iterations << "\n"
       << "run_residual: " << formatNumber(info.report.residual) << "\n"
       << "run_objective: " << formatNumber(info.report.objective) << "\n"
       << "run_converged: " << (info.report.converged ? "true" : "false") << "\n";
  return meta.str();
}

}  // namespace

void exportQp(const std::string& dir, const ContactSystem& system, const Vector& warm_start,
              const Vector& solution, const QpExportInfo& info) {
  if (system.Dt.is_null())
    throw std::invalid_argument(
        "exportQp: the contact system was assembled without the CSR copy of D^T "
        "(AssemblySettings::row_matrix); the export writes A and D^T from it");
  const RCP<const Comm> comm = system.constraint_map->getComm();
  createExportDirectory(dir, *comm);
  const ExportSizes sizes = exportSizes(system, *comm);

  // Every file is attempted; the first failure is thrown on every rank at the end.
  std::string error;
  auto path = [&](const char* name) { return (std::filesystem::path(dir) / name).string(); };
  auto keep = [&error](const std::string& e) {
    if (error.empty()) error = e;
  };
  auto writeMatrix = [&](const char* name, const CrsMatrix& M) {
    keep(writeOnRoot(path(name), *comm, [&](std::ostream& out) {
      MatrixMarketWriter::writeSparse(out, M, "", "written by grains");
    }));
  };
  auto writeDense = [&](const char* name, const MultiVector& X, long long rows) {
    const auto ordered = inGlobalOrder(X, rows);
    keep(writeOnRoot(path(name), *comm, [&](std::ostream& out) {
      MatrixMarketWriter::writeDense(out, *ordered, "", "written by grains");
    }));
  };
  writeMatrix("A.mtx", *assembledA(system));
  writeDense("b.mtx", *system.qp.b, sizes.unknowns);
  writeDense("warm_start.mtx", warm_start, sizes.unknowns);
  writeDense("solution.mtx", solution, sizes.unknowns);
  writeDense("cones.mtx", coneCoefficients(system, comm), sizes.contacts);
  writeMatrix(
      "Dt.mtx",
      *withDomain(*system.Dt, rcp(new Map(static_cast<GlobalSize>(sizes.bodyColumns()), 0, comm))));
  writeDense("mobility.mtx", mobilityRows(system, comm), sizes.bodies);
  writeDense("u_free.mtx", *system.u_free, sizes.bodyColumns());
  if (comm->getRank() == 0) {
    try {
      io_detail::writeFileAtomically(path("problem.yaml"), problemDescription(system, sizes, info));
    } catch (const std::exception& e) {
      keep(e.what());
    }
  }
  io_detail::throwIfAnyFailed(error, rawMpiComm(*comm));
}

namespace {

/// problem.yaml: every key as text, and the numbers readQp needs.
struct QpMeta {
  std::string path;
  std::map<std::string, std::string> values;
  FrictionModel model = FrictionModel::Frictionless;
  long long contacts = 0;
  long long unknowns = 0;

  double number(const std::string& key) const {
    const auto it = values.find(key);
    if (it == values.end()) throw std::runtime_error("'" + path + "': missing key '" + key + "'");
    char* end = nullptr;
    const double v = std::strtod(it->second.c_str(), &end);
    if (*end != '\0') {
      throw std::runtime_error("'" + path + "': " + key + " = '" + it->second +
                               "' is not a number");
    }
    return v;
  }
};

QpMeta readQpMeta(const std::string& meta_path) {
  QpMeta out;
  out.path = meta_path;
  YAML::Node meta;
  try {
    meta = YAML::LoadFile(meta_path);
  } catch (const std::exception& e) {
    throw std::runtime_error("cannot read '" + meta_path + "': " + e.what());
  }
  // grains-qp-1 (before Tpetra's MatrixMarket) stored the vectors as sparse files.
  if (!meta.IsMap() || !meta["format"] || meta["format"].as<std::string>() != "grains-qp-2") {
    throw std::runtime_error("'" + meta_path +
                             "': expected 'format: grains-qp-2' (re-export "
                             "grains-qp-1 problems with this version)");
  }
  for (const auto& item : meta)
    out.values[item.first.as<std::string>()] = item.second.as<std::string>();
  try {
    out.model = parseFrictionModel(out.values.count("model") ? out.values["model"] : "");
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error("'" + meta_path + "': model: " + e.what());
  }
  const int block = unknownsPerContact(out.model);
  out.contacts = static_cast<long long>(out.number("contacts"));
  out.unknowns = static_cast<long long>(out.number("unknowns"));
  if (out.unknowns != block * out.contacts) {
    throw std::runtime_error(
        "'" + meta_path + "': unknowns = " + std::to_string(out.unknowns) +
        " but contacts x block_size = " + std::to_string(block * out.contacts));
  }
  return out;
}

/// The MatrixMarket files of one stored QP, read collectively: Tpetra's
/// readers fail on every rank together (as does each check after them), and
/// the message names the file. Contacts are spread evenly, each contact's
/// block of unknowns on one rank.
class QpFiles {
 public:
  QpFiles(std::string dir, const RCP<const Comm>& comm, long long contacts, int block)
      : dir_(std::move(dir)), comm_(comm) {
    contact_map_ = rcp(new Map(static_cast<GlobalSize>(contacts), 0, comm));
    const long long first =
        contact_map_->getNodeNumElements() ? contact_map_->getMinGlobalIndex() : 0;
    const long long last = first + static_cast<long long>(contact_map_->getNodeNumElements());
    for (long long c = first; c < last; ++c)
      for (int j = 0; j < block; ++j) rows_.push_back(block * c + j);
    row_map_ = rcp(
        new Map(static_cast<GlobalSize>(block * contacts), rows_.data(), rows_.size(), 0, comm));
  }

  std::string path(const char* name) const { return (std::filesystem::path(dir_) / name).string(); }
  const RCP<const Comm>& comm() const { return comm_; }
  const RCP<const Map>& rowMap() const { return row_map_; }
  const RCP<const Map>& contactMap() const { return contact_map_; }
  const std::vector<GlobalOrdinal>& rows() const { return rows_; }

  /// `how()` reading file `name`, with its failure reported on every rank.
  template <class How>
  auto read(const char* name, How how) const {
    decltype(how()) result;
    std::string error;
    try {
      result = how();
    } catch (const std::exception& e) {
      error = "'" + path(name) + "': " + withoutThrowSites(e.what());
    }
    io_detail::throwIfAnyFailed(error, rawMpiComm(*comm_));
    return result;
  }
  RCP<Vector> vector(const char* name) const {
    return read(name, [&] {
      RCP<const Map> map = row_map_;
      return MatrixMarketReader::readVectorFile(path(name), comm_, map);
    });
  }
  RCP<MultiVector> dense(const char* name, RCP<const Map> map, std::size_t columns) const {
    return read(name, [&] {
      auto X = MatrixMarketReader::readDenseFile(path(name), comm_, map);
      if (X->getNumVectors() != columns) {
        throw std::runtime_error(std::to_string(X->getNumVectors()) + " columns, expected " +
                                 std::to_string(columns));
      }
      return X;
    });
  }

 private:
  std::string dir_;
  RCP<const Comm> comm_;
  RCP<const Map> contact_map_;
  std::vector<GlobalOrdinal> rows_;
  RCP<const Map> row_map_;
};

std::vector<double> column(const MultiVector& X, std::size_t j) {
  const auto data = X.getData(j);
  return std::vector<double>(data.begin(), data.end());
}

/// mobility.mtx, on every rank: a row per body gid, 1/m and the inverse
/// inertia; rows of gids without a body are 0 (a body's mass is > 0).
std::vector<BodyMobility> readMobilityTable(const QpFiles& files) {
  const auto spread = files.dense("mobility.mtx", Teuchos::null, 10);
  const auto body_rows = static_cast<long long>(spread->getGlobalLength());
  MultiVector table(
      rcp(new Map(static_cast<GlobalSize>(body_rows), 0, files.comm(), Tpetra::LocallyReplicated)),
      10);
  table.doImport(*spread, Import(spread->getMap(), table.getMap()), Tpetra::INSERT);
  std::vector<BodyMobility> mobility(static_cast<std::size_t>(body_rows));
  for (std::size_t j = 0; j < 10; ++j) {
    const auto data = table.getData(j);
    for (std::size_t gid = 0; gid < mobility.size(); ++gid) {
      if (j == 0)
        mobility[gid].inverse_mass = data[gid];
      else
        mobility[gid].inverse_inertia((j - 1) / 3, (j - 1) % 3) = data[gid];
    }
  }
  return mobility;
}

/// D^T and W from Dt.mtx and mobility.mtx: D^T as written (columns 6 gid + k),
/// then with a column map of 6 columns per body it touches and the listed
/// bodies spread evenly as its domain.
RCP<FactoredOperator> readFactoredOperator(const QpFiles& files, const QpMeta& meta) {
  const std::vector<BodyMobility> mobility = readMobilityTable(files);
  std::vector<long long> gids;  // the bodies mobility.mtx lists
  for (std::size_t gid = 0; gid < mobility.size(); ++gid)
    if (mobility[gid].inverse_mass != 0.0) gids.push_back(static_cast<long long>(gid));
  const Comm& comm = *files.comm();
  const auto written = files.read("Dt.mtx", [&] {
    RCP<const Map> cols;
    const RCP<const Map> all_columns =
        rcp(new Map(static_cast<GlobalSize>(6 * mobility.size()), 0, files.comm()));
    auto Dt = MatrixMarketReader::readSparseFile(files.path("Dt.mtx"), files.rowMap(), cols,
                                                 all_columns, files.rowMap(),
                                                 /*callFillComplete=*/false);
    checkEntryCount(files.path("Dt.mtx"),
                    globalSum(comm, static_cast<long>(Dt->getNodeNumEntries())), comm);
    return Dt;
  });
  std::set<long long> touched;
  std::vector<std::size_t> counts;
  std::string error;
  for (const GlobalOrdinal row : files.rows()) {
    CrsMatrix::global_inds_host_view_type indices;
    CrsMatrix::values_host_view_type values;
    written->getGlobalRowView(row, indices, values);
    counts.push_back(indices.extent(0));
    for (std::size_t k = 0; k < indices.extent(0); ++k) {
      const long long body = indices(k) / 6;
      if (mobility[static_cast<std::size_t>(body)].inverse_mass == 0.0 && error.empty()) {
        error = "'" + files.path("Dt.mtx") + "' references body " + std::to_string(body) +
                ", which mobility.mtx does not list";
      }
      touched.insert(body);
    }
  }
  io_detail::throwIfAnyFailed(error, rawMpiComm(comm));
  const Map body_split(static_cast<GlobalSize>(gids.size()), 0, files.comm());
  std::vector<GlobalOrdinal> owned_dofs;
  for (std::size_t k = 0; k < body_split.getNodeNumElements(); ++k) {
    const long long gid =
        gids[static_cast<std::size_t>(body_split.getGlobalElement(static_cast<LocalOrdinal>(k)))];
    for (int j = 0; j < 6; ++j) owned_dofs.push_back(6 * gid + j);
  }
  const auto invalid = Teuchos::OrdinalTraits<GlobalSize>::invalid();
  auto domain = rcp(new Map(invalid, owned_dofs.data(), owned_dofs.size(), 0, files.comm()));
  std::vector<GlobalOrdinal> col_dofs;
  auto F = rcp(new FactoredOperator);
  for (long long body : touched) {
    for (int j = 0; j < 6; ++j) col_dofs.push_back(6 * body + j);
    F->mobility.push_back(mobility[static_cast<std::size_t>(body)]);
  }
  auto col_map = rcp(new Map(invalid, col_dofs.data(), col_dofs.size(), 0, files.comm()));
  auto Dt =
      rcp(new CrsMatrix(files.rowMap(), col_map, Teuchos::ArrayView<const std::size_t>(counts)));
  for (const GlobalOrdinal row : files.rows()) {
    CrsMatrix::global_inds_host_view_type indices;
    CrsMatrix::values_host_view_type values;
    written->getGlobalRowView(row, indices, values);
    Dt->insertGlobalValues(row, static_cast<LocalOrdinal>(indices.extent(0)), values.data(),
                           indices.data());
  }
  Dt->fillComplete(domain, files.rowMap());
  F->Dt = Dt;
  F->scale = meta.number("scale");
  F->regularisation = meta.number("regularisation");
  return F;
}

}  // namespace

StoredQp readQp(const std::string& dir, const RCP<const Comm>& comm) {
  const QpMeta meta = readQpMeta((std::filesystem::path(dir) / "problem.yaml").string());
  StoredQp out;
  out.meta = meta.values;
  out.contacts = meta.contacts;
  const QpFiles files(dir, comm, meta.contacts, unknownsPerContact(meta.model));
  out.qp.A = files.read("A.mtx", [&] {
    RCP<const Map> cols;
    auto A = MatrixMarketReader::readSparseFile(files.path("A.mtx"), files.rowMap(), cols,
                                                files.rowMap(), files.rowMap());
    checkEntryCount(files.path("A.mtx"), static_cast<long>(A->getGlobalNumEntries()), *comm);
    return A;
  });
  out.qp.b = files.vector("b.mtx");
  out.warm_start = files.vector("warm_start.mtx");
  out.solution = files.vector("solution.mtx");
  const bool rolling = meta.model == FrictionModel::CoulombRolling;
  const auto cones = files.dense("cones.mtx", files.contactMap(), rolling ? 3 : 1);
  out.qp.cones.model = meta.model;
  out.qp.cones.mu = column(*cones, 0);
  if (rolling) {
    out.qp.cones.rolling = column(*cones, 1);
    out.qp.cones.spinning = column(*cones, 2);
  }
  const bool factored = std::filesystem::exists(files.path("Dt.mtx")) &&
                        std::filesystem::exists(files.path("mobility.mtx"));
  if (factored) out.qp.factored = readFactoredOperator(files, meta);
  return out;
}

}  // namespace grains
