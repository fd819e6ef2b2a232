#include "grains/constraint/contact_system.hpp"

#include "grains/constraint/contact_frame_jacobian.hpp"
#include "grains/constraint/rolling_radius.hpp"
#include "grains/core/parallel_loops.hpp"

#include <Teuchos_OrdinalTraits.hpp>

#include <cmath>
#include <memory>
#include <stdexcept>
#include <unordered_map>
#include <utility>

namespace grains {

Eigen::Matrix<double, 1, 6> jacobianRow(const Vec3& direction, const Vec3& point,
                                        const Vec3& center) {
  Eigen::Matrix<double, 1, 6> row;
  row.head<3>() = direction.transpose();
  row.tail<3>() = (point - center).cross(direction).transpose();
  return row;
}

Eigen::Matrix<double, 1, 6> angularJacobianRow(const Vec3& direction) {
  Eigen::Matrix<double, 1, 6> row;
  row.head<3>().setZero();
  row.tail<3>() = direction.transpose();
  return row;
}

void tangentBasis(const Vec3& normal, Vec3& t1, Vec3& t2) {
  const Vec3 trial = std::abs(normal.x()) < 0.9 ? Vec3::UnitX() : Vec3::UnitY();
  t1 = (trial - trial.dot(normal) * normal).normalized();
  t2 = normal.cross(t1);
}

void contactRowDirections(const Vec3& normal, int block, Vec3* directions) {
  directions[0] = normal;
  if (block > 1) tangentBasis(normal, directions[1], directions[2]);
  if (block > 3) {
    directions[3] = directions[1];
    directions[4] = directions[2];
    directions[5] = directions[0];
  }
}

namespace {

/// The bodies D^T has columns for: all owned bodies (the domain map of D),
/// then the ghosts this rank's contacts touch, in domain order so that the
/// column map stays the same from one assembly to the next while the touched
/// set does.
struct ColumnBodies {
  std::vector<int> column_of_body;          ///< per domain body; -1: no column
  std::vector<std::size_t> body_of_column;  ///< domain index of each column
  std::vector<GlobalOrdinal> owned_gids, ghost_gids;
};

ColumnBodies columnBodies(const std::vector<Body>& bodies, std::size_t num_owned,
                          const std::vector<Contact>& contacts, bool images) {
  ColumnBodies out;
  out.column_of_body.assign(bodies.size(), -1);
  // Mark the bodies the contacts name (every thread writes the same 0).
  int* column = out.column_of_body.data();
  const auto ncontacts = static_cast<long>(contacts.size());
#pragma omp parallel for schedule(static)
  for (long ci = 0; ci < ncontacts; ++ci) {
    const Contact& c = contacts[static_cast<std::size_t>(ci)];
    for (int idx : {c.body_a, c.body_b}) {
      if (idx >= 0) {
#pragma omp atomic write
        column[idx] = 0;
      }
    }
  }
  out.owned_gids.resize(num_owned);
  out.body_of_column.resize(num_owned);
  for (std::size_t i = 0; i < num_owned; ++i) {
    out.owned_gids[i] = bodies[i].gid;
    out.body_of_column[i] = i;
    out.column_of_body[i] = static_cast<int>(i);
  }
  // Periodic images carry their body's GID: they share its column (the
  // velocity is the body's; only the lever arms differ, from the shifted centre).
  std::unordered_map<GlobalId, int> column_of_gid;
  if (images)
    for (std::size_t i = 0; i < num_owned; ++i) column_of_gid.emplace(bodies[i].gid, i);
  for (std::size_t i = num_owned; i < bodies.size(); ++i) {
    if (out.column_of_body[i] < 0) continue;
    if (images) {
      const auto [at, fresh] =
          column_of_gid.emplace(bodies[i].gid, static_cast<int>(out.body_of_column.size()));
      if (!fresh) {
        out.column_of_body[i] = at->second;
        continue;
      }
    }
    out.column_of_body[i] = static_cast<int>(out.body_of_column.size());
    out.body_of_column.push_back(i);
    out.ghost_gids.push_back(bodies[i].gid);
  }
  return out;
}

std::vector<ContactKey> contactKeys(const std::vector<Contact>& contacts) {
  std::vector<ContactKey> keys(contacts.size());
  parallelFor(contacts.size(), [&](std::size_t c) { keys[c] = contacts[c].key; });
  return keys;
}

using RowPointers = CrsMatrix::local_graph_device_type::row_map_type::non_const_type;
using ColumnIndices = CrsMatrix::local_graph_device_type::entries_type::non_const_type;
using Values = CrsMatrix::local_matrix_device_type::values_type;

/// D^T written directly, as contact frames and arms for the operator's
/// kernels and, when asked for (`csr`), as the CSR arrays of the Tpetra
/// matrix (a body's 6 DOFs are consecutive columns). A row has one block
/// (wall contact) or two, the body with the lower column first, so CSR rows
/// are sorted and free of duplicates as Tpetra's local format requires.
struct JacobianArrays {
  JacobianArrays(const std::vector<Contact>& contacts, int block, bool with_csr) : csr(with_csr) {
    frame_bodies.resize(2 * contacts.size());
    frames.resize(static_cast<std::size_t>(ContactFrameJacobian::frameStride(block)) *
                  contacts.size());
    if (!csr) return;
    const std::size_t nrows = contacts.size() * static_cast<std::size_t>(block);
    row_start.resize(nrows + 1);
    row_start[0] = 0;
    for (std::size_t ci = 0; ci < contacts.size(); ++ci) {
      const int blocks = contacts[ci].body_a >= 0 ? 2 : 1;
      for (int r = 0; r < block; ++r) {
        const std::size_t row = ci * static_cast<std::size_t>(block) + static_cast<std::size_t>(r);
        row_start[row + 1] = row_start[row] + blocks;
      }
    }
    nblocks = static_cast<std::size_t>(row_start[nrows]);
    csr_start =
        RowPointers(Kokkos::view_alloc(Kokkos::WithoutInitializing, "D^T row pointers"), nrows + 1);
    csr_columns =
        ColumnIndices(Kokkos::view_alloc(Kokkos::WithoutInitializing, "D^T columns"), 6 * nblocks);
    csr_values = Values(Kokkos::view_alloc(Kokkos::WithoutInitializing, "D^T values"), 6 * nblocks);
  }

