#include "grains/parallel/body_domain.hpp"

#include "grains/parallel/mpi_utils.hpp"
#include "grains/parallel/zoltan2_partitioner.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>

namespace grains {

namespace {
bool byGid(const Body& a, const Body& b) { return a.gid < b.gid; }
// Work estimate of one body: itself plus its contacts of the last step.
double bodyLoad(const Body& b) { return 1.0 + static_cast<double>(std::max(b.num_contacts, 0)); }
}  // namespace

BodyDomain::BodyDomain(RCP<const Comm> comm, std::vector<Body> owned, ParallelSection settings)
    : comm_(std::move(comm)), settings_(settings), bodies_(std::move(owned)) {
  MPI_Comm_dup(rawMpiComm(*comm_), &exchange_comm_);
  num_owned_ = bodies_.size();
  std::sort(bodies_.begin(), bodies_.end(), byGid);
  repartition();
}

BodyDomain::BodyDomain(RCP<const Comm> comm, std::vector<Body> owned, ParallelSection settings,
                       const DomainLayout& layout)
    : comm_(std::move(comm)), settings_(settings), bodies_(std::move(owned)) {
  const std::size_t ranks = static_cast<std::size_t>(comm_->getSize());
  if (ranks > 1 && layout.boxes.size() != ranks)
    throw std::invalid_argument("BodyDomain: the layout has " +
                                std::to_string(layout.boxes.size()) + " boxes for " +
                                std::to_string(ranks) + " ranks");
  MPI_Comm_dup(rawMpiComm(*comm_), &exchange_comm_);
  num_owned_ = bodies_.size();
  std::sort(bodies_.begin(), bodies_.end(), byGid);
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

void BodyDomain::dropGhosts() {
  bodies_.resize(num_owned_);
  ghost_ranks_.clear();
}

void BodyDomain::adoptOwned(std::vector<Body> kept,
                            const std::vector<std::pair<int, std::vector<Body>>>& arrived) {
  for (const auto& [source, list] : arrived) kept.insert(kept.end(), list.begin(), list.end());
  std::sort(kept.begin(), kept.end(), byGid);
  bodies_ = std::move(kept);
  num_owned_ = bodies_.size();
}

void BodyDomain::replaceOwned(std::vector<Body> owned) {
  dropGhosts();
  adoptOwned(std::move(owned), {});
}

void BodyDomain::repartition() {
  dropGhosts();
  ++repartitions_;
  if (comm_->getSize() == 1) return;
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
  adoptOwned(std::move(kept), exchangeRecords(exchange_comm_, outgoing, nextTag(), &volume_));
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

void BodyDomain::migrate() {
  dropGhosts();
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
  adoptOwned(std::move(kept), exchangeRecords(exchange_comm_, outgoing, nextTag(), &volume_));
}

void BodyDomain::refreshGhosts(double reach) {
  dropGhosts();
  if (comm_->getSize() == 1) return;
  std::map<int, std::vector<Body>> outgoing;
  std::vector<int> targets;
  for (std::size_t i = 0; i < num_owned_; ++i) {
    boxes_.ranksWithin(bodies_[i].position, reach, targets);
    for (int k : targets) outgoing[k].push_back(bodies_[i]);
  }
  const auto arrived = exchangeRecords(exchange_comm_, outgoing, nextTag(), &volume_);
  for (const auto& [source, list] : arrived) {
    bodies_.insert(bodies_.end(), list.begin(), list.end());
    ghost_ranks_.insert(ghost_ranks_.end(), list.size(), source);
  }
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
