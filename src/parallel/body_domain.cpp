#include "grains/parallel/body_domain.hpp"

#include "grains/parallel/mpi_utils.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace grains {

BodyDomain::BodyDomain(RCP<const Comm> comm, std::vector<Body> owned)
    : comm_(std::move(comm)), bodies_(std::move(owned)) {
  num_owned_ = bodies_.size();
  std::sort(bodies_.begin(), bodies_.end(),
            [](const Body& a, const Body& b) { return a.gid < b.gid; });
  rebalance();
  migrate();
}

int BodyDomain::ownerRank(std::size_t i) const {
  if (i < num_owned_) return comm_->getRank();
  return ghost_ranks_.at(i - num_owned_);
}

long BodyDomain::globalBodyCount() const {
  return globalSum(*comm_, static_cast<long>(num_owned_));
}

void BodyDomain::rebalance() {
  bodies_.resize(num_owned_);
  ghost_ranks_.clear();
  decomposition_ = SlabDecomposition::balance(bodies_, *comm_);
}

// Sends outgoing[k] to rank k and appends what arrives, in rank order.
// Counts go through one MPI_Alltoall (O(nranks) per rank; the distributed-runs
// issue replaces this by neighbourhood communication).
void BodyDomain::exchange(const std::vector<std::vector<Body>>& outgoing,
                          std::vector<Body>& incoming, std::vector<int>* source_ranks) const {
  const int nranks = comm_->getSize();
  const MPI_Comm raw = rawMpiComm(*comm_);
  std::vector<int> send_counts(static_cast<std::size_t>(nranks)),
      recv_counts(static_cast<std::size_t>(nranks));
  for (int k = 0; k < nranks; ++k)
    send_counts[k] = static_cast<int>(outgoing[k].size() * sizeof(Body));
  MPI_Alltoall(send_counts.data(), 1, MPI_INT, recv_counts.data(), 1, MPI_INT, raw);
  std::vector<int> send_displs(static_cast<std::size_t>(nranks), 0),
      recv_displs(static_cast<std::size_t>(nranks), 0);
  for (int k = 1; k < nranks; ++k) {
    send_displs[k] = send_displs[k - 1] + send_counts[k - 1];
    recv_displs[k] = recv_displs[k - 1] + recv_counts[k - 1];
  }
  const std::size_t send_total =
      static_cast<std::size_t>(send_displs.back() + send_counts.back()) / sizeof(Body);
  const std::size_t recv_total =
      static_cast<std::size_t>(recv_displs.back() + recv_counts.back()) / sizeof(Body);
  std::vector<Body> send_buffer;
  send_buffer.reserve(send_total);
  for (const auto& list : outgoing) send_buffer.insert(send_buffer.end(), list.begin(), list.end());
  std::vector<Body> recv_buffer(recv_total);
  MPI_Alltoallv(send_buffer.data(), send_counts.data(), send_displs.data(), MPI_BYTE,
                recv_buffer.data(), recv_counts.data(), recv_displs.data(), MPI_BYTE, raw);
  if (source_ranks != nullptr)
    for (int k = 0; k < nranks; ++k)
      source_ranks->insert(source_ranks->end(),
                           static_cast<std::size_t>(recv_counts[k]) / sizeof(Body), k);
  incoming.insert(incoming.end(), recv_buffer.begin(), recv_buffer.end());
}

void BodyDomain::migrate() {
  bodies_.resize(num_owned_);
  ghost_ranks_.clear();
  const int nranks = comm_->getSize();
  if (nranks == 1) return;
  const int self = comm_->getRank();
  std::vector<std::vector<Body>> outgoing(static_cast<std::size_t>(nranks));
  std::vector<Body> kept;
  kept.reserve(bodies_.size());
  for (const Body& b : bodies_) {
    const int owner = decomposition_.ownerOf(b.position);
    if (owner == self)
      kept.push_back(b);
    else
      outgoing[static_cast<std::size_t>(owner)].push_back(b);
  }
  exchange(outgoing, kept, nullptr);
  std::sort(kept.begin(), kept.end(), [](const Body& a, const Body& b) { return a.gid < b.gid; });
  bodies_ = std::move(kept);
  num_owned_ = bodies_.size();
}

void BodyDomain::refreshGhosts(double reach) {
  bodies_.resize(num_owned_);
  ghost_ranks_.clear();
  const int nranks = comm_->getSize();
  if (nranks == 1) return;
  const int self = comm_->getRank();
  std::vector<std::vector<Body>> outgoing(static_cast<std::size_t>(nranks));
  std::vector<int> targets;
  for (std::size_t i = 0; i < num_owned_; ++i) {
    decomposition_.ranksWithin(bodies_[i].position, reach, self, targets);
    for (int k : targets) outgoing[static_cast<std::size_t>(k)].push_back(bodies_[i]);
  }
  exchange(outgoing, bodies_, &ghost_ranks_);
}

}  // namespace grains