  bool csr;
  std::vector<int> row_start;  ///< first block of each row
  std::size_t nblocks = 0;
  std::vector<int> frame_bodies;
  std::vector<double> frames;
  RowPointers csr_start;
  ColumnIndices csr_columns;
  Values csr_values;
};

/// Writes one contact's rows of D^T (both forms), its cone data and the gap
/// term of its normal row; contacts are independent, so any thread may write
/// any contact.
class ContactRowWriter {
 public:
  ContactRowWriter(const std::vector<Contact>& contacts, const std::vector<Body>& bodies,
                   const std::vector<int>& column_of_body, const AssemblySettings& settings,
                   int block, JacobianArrays& jacobian, ConeSet& cones,
                   std::vector<double>& gap_term, std::vector<double>& rolling_radius)
      : contacts_(contacts),
        bodies_(bodies),
        column_of_body_(column_of_body),
        settings_(settings),
        block_(block),
        rolling_(settings.friction == FrictionModel::CoulombRolling),
        relax_(4.0 / (1.0 + 4.0 * settings.damping_steps)),
        slop_(settings.overlap_slop),
        nrows_(contacts.size() * static_cast<std::size_t>(block)),
        jacobian_(jacobian),
        cones_(cones),
        gap_term_(gap_term),
        rolling_radius_(rolling_radius) {}

  void write(std::size_t ci) const {
    const Contact& c = contacts_[ci];
    const ContactGeometry& g = c.geometry;
    Vec3 directions[kMaxBlockSize];
    contactRowDirections(g.normal, block_, directions);
    cones_.mu[ci] = c.mu;
    const bool relaxed = g.gap < 0.0 && c.generation == 0 && !settings_.motion.overdamped;
    // SPOOK removes the part of an overlap beyond the slop (a relaxed overlap
    // within it is held, not pushed out again every step).
    gap_term_[ci * static_cast<std::size_t>(block_)] =
        relaxed ? relax_ * std::min(0.0, g.gap + slop_) : g.gap;
    const Body& bb = bodies_[static_cast<std::size_t>(c.body_b)];
    const int col_b = column_of_body_[static_cast<std::size_t>(c.body_b)];
    const int col_a = c.body_a >= 0 ? column_of_body_[static_cast<std::size_t>(c.body_a)] : -1;
    if (rolling_) {
      // The angular rows measure the surface velocity the relative rotation
      // gives at the rolling radius, rho d . (omega_b - omega_a): in m/s like
      // the other rows, so the solver's tolerance means the same on all six
      // (measured in radians, it asked 1/rho times more of them). Their
      // unknowns are the torque impulses over rho, bounded by mu_r gamma_n and
      // mu_s gamma_n.
      const Body* ba = c.body_a >= 0 ? &bodies_[static_cast<std::size_t>(c.body_a)] : nullptr;
      const double rho = contactRollingRadius(ba, bb, g);
      rolling_radius_[ci] = rho;
      for (int r = 3; r < 6; ++r) directions[r] *= rho;
      cones_.rolling[ci] =
          c.rolling_friction >= 0.0 ? c.rolling_friction : settings_.rolling_friction;
      cones_.spinning[ci] =
          c.spinning_friction >= 0.0 ? c.spinning_friction : settings_.spinning_friction;
    }
    if (c.isWall()) addWallMotion(ci, c, directions);
    writeFrame(ci, c, directions, col_a, col_b);
    if (!jacobian_.csr) return;
    for (int r = 0; r < block_; ++r) writeCsrRow(ci, r, c, directions[r], col_a, col_b);
  }

