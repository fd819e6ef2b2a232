#include "grains/app/measurements.hpp"

#include "grains/geometry/shape_traits.hpp"
#include "grains/geometry/sphere_box_volume.hpp"
#include "grains/linalg/binned_reproducible_sums.hpp"
#include "grains/linalg/reproducible_reduction.hpp"
#include "grains/parallel/mpi_utils.hpp"

#include <cmath>
#include <limits>

namespace grains {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// Centre-in-region test; the box is half open, [lower, upper), so that
/// adjacent regions and grid cells share no body.
bool inRegion(const MeasurementRegion& region, const Vec3& x) {
  return !region.bounded ||
         ((x.array() >= region.lower.array()).all() && (x.array() < region.upper.array()).all());
}

double regionVolume(const MeasurementRegion& region) {
  return (region.upper - region.lower).prod();
}

bool counted(const ContactEnd& e, const Measurement& m) {
  if (e.wall && !m.walls && m.kind == MeasurementKind::Fabric) return false;
  return m.contacts == ContactCount::Carrying ? e.carrying != 0 : (e.carrying || e.gap <= 0.0);
}

double bodyVolume(const Body& b) { return shapeTraits(b.shape).volume(shapeSize(b)); }

/// The Love-Weber contact sum of one body (Christoffersen, Mehrabadi &
/// Nemat-Nasser 1981; compression positive): -sum_c f_c (x) (x_c - x_body),
/// f_c the contact's force on the body. Summed over both bodies of a contact
/// it is f (x) l with l the branch vector between the centres.
Mat3 contactStress(const Body& body, const std::vector<ContactEnd>& ends) {
  Mat3 s = Mat3::Zero();
  for (const ContactEnd& e : ends) s -= e.force * (e.point - body.position).transpose();
  return s;
}

/// The grid cell holding `x`, or -1 outside the grid.
int cellOf(const Measurement& m, const Vec3& x) {
  if (!inRegion(m.region, x)) return -1;
  const Vec3 size = m.region.upper - m.region.lower;
  int index[3];
  for (int k = 0; k < 3; ++k) {
    const int n = m.cells[static_cast<std::size_t>(k)];
    index[k] = std::min(n - 1, static_cast<int>((x[k] - m.region.lower[k]) / size[k] * n));
  }
  return index[0] + m.cells[0] * (index[1] + m.cells[1] * index[2]);
}

std::vector<std::string> tensorColumns(const std::string& prefix) {
  std::vector<std::string> out;
  for (const char* ij : {"xx", "xy", "xz", "yx", "yy", "yz", "zx", "zy", "zz"})
    out.push_back(prefix + ij);
  return out;
}

std::vector<std::string> columnsOf(MeasurementKind kind) {
  std::vector<std::string> c = {"step", "time"};
  switch (kind) {
    case MeasurementKind::Coordination:
      for (const char* n : {"bodies", "z", "z_bodies", "z_walls", "rattler_fraction"})
        c.push_back(n);
      break;
    case MeasurementKind::PackingFraction:
      for (const char* n : {"solid_volume", "packing_fraction"}) c.push_back(n);
      break;
    case MeasurementKind::Stress: {
      c.push_back("bodies");
      for (const std::string& n : tensorColumns("s_")) c.push_back(n);
      for (const char* n : {"pressure", "pressure_contact", "pressure_kinetic"}) c.push_back(n);
      break;
    }
    case MeasurementKind::Fabric:
      for (const char* n : {"contacts", "f_xx", "f_yy", "f_zz", "f_xy", "f_xz", "f_yz"})
        c.push_back(n);
      break;
    case MeasurementKind::MassFlow:
      for (const char* n : {"interval", "mass_removed", "mass_flow_rate", "mass"}) c.push_back(n);
      break;
    case MeasurementKind::Grid:
      break;
  }
  return c;
}

double globalMass(const BodyDomain& domain) {
  const long owned = static_cast<long>(domain.numOwned());
  return reproducibleSums<1>(domain.comm(), owned,
                             static_cast<double>(globalSum(domain.comm(), owned)),
                             [&](long long i) -> std::array<double, 1> {
                               return {domain.bodies()[static_cast<std::size_t>(i)].mass};
                             })[0];
}

/// Per bin: mass-weighted mean velocity from sums (m, m v) at `fields`
/// stride starting at `offset`.
std::vector<Vec3> meanVelocities(const std::vector<double>& sums, int bins, int fields,
                                 int offset) {
  std::vector<Vec3> mean(static_cast<std::size_t>(bins), Vec3::Zero());
  for (int b = 0; b < bins; ++b) {
    const double* s = sums.data() + static_cast<std::size_t>(b * fields + offset);
    if (s[0] > 0.0) mean[static_cast<std::size_t>(b)] = Vec3(s[1], s[2], s[3]) / s[0];
  }
  return mean;
}

/// Per bin, the contact (9) and kinetic (9) sums of the Love-Weber stress.
std::vector<double> stressSums(const Measurement& m, const BodyDomain& domain,
                               const std::vector<std::vector<ContactEnd>>& ends, int bins,
                               const std::vector<int>& bin, const std::vector<Vec3>& mean) {
  const auto& bodies = domain.bodies();
  return binnedReproducibleSums(
      domain.comm(), static_cast<long long>(domain.numOwned()), bins, 18,
      [&](long long i) { return bin[static_cast<std::size_t>(i)]; },
      [&](long long i, double* out) {
        const auto k = static_cast<std::size_t>(i);
        const Body& body = bodies[k];
        const Mat3 contact = contactStress(body, ends[k]);
        Vec3 v = Vec3::Zero();
        if (m.kinetic == KineticStress::Full) v = body.velocity;
        if (m.kinetic == KineticStress::Fluctuating)
          v = body.velocity - mean[static_cast<std::size_t>(bin[k])];
        const Mat3 kinetic = body.mass * v * v.transpose();
        for (int r = 0; r < 3; ++r)
          for (int c = 0; c < 3; ++c) {
            out[3 * r + c] = contact(r, c);
            out[9 + 3 * r + c] = kinetic(r, c);
          }
      });
}

}  // namespace

