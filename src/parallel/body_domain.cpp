#include "grains/parallel/body_domain.hpp"

#include "grains/geometry/contact_geometry.hpp"
#include "grains/parallel/mpi_utils.hpp"
#include "grains/parallel/zoltan2_partitioner.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <numeric>
#include <stdexcept>
#include <string>
#include <utility>

namespace grains {

namespace {
bool byGid(const Body& a, const Body& b) { return a.gid < b.gid; }

double largestDiameter(const std::vector<Body>& bodies) {
  double d = 0.0;
  for (const Body& b : bodies) d = std::max(d, 2.0 * boundingRadius(b));
  return d;
}

// The width of the cells of the body order: the largest bounding diameter,
// or 1 where there is none (no bodies, or only points).
double usableCell(double diameter) {
  return diameter > 0.0 && std::isfinite(diameter) ? diameter : 1.0;
}

// The low 21 bits of v, two zero bits after each: one axis of a Morton code.
std::uint64_t spreadBits(std::uint64_t v) {
  v &= 0x1fffffULL;
  v = (v | v << 32) & 0x1f00000000ffffULL;
  v = (v | v << 16) & 0x1f0000ff0000ffULL;
  v = (v | v << 8) & 0x100f00f00f00f00fULL;
  v = (v | v << 4) & 0x10c30c30c30c30c3ULL;
  v = (v | v << 2) & 0x1249249249249249ULL;
  return v;
}

// Bodies along a Morton (Z-order) curve over cubic cells as wide as the
// largest bounding diameter, ties by GID (deterministic).
void sortSpatially(std::vector<Body>& bodies) {
  const double cell = usableCell(largestDiameter(bodies));
  constexpr double kHalfRange = 1 << 20;  // cells either side of the origin per axis
  auto axis = [&](double x) {
    const double q = std::floor(x / cell) + kHalfRange;
    if (!(q > 0.0)) return std::uint64_t{0};  // also NaN
    return static_cast<std::uint64_t>(std::min(q, 2.0 * kHalfRange - 1.0));
  };
  std::vector<std::pair<std::uint64_t, GlobalId>> keys(bodies.size());
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    const Vec3& p = bodies[i].position;
    keys[i] = {
        spreadBits(axis(p.x())) | spreadBits(axis(p.y())) << 1 | spreadBits(axis(p.z())) << 2,
        bodies[i].gid};
  }
  if (std::is_sorted(keys.begin(), keys.end())) return;
  std::vector<std::size_t> order(bodies.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(),
            [&keys](std::size_t x, std::size_t y) { return keys[x] < keys[y]; });
  std::vector<Body> sorted;
  sorted.reserve(bodies.size());
  for (const std::size_t i : order) sorted.push_back(std::move(bodies[i]));
  bodies = std::move(sorted);
}

// Auto order: spatial when bodies consecutive in GID order lie more than
// three cell widths apart on average (a lattice, or a pile written out in
// spatial order, is near one; random insertion of the order of the domain).
// Collective.
bool gidOrderIsScattered(const std::vector<Body>& bodies, const Comm& comm) {
  std::vector<std::pair<GlobalId, Vec3>> by_gid(bodies.size());
  for (std::size_t i = 0; i < bodies.size(); ++i) by_gid[i] = {bodies[i].gid, bodies[i].position};
  std::sort(by_gid.begin(), by_gid.end(),
            [](const auto& x, const auto& y) { return x.first < y.first; });
  const double cell = usableCell(globalMax(comm, largestDiameter(bodies)));
  constexpr double kCap = 16.0;  // one far jump must not outweigh many near steps
  double sum = 0.0;
  for (std::size_t i = 1; i < by_gid.size(); ++i) {
    const double cells = (by_gid[i].second - by_gid[i - 1].second).norm() / cell;
    sum += std::isfinite(cells) ? std::min(cells, kCap) : kCap;
  }
  const long steps = globalSum(comm, static_cast<long>(by_gid.size() > 1 ? by_gid.size() - 1 : 0));
  sum = globalSum(comm, sum);
  return steps > 0 && sum > 3.0 * static_cast<double>(steps);
}

// Work estimate of one body: itself plus its contacts of the last step.
double bodyLoad(const Body& b) { return 1.0 + static_cast<double>(std::max(b.num_contacts, 0)); }
}  // namespace

BodyDomain::BodyDomain(RCP<const Comm> comm, std::vector<Body> owned, ParallelSection settings)
    : comm_(std::move(comm)),
      settings_(settings),
      bodies_(std::move(owned)),
      image_shifts_(settings_.periodic.imageShifts()) {
  MPI_Comm_dup(rawMpiComm(*comm_), &exchange_comm_);
  num_owned_ = bodies_.size();
  wrapOwned();  // the partition sees the wrapped centres
  spatial_ = settings_.body_order == BodyOrder::Spatial ||
             (settings_.body_order == BodyOrder::Auto && gidOrderIsScattered(bodies_, *comm_));
  orderOwned(bodies_);
  repartition();
}