 private:
  /// A moving wall (side a) has no columns: its velocity at the contact
  /// point, and its angular velocity in the rolling rows, enter b as the
  /// side-a term of D^T U, -dt d . v_wall.
  void addWallMotion(std::size_t ci, const Contact& c, const Vec3* directions) const {
    if (c.wall_velocity.isZero(0.0) && c.wall_angular_velocity.isZero(0.0)) return;
    for (int r = 0; r < block_; ++r) {
      const Vec3& v = r >= 3 ? c.wall_angular_velocity : c.wall_velocity;
      gap_term_[ci * static_cast<std::size_t>(block_) + static_cast<std::size_t>(r)] -=
          settings_.dt * directions[r].dot(v);
    }
  }

  void writeFrame(std::size_t ci, const Contact& c, const Vec3* directions, int col_a,
                  int col_b) const {
    const ContactGeometry& g = c.geometry;
    jacobian_.frame_bodies[2 * ci] = col_a;
    jacobian_.frame_bodies[2 * ci + 1] = col_b;
    double* frame = jacobian_.frames.data() + ContactFrameJacobian::directionsAt(block_, ci);
    for (int r = 0; r < block_; ++r)
      for (int k = 0; k < 3; ++k) frame[3 * r + k] = directions[r][k];
    double* arms =
        jacobian_.frames.data() + ContactFrameJacobian::armsAt(block_, contacts_.size(), ci);
    const Vec3 arm_b = g.point_b - bodies_[static_cast<std::size_t>(c.body_b)].position;
    const Vec3 arm_a = col_a >= 0
                           ? Vec3(g.point_a - bodies_[static_cast<std::size_t>(c.body_a)].position)
                           : Vec3::Zero();
    for (int k = 0; k < 3; ++k) {
      arms[k] = arm_a[k];
      arms[3 + k] = arm_b[k];
    }
  }

  void writeCsrRow(std::size_t ci, int r, const Contact& c, const Vec3& direction, int col_a,
                   int col_b) const {
    const ContactGeometry& g = c.geometry;
    const std::size_t row = ci * static_cast<std::size_t>(block_) + static_cast<std::size_t>(r);
    auto blk = static_cast<std::size_t>(jacobian_.row_start[row]);
    jacobian_.csr_start(row) = 6 * blk;
    if (row + 1 == nrows_) jacobian_.csr_start(nrows_) = 6 * jacobian_.nblocks;
    const auto put = [&](int column_body, const Eigen::Matrix<double, 1, 6>& entries, double sign) {
      for (std::size_t k = 0; k < 6; ++k) {
        const double value = sign * entries[static_cast<long>(k)];
        jacobian_.csr_columns(6 * blk + k) =
            static_cast<LocalOrdinal>(6 * column_body + static_cast<int>(k));
        jacobian_.csr_values(6 * blk + k) = value;
      }
      ++blk;
    };
    const bool angular = r >= 3;  // rolling and spinning rows
    const Body& bb = bodies_[static_cast<std::size_t>(c.body_b)];
    const auto row_b =
        angular ? angularJacobianRow(direction) : jacobianRow(direction, g.point_b, bb.position);
    if (col_a < 0) {
      put(col_b, row_b, 1.0);
      return;
    }
    const Body& ba = bodies_[static_cast<std::size_t>(c.body_a)];
    const auto row_a =
        angular ? angularJacobianRow(direction) : jacobianRow(direction, g.point_a, ba.position);
    if (col_a < col_b) {
      put(col_a, row_a, -1.0);
      put(col_b, row_b, 1.0);
    } else {
      put(col_b, row_b, 1.0);
      put(col_a, row_a, -1.0);
    }
  }