Measurements::Measurements(const MeasurementsSection& section, const std::string& dir,
                           MPI_Comm comm, bool append, long first_step, double start_time,
                           const BodyDomain& domain) {
  if (section.list.empty()) return;
  MPI_Comm_dup(comm, &comm_);
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  const bool writer = rank == 0;
  double mass = 0.0;
  for (const Measurement& m : section.list)
    if (m.kind == MeasurementKind::MassFlow) mass = globalMass(domain);
  for (const Measurement& m : section.list) {
    Channel channel;
    channel.spec = m;
    channel.last_mass = mass;
    channel.last_time = start_time;
    if (m.kind == MeasurementKind::Grid)
      channel.grid.emplace(dir, m.name, writer, append, first_step);
    else
      channel.csv.emplace(dir + "/measurements_" + m.name + ".csv", columnsOf(m.kind), writer,
                          append, first_step);
    channels_.push_back(std::move(channel));
  }
}

Measurements::~Measurements() {
  if (comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
}

void Measurements::afterStep(long step, double time, bool final_step, double to_force,
                             const BodyDomain& domain, const TimeStepper& stepper) {
  std::vector<Channel*> due;
  bool contacts = false;
  for (Channel& c : channels_) {
    if (step % c.spec.every != 0 && !final_step) continue;
    due.push_back(&c);
    contacts = contacts || c.spec.kind == MeasurementKind::Coordination ||
               c.spec.kind == MeasurementKind::Stress || c.spec.kind == MeasurementKind::Fabric ||
               c.spec.kind == MeasurementKind::Grid;
  }
  if (due.empty()) return;
  std::vector<std::vector<ContactEnd>> ends;
  if (contacts) {
    ends = ownedContactEnds(stepper.lastContacts(), stepper.lastImpulses(), to_force, domain, comm_,
                            9100 + tag_);
    tag_ = 1 - tag_;  // consecutive exchanges must not share a tag
  }
  for (Channel* c : due) measure(*c, step, time, domain, ends);
}

namespace {

using Ends = std::vector<std::vector<ContactEnd>>;

/// Bin 0 for an owned body whose centre is in the measurement's region, -1 else.
std::vector<int> regionBins(const Measurement& m, const BodyDomain& domain) {
  std::vector<int> bin(domain.numOwned());
  for (std::size_t i = 0; i < bin.size(); ++i)
    bin[i] = inRegion(m.region, domain.bodies()[i].position) ? 0 : -1;
  return bin;
}

std::vector<double> coordinationRow(const Measurement& m, const BodyDomain& domain,
                                    const Ends& ends) {
  const std::vector<int> bin = regionBins(m, domain);
  const auto s = binnedReproducibleSums(
      domain.comm(), static_cast<long long>(bin.size()), 1, 4,
      [&](long long i) { return bin[static_cast<std::size_t>(i)]; },
      [&](long long i, double* out) {
        double with_bodies = 0.0, with_walls = 0.0;
        for (const ContactEnd& e : ends[static_cast<std::size_t>(i)])
          if (counted(e, m)) (e.wall ? with_walls : with_bodies) += 1.0;
        out[0] = 1.0;
        out[1] = with_bodies;
        out[2] = with_walls;
        out[3] = with_bodies + with_walls < 2.0 ? 1.0 : 0.0;  // a rattler
      });
  const double n = s[0];
  const double z_bodies = n > 0.0 ? s[1] / n : kNaN, z_walls = n > 0.0 ? s[2] / n : kNaN;
  return {n, z_bodies + (m.walls ? z_walls : 0.0), z_bodies, z_walls, n > 0.0 ? s[3] / n : kNaN};
}

std::vector<double> packingFractionRow(const Measurement& m, const BodyDomain& domain) {
  const auto& bodies = domain.bodies();
  const auto inside = [&](const Body& b) {
    if (b.shape == ShapeKind::Sphere)
      return sphereBoxVolume(b.position, b.radius, m.region.lower, m.region.upper);
    return inRegion(m.region, b.position) ? bodyVolume(b) : 0.0;
  };
  const auto s = binnedReproducibleSums(
      domain.comm(), static_cast<long long>(domain.numOwned()), 1, 1,
      [&](long long i) { return inside(bodies[static_cast<std::size_t>(i)]) > 0.0 ? 0 : -1; },
      [&](long long i, double* out) { out[0] = inside(bodies[static_cast<std::size_t>(i)]); });
  return {s[0], s[0] / regionVolume(m.region)};
}

/// Per bin: body count, mass and momentum (5 fields), plus the bodies'
/// volume with `with_volume` (6 fields).
std::vector<double> binMoments(const BodyDomain& domain, const std::vector<int>& bin, int bins,
                               bool with_volume) {
  const auto& bodies = domain.bodies();
  return binnedReproducibleSums(
      domain.comm(), static_cast<long long>(bin.size()), bins, with_volume ? 6 : 5,
      [&](long long i) { return bin[static_cast<std::size_t>(i)]; },
      [&](long long i, double* out) {
        const Body& b = bodies[static_cast<std::size_t>(i)];
        out[0] = 1.0;
        out[1] = b.mass;
        for (int k = 0; k < 3; ++k) out[2 + k] = b.mass * b.velocity[k];
        if (with_volume) out[5] = bodyVolume(b);
      });
}

std::vector<double> stressRow(const Measurement& m, const BodyDomain& domain, const Ends& ends) {
  const std::vector<int> bin = regionBins(m, domain);
  const auto moments = binMoments(domain, bin, 1, false);
  const auto s = stressSums(m, domain, ends, 1, bin, meanVelocities(moments, 1, 5, 1));
  const double volume = regionVolume(m.region);
  std::vector<double> row = {moments[0]};
  for (int k = 0; k < 9; ++k) row.push_back((s[k] + s[9 + k]) / volume);
  const double contact = (s[0] + s[4] + s[8]) / (3.0 * volume);
  const double kinetic = (s[9] + s[13] + s[17]) / (3.0 * volume);
  row.push_back(contact + kinetic);
  row.push_back(contact);
  row.push_back(kinetic);
  return row;
}

std::vector<double> fabricRow(const Measurement& m, const BodyDomain& domain, const Ends& ends) {
  const std::vector<int> bin = regionBins(m, domain);
  const auto s = binnedReproducibleSums(
      domain.comm(), static_cast<long long>(bin.size()), 1, 7,
      [&](long long i) { return bin[static_cast<std::size_t>(i)]; },
      [&](long long i, double* out) {
        for (int k = 0; k < 7; ++k) out[k] = 0.0;
        for (const ContactEnd& e : ends[static_cast<std::size_t>(i)]) {
          if (!counted(e, m)) continue;
          const Vec3& n = e.normal;
          out[0] += 1.0;
          out[1] += n.x() * n.x();
          out[2] += n.y() * n.y();
          out[3] += n.z() * n.z();
          out[4] += n.x() * n.y();
          out[5] += n.x() * n.z();
          out[6] += n.y() * n.z();
        }
      });
  std::vector<double> row = {s[0]};
  for (int k = 1; k < 7; ++k) row.push_back(s[0] > 0.0 ? s[k] / s[0] : kNaN);
  return row;
}

GridFrame gridFrame(const Measurement& m, const BodyDomain& domain, const Ends& ends) {
  const int cells = m.cells[0] * m.cells[1] * m.cells[2];
  std::vector<int> bin(domain.numOwned());
  for (std::size_t i = 0; i < bin.size(); ++i) bin[i] = cellOf(m, domain.bodies()[i].position);
  const auto moments = binMoments(domain, bin, cells, true);
  const std::vector<Vec3> mean = meanVelocities(moments, cells, 6, 1);
  const auto s = stressSums(m, domain, ends, cells, bin, mean);
  GridFrame frame;
  frame.origin = m.region.lower;
  frame.cells = m.cells;
  for (int k = 0; k < 3; ++k)
    frame.spacing[k] =
        (m.region.upper[k] - m.region.lower[k]) / m.cells[static_cast<std::size_t>(k)];
  const double cell_volume = frame.spacing.prod();
  std::vector<double> count, fraction, velocity, stress;
  for (int c = 0; c < cells; ++c) {
    const double* mo = moments.data() + 6 * c;
    count.push_back(mo[0]);
    fraction.push_back(mo[5] / cell_volume);
    for (int k = 0; k < 3; ++k) velocity.push_back(mean[static_cast<std::size_t>(c)][k]);
    for (int k = 0; k < 9; ++k) stress.push_back((s[18 * c + k] + s[18 * c + 9 + k]) / cell_volume);
  }
  frame.arrays = {{"bodies", {1, count}},
                  {"packing_fraction", {1, fraction}},
                  {"velocity", {3, velocity}},
                  {"stress", {9, stress}}};
  return frame;
}

}  // namespace

void Measurements::measure(Channel& channel, long step, double time, const BodyDomain& domain,
                           const std::vector<std::vector<ContactEnd>>& ends) {
  const Measurement& m = channel.spec;
  switch (m.kind) {
    case MeasurementKind::Coordination:
      channel.csv->write(step, time, coordinationRow(m, domain, ends));
      break;
    case MeasurementKind::PackingFraction:
      channel.csv->write(step, time, packingFractionRow(m, domain));
      break;
    case MeasurementKind::Stress:
      channel.csv->write(step, time, stressRow(m, domain, ends));
      break;
    case MeasurementKind::Fabric:
      channel.csv->write(step, time, fabricRow(m, domain, ends));
      break;
    case MeasurementKind::Grid:
      channel.grid->write(step, time, gridFrame(m, domain, ends));
      break;
    case MeasurementKind::MassFlow: {
      const double mass = globalMass(domain);
      const double removed = channel.last_mass - mass;
      const double interval = time - channel.last_time;
      channel.csv->write(step, time,
                         {interval, removed, interval > 0.0 ? removed / interval : kNaN, mass});
      channel.last_mass = mass;
      channel.last_time = time;
      break;
    }
  }
}

}  // namespace grains