BodyDomain::BodyDomain(RCP<const Comm> comm, std::vector<Body> owned, ParallelSection settings,
                       const DomainLayout& layout)
    : comm_(std::move(comm)),
      settings_(settings),
      bodies_(std::move(owned)),
      image_shifts_(settings_.periodic.imageShifts()) {
  const std::size_t ranks = static_cast<std::size_t>(comm_->getSize());
  if (ranks > 1 && layout.boxes.size() != ranks)
    throw std::invalid_argument("BodyDomain: the layout has " +
                                std::to_string(layout.boxes.size()) + " boxes for " +
                                std::to_string(ranks) + " ranks");
  MPI_Comm_dup(rawMpiComm(*comm_), &exchange_comm_);
  num_owned_ = bodies_.size();
  spatial_ = settings_.body_order == BodyOrder::Auto ? layout.spatial_order
                                                     : settings_.body_order == BodyOrder::Spatial;
  // A spatial order is kept as the checkpoint stored it (on the same rank
  // count, the order the run had), so the run continues bit for bit.
  if (!spatial_) orderOwned(bodies_);
  if (ranks > 1) boxes_ = BoxDecomposition(layout.boxes, comm_->getRank());
  last_repartition_step_ = layout.last_repartition_step;
  repartitions_ = layout.repartitions;
}

DomainLayout BodyDomain::layout() const {
  DomainLayout out;
  if (comm_->getSize() > 1)
    for (int k = 0; k < boxes_.numRanks(); ++k) out.boxes.push_back(boxes_.box(k));
  out.last_repartition_step = last_repartition_step_;
  out.repartitions = repartitions_;
  out.spatial_order = spatial_;
  return out;
}

BodyDomain::~BodyDomain() {
  if (exchange_comm_ != MPI_COMM_NULL) MPI_Comm_free(&exchange_comm_);
}

int BodyDomain::ownerRank(std::size_t i) const {
  if (i < num_owned_) return comm_->getRank();
  return ghost_ranks_.at(i - num_owned_);
}

long BodyDomain::globalBodyCount() const {
  return globalSum(*comm_, static_cast<long>(num_owned_));
}

// Two alternating tags keep consecutive exchanges apart: a rank can be at
// most one exchange ahead of another (each ends with a barrier).
int BodyDomain::nextTag() { return 7100 + (tag_round_++ % 2); }

void BodyDomain::orderOwned(std::vector<Body>& owned) const {
  if (spatial_) {
    sortSpatially(owned);
  } else {
    std::sort(owned.begin(), owned.end(), byGid);
  }
}

void BodyDomain::dropGhosts() {
  bodies_.resize(num_owned_);
  ghost_ranks_.clear();
}

void BodyDomain::adoptOwned(std::vector<Body> kept,
                            const std::vector<std::pair<int, std::vector<Body>>>& arrived,
                            bool resort) {
  const std::size_t stayed = kept.size();
  for (const auto& [source, list] : arrived) kept.insert(kept.end(), list.begin(), list.end());
  if (!spatial_ || resort) {
    orderOwned(kept);
  } else {
    // Between spatial sorts the bodies that stayed keep their places and the
    // arrivals follow by GID (deterministic whatever order messages came in).
    std::sort(kept.begin() + static_cast<long>(stayed), kept.end(), byGid);
  }
  bodies_ = std::move(kept);
  num_owned_ = bodies_.size();
}

void BodyDomain::maybeSortSpatially(long step) {
  if (!spatial_ || step % settings_.sort_every != 0) return;
  dropGhosts();
  orderOwned(bodies_);
}

void BodyDomain::replaceOwned(std::vector<Body> owned) {
  dropGhosts();
  adoptOwned(std::move(owned), {}, false);
}

void BodyDomain::repartition() {
  dropGhosts();
  ++repartitions_;
  if (comm_->getSize() == 1) return;
  // Nothing to partition yet (bodies poured later): the boxes stay as they
  // are (at first rank 0 owns all of space) until there are bodies.
  if (globalBodyCount() == 0) return;
  std::vector<double> weights(num_owned_);
  for (std::size_t i = 0; i < num_owned_; ++i) weights[i] = bodyLoad(bodies_[i]);
  Partition partition = partitionBodies(bodies_, weights, settings_.partitioner, comm_);
  boxes_ = std::move(partition.boxes);
  const int self = comm_->getRank();
  std::map<int, std::vector<Body>> outgoing;
  std::vector<Body> kept;
  kept.reserve(num_owned_);
  for (std::size_t i = 0; i < num_owned_; ++i) {
    if (partition.owner[i] == self) {
      kept.push_back(bodies_[i]);
    } else {
      outgoing[partition.owner[i]].push_back(bodies_[i]);
      departures_[bodies_[i].gid] = partition.owner[i];
    }
  }
  adoptOwned(std::move(kept), exchangeRecords(exchange_comm_, outgoing, nextTag(), &volume_), true);
}

