#include "grains/parallel/body_domain.hpp"

#include "grains/parallel/mpi_utils.hpp"
#include "grains/parallel/zoltan2_partitioner.hpp"

#include <algorithm>
#include <map>

namespace grains {

namespace {
bool byGid(const Body& a, const Body& b) { return a.gid < b.gid; }
}  // namespace

BodyDomain::BodyDomain(RCP<const Comm> comm, std::vector<Body> owned, ParallelSection settings)
    : comm_(std::move(comm)), settings_(settings), bodies_(std::move(owned)) {
  MPI_Comm_dup(rawMpiComm(*comm_), &exchange_comm_);
  num_owned_ = bodies_.size();
  std::sort(bodies_.begin(), bodies_.end(), byGid);
  repartition();
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

void BodyDomain::repartition() {
  dropGhosts();
  ++repartitions_;
  if (comm_->getSize() == 1) return;
  std::vector<double> weights(num_owned_);
  for (std::size_t i = 0; i < num_owned_; ++i)
    weights[i] = 1.0 + static_cast<double>(std::max(bodies_[i].num_contacts, 0));
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
  double load = 0.0;
  for (std::size_t i = 0; i < num_owned_; ++i)
    load += 1.0 + static_cast<double>(std::max(bodies_[i].num_contacts, 0));
  double loads[2] = {load, load};  // max, sum
  MPI_Allreduce(MPI_IN_PLACE, &loads[0], 1, MPI_DOUBLE, MPI_MAX, rawMpiComm(*comm_));
  MPI_Allreduce(MPI_IN_PLACE, &loads[1], 1, MPI_DOUBLE, MPI_SUM, rawMpiComm(*comm_));
  const double mean = loads[1] / comm_->getSize();
  const double imbalance = mean > 0.0 ? loads[0] / mean : 1.0;
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

DomainStats BodyDomain::collectStats() {
  DomainStats s;
  const MPI_Comm raw = rawMpiComm(*comm_);
  const int nranks = comm_->getSize();
  double load = 0.0;
  for (std::size_t i = 0; i < num_owned_; ++i)
    load += 1.0 + static_cast<double>(std::max(bodies_[i].num_contacts, 0));
  long mins[1] = {static_cast<long>(num_owned_)};
  long maxs[2] = {static_cast<long>(num_owned_), volume_.bytes_sent};
  double sums[3] = {static_cast<double>(num_owned_), load, static_cast<double>(volume_.bytes_sent)};
  double max_load = load;
  MPI_Allreduce(MPI_IN_PLACE, mins, 1, MPI_LONG, MPI_MIN, raw);
  MPI_Allreduce(MPI_IN_PLACE, maxs, 2, MPI_LONG, MPI_MAX, raw);
  MPI_Allreduce(MPI_IN_PLACE, sums, 3, MPI_DOUBLE, MPI_SUM, raw);
  MPI_Allreduce(MPI_IN_PLACE, &max_load, 1, MPI_DOUBLE, MPI_MAX, raw);
  s.bodies_min = mins[0];
  s.bodies_max = maxs[0];
  s.bytes_sent_max = maxs[1];
  s.bodies_mean = sums[0] / nranks;
  s.load_imbalance = sums[1] > 0.0 ? max_load / (sums[1] / nranks) : 1.0;
  s.bytes_sent_mean = sums[2] / nranks;
  s.repartitions = repartitions_;
  volume_ = ExchangeVolume{};
  return s;
}

}  // namespace grains