  const std::vector<Contact>& contacts_;
  const std::vector<Body>& bodies_;
  const std::vector<int>& column_of_body_;
  const AssemblySettings& settings_;
  int block_;
  bool rolling_;
  double relax_;  ///< SPOOK's share of an overlap removed per step, 4 / (1 + 4 d)
  double slop_;   ///< overlap [m] SPOOK leaves in place
  std::size_t nrows_;
  JacobianArrays& jacobian_;
  ConeSet& cones_;
  std::vector<double>& gap_term_;
  std::vector<double>& rolling_radius_;
};

/// diag(A) = scale * diag(D^T W D) + reg per row, from the contact frames the
/// writer filled: a row's entries for a body are jacobianRow(direction,
/// contact point, centre) (angularJacobianRow for rolling and spinning rows),
/// and its diagonal entry the sum of the bodies' d^T W d (the same bits as
/// when formed from the CSR of D^T, whose entries these are up to sign).
std::vector<double> diagonalFromFrames(const JacobianArrays& jacobian, int block,
                                       const std::vector<BodyMobility>& mobility, double scale,
                                       double regularisation) {
  const std::size_t contacts = jacobian.frame_bodies.size() / 2;
  const auto rows = static_cast<std::size_t>(block);
  std::vector<double> diagonal(contacts * rows);
  parallelFor(contacts, [&](std::size_t ci) {
    const double* frame = jacobian.frames.data() + ContactFrameJacobian::directionsAt(block, ci);
    const double* arms = jacobian.frames.data() + ContactFrameJacobian::armsAt(block, contacts, ci);
    const int col_a = jacobian.frame_bodies[2 * ci], col_b = jacobian.frame_bodies[2 * ci + 1];
    for (std::size_t r = 0; r < rows; ++r) {
      const Vec3 direction(frame[3 * r], frame[3 * r + 1], frame[3 * r + 2]);
      // Per side (a with -, b with +) the row's 6 entries for that body.
      double entries[2][6];
      for (int side = 0; side < 2; ++side) {
        const double* arm = arms + 3 * side;
        const Vec3 angular = r >= 3 ? direction : Vec3(arm[0], arm[1], arm[2]).cross(direction);
        const double sign = side == 0 ? -1.0 : 1.0;
        for (int k = 0; k < 3; ++k) {
          entries[side][k] = r >= 3 ? 0.0 : sign * direction[k];
          entries[side][3 + k] = sign * angular[k];
        }
      }
      double sum = mobility[static_cast<std::size_t>(col_b)].quadraticForm(entries[1]);
      if (col_a == col_b) {
        // A body against its own periodic image: one column, the entries add.
        for (int k = 0; k < 6; ++k) entries[1][k] += entries[0][k];
        sum = mobility[static_cast<std::size_t>(col_b)].quadraticForm(entries[1]);
      } else if (col_a >= 0) {
        sum += mobility[static_cast<std::size_t>(col_a)].quadraticForm(entries[0]);
      }
      diagonal[ci * rows + r] = scale * sum + regularisation;
    }
  });
  return diagonal;
}

/// Free velocities of the owned bodies (no contacts), and b = dt D^T u_free
/// plus the gap terms.
void setFreeVelocitiesAndB(ContactSystem& sys, const std::vector<Body>& bodies,
                           std::size_t num_owned, const AssemblySettings& settings,
                           const std::vector<double>& gap_term) {
  sys.u_free = rcp(new Vector(sys.body_map, false));
  {
    auto u = sys.u_free->getDataNonConst();
    parallelFor(num_owned, [&](std::size_t i) {
      const Twist free = freeVelocity(bodies[i], settings.motion, settings.dt);
      for (std::size_t k = 0; k < 6; ++k) u[6 * i + k] = free[static_cast<long>(k)];
    });
  }
  sys.b = rcp(new Vector(sys.constraint_map, false));
  sys.A->applyDt(*sys.u_free, settings.dt, *sys.b);
  auto bv = sys.b->getDataNonConst();
  parallelFor(gap_term.size(), [&](std::size_t r) { bv[r] += gap_term[r]; });
}

}  // namespace

ContactSystem assembleContactSystem(const BodyDomain& domain, const std::vector<Contact>& contacts,
                                    const AssemblySettings& settings, AssemblyMaps* maps) {
  if (!(settings.dt > 0.0)) throw std::invalid_argument("assembleContactSystem: dt must be > 0");
  AssemblyMaps fresh_maps;
  if (maps == nullptr) maps = &fresh_maps;
  ContactSystem sys;
  const auto comm = domain.commPtr();
  const auto& bodies = domain.bodies();
  const std::size_t num_owned = domain.numOwned();
  const int block = unknownsPerContact(settings.friction);

  ColumnBodies columns = columnBodies(bodies, num_owned, contacts, domain.periodic().any());
  maps->update(comm, columns.owned_gids, columns.ghost_gids);
  sys.body_map = maps->bodyMap();
  std::vector<BodyMobility> column_mobility(columns.body_of_column.size());
  parallelFor(columns.body_of_column.size(), [&](std::size_t k) {
    column_mobility[k] = mobilityOf(bodies[columns.body_of_column[k]], settings.motion);
  });

  const std::size_t nrows = contacts.size() * static_cast<std::size_t>(block);
  sys.constraint_map =
      rcp(new Map(Teuchos::OrdinalTraits<Tpetra::global_size_t>::invalid(), nrows, 0, comm));
  // Per-row data for b: the relaxed gap of normal rows, a moving wall's velocity.
  std::vector<double> gap_term(nrows, 0.0);
  sys.qp.cones.model = settings.friction;
  sys.qp.cones.mu.resize(contacts.size());
  if (settings.friction == FrictionModel::CoulombRolling) {
    sys.qp.cones.rolling.resize(contacts.size());
    sys.qp.cones.spinning.resize(contacts.size());
    sys.rolling_radius.resize(contacts.size());
  }
  JacobianArrays jacobian(contacts, block, settings.row_matrix);
  const ContactRowWriter writer(contacts, bodies, columns.column_of_body, settings, block, jacobian,
                                sys.qp.cones, gap_term, sys.rolling_radius);
  parallelFor(contacts.size(), [&](std::size_t ci) { writer.write(ci); });
  if (settings.row_matrix) {
    if (nrows == 0) jacobian.csr_start(0) = 0;
    sys.Dt = rcp(new CrsMatrix(sys.constraint_map, maps->columnMap(), jacobian.csr_start,
                               jacobian.csr_columns, jacobian.csr_values));
    sys.Dt->expertStaticFillComplete(sys.body_map, sys.constraint_map, maps->importer());
  }

  const double regularisation =
      4.0 * settings.compliance / (settings.dt * (1.0 + 4.0 * settings.damping_steps));
  std::vector<double> diagonal =
      diagonalFromFrames(jacobian, block, column_mobility, settings.dt, regularisation);
  std::vector<BodyMobility> owned_mobility(column_mobility.begin(),
                                           column_mobility.begin() + static_cast<long>(num_owned));
  sys.mobility = rcp(new MobilityOperator(sys.body_map, std::move(owned_mobility)));
  sys.A = rcp(new ContactOperator(
      JacobianLayout{sys.constraint_map, sys.body_map, maps->columnMap(), maps->importer()},
      std::make_shared<ContactFrameJacobian>(block, std::move(jacobian.frame_bodies),
                                             std::move(jacobian.frames),
                                             columns.body_of_column.size(), contactKeys(contacts)),
      sys.mobility, settings.dt, regularisation, settings.reproducible));

  sys.factored = rcp(new FactoredOperator);
  sys.factored->Dt = sys.Dt;
  sys.factored->mobility = std::move(column_mobility);
  sys.factored->scale = settings.dt;
  sys.factored->regularisation = regularisation;
  sys.factored->diagonal = std::move(diagonal);
  setFreeVelocitiesAndB(sys, bodies, num_owned, settings, gap_term);

  sys.qp.A = sys.A;
  sys.qp.b = sys.b;
  sys.qp.factored = sys.factored;
  return sys;
}

namespace {
// gamma's angular unknowns (rows 3-5 of each contact) times factor(rho).
template <typename Factor>
void scaleAngularUnknowns(const ContactSystem& system, Vector& gamma, Factor factor) {
  if (system.rolling_radius.empty()) return;
  auto view = gamma.getLocalViewHost(Tpetra::Access::ReadWrite);
  double* g = view.data();
  const std::size_t block = static_cast<std::size_t>(system.qp.cones.blockSize());
  parallelFor(system.rolling_radius.size(), [&](std::size_t ci) {
    const double f = factor(system.rolling_radius[ci]);
    for (std::size_t r = 3; r < block; ++r) g[ci * block + r] *= f;
  });
}
}  // namespace

void torquesToAngularUnknowns(const ContactSystem& system, Vector& gamma) {
  // A contact without a rolling radius has no torque bound and no angular rows.
  scaleAngularUnknowns(system, gamma, [](double rho) { return rho > 0.0 ? 1.0 / rho : 0.0; });
}

void angularUnknownsToTorques(const ContactSystem& system, Vector& gamma) {
  scaleAngularUnknowns(system, gamma, [](double rho) { return rho; });
}

RCP<Vector> bodyImpulses(const ContactSystem& system, const Vector& gamma) {
  auto impulses = rcp(new Vector(system.body_map, false));
  system.A->applyD(gamma, *impulses);
  return impulses;
}

}  // namespace grains