bool BodyDomain::maybeRepartition(long step) {
  if (comm_->getSize() == 1) return false;
  const double imbalance = loadImbalance();
  const long since = step - last_repartition_step_;
  const bool periodic = settings_.repartition_every > 0 && since >= settings_.repartition_every;
  const bool unbalanced =
      imbalance > settings_.imbalance_threshold && since >= settings_.min_repartition_interval;
  if (!periodic && !unbalanced) return false;
  repartition();
  last_repartition_step_ = step;
  return true;
}

long BodyDomain::wrapOwned() {
  if (!settings_.periodic.any()) return 0;
  long moved = 0;
  for (std::size_t i = 0; i < num_owned_; ++i)
    moved += settings_.periodic.wrap(bodies_[i].position);
  return moved;
}

void BodyDomain::migrate() {
  dropGhosts();
  wrapOwned();
  if (comm_->getSize() == 1) return;
  const int self = comm_->getRank();
  std::map<int, std::vector<Body>> outgoing;
  std::vector<Body> kept;
  kept.reserve(num_owned_);
  for (const Body& b : bodies_) {
    const int owner = boxes_.ownerOf(b.position);
    if (owner == self) {
      kept.push_back(b);
    } else {
      outgoing[owner].push_back(b);
      departures_[b.gid] = owner;
    }
  }
  adoptOwned(std::move(kept), exchangeRecords(exchange_comm_, outgoing, nextTag(), &volume_),
             false);
}

void BodyDomain::refreshGhosts(double reach) {
  dropGhosts();
  const bool distributed = comm_->getSize() > 1;
  if (!distributed && image_shifts_.empty()) return;
  const PeriodicBox& box = settings_.periodic;
  for (int d = 0; d < 3; ++d)
    if (box.periodic[d] && !(reach < box.length(d)))
      throw std::runtime_error(
          "periodic box: the halo reach " + std::to_string(reach) +
          " m is not below the box length " + std::to_string(box.length(d)) + " m along " +
          std::string(1, "xyz"[d]) +
          " (an image would need more than one box length of shift); make domain.max - "
          "domain.min larger or the bodies and the contact envelope smaller");
  const int self = comm_->getRank();
  std::map<int, std::vector<Body>> outgoing;
  std::vector<Body> own_images;  // images this rank sees of its own bodies
  std::vector<int> targets;
  for (std::size_t i = 0; i < num_owned_; ++i) {
    const Body& body = bodies_[i];
    if (distributed) {
      boxes_.ranksWithin(body.position, reach, targets);
      for (int k : targets) outgoing[k].push_back(body);
    }
    for (const Vec3& shift : image_shifts_) {
      const Vec3 at = body.position + shift;
      if (!box.withinReach(at, reach)) continue;
      // Any rank may be near an image, the far side of space included.
      boxes_.allRanksWithin(at, reach, targets);
      for (int k : targets) {
        Body image = body;
        image.position = at;
        if (k == self)
          own_images.push_back(std::move(image));
        else
          outgoing[k].push_back(std::move(image));
      }
    }
  }
  if (distributed) {
    const auto arrived = exchangeRecords(exchange_comm_, outgoing, nextTag(), &volume_);
    for (const auto& [source, list] : arrived) {
      bodies_.insert(bodies_.end(), list.begin(), list.end());
      ghost_ranks_.insert(ghost_ranks_.end(), list.size(), source);
    }
  }
  bodies_.insert(bodies_.end(), own_images.begin(), own_images.end());
  ghost_ranks_.insert(ghost_ranks_.end(), own_images.size(), self);
}

std::unordered_map<GlobalId, int> BodyDomain::takeDepartures() {
  std::unordered_map<GlobalId, int> out;
  out.swap(departures_);
  return out;
}

double BodyDomain::loadImbalance() const {
  double load = 0.0;
  for (std::size_t i = 0; i < num_owned_; ++i) load += bodyLoad(bodies_[i]);
  const double max_load = globalMax(*comm_, load);
  const double mean = globalSum(*comm_, load) / comm_->getSize();
  return mean > 0.0 ? max_load / mean : 1.0;
}

DomainStats BodyDomain::collectStats() {
  DomainStats s;
  const MPI_Comm raw = rawMpiComm(*comm_);
  const int nranks = comm_->getSize();
  long mins[1] = {static_cast<long>(num_owned_)};
  long maxs[2] = {static_cast<long>(num_owned_), volume_.bytes_sent};
  double sums[2] = {static_cast<double>(num_owned_), static_cast<double>(volume_.bytes_sent)};
  MPI_Allreduce(MPI_IN_PLACE, mins, 1, MPI_LONG, MPI_MIN, raw);
  MPI_Allreduce(MPI_IN_PLACE, maxs, 2, MPI_LONG, MPI_MAX, raw);
  MPI_Allreduce(MPI_IN_PLACE, sums, 2, MPI_DOUBLE, MPI_SUM, raw);
  s.bodies_min = mins[0];
  s.bodies_max = maxs[0];
  s.bytes_sent_max = maxs[1];
  s.bodies_mean = sums[0] / nranks;
  s.bytes_sent_mean = sums[1] / nranks;
  s.load_imbalance = loadImbalance();
  s.repartitions = repartitions_;
  volume_ = ExchangeVolume{};
  return s;
}

}  // namespace grains
