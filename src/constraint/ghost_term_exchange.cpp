#include "grains/constraint/ghost_term_exchange.hpp"

#include "grains/parallel/mpi_utils.hpp"
#include "grains/parallel/sparse_exchange.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>

namespace grains {

namespace {
/// One ghost incidence announced to the body's owner.
struct IncidenceRecord {
  GlobalOrdinal gid;
  ContactKey key;
};
constexpr int kPlanTag = 4207;
constexpr int kTermTag = 4208;
}  // namespace

GhostTermExchange::GhostTermExchange(const LocalJacobian& jacobian, const Map& body_map,
                                     const Map& column_map) {
  MPI_Comm_dup(rawMpiComm(*body_map.getComm()), &comm_);
  const std::size_t owned = body_map.getNodeNumElements() / 6;
  const std::size_t columns = jacobian.columnBodies();

  // The owner of each ghost column (a collective directory lookup).
  std::vector<GlobalOrdinal> ghost_dofs;
  for (std::size_t b = owned; b < columns; ++b)
    ghost_dofs.push_back(column_map.getGlobalElement(static_cast<LocalOrdinal>(6 * b)));
  std::vector<int> ghost_owner(ghost_dofs.size(), -1);
  body_map.getRemoteIndexList(Teuchos::ArrayView<const GlobalOrdinal>(ghost_dofs),
                              Teuchos::ArrayView<int>(ghost_owner));
  std::vector<int> owner(columns, -1);
  for (std::size_t b = owned; b < columns; ++b) owner[b] = ghost_owner[b - owned];
  std::map<int, std::vector<IncidenceRecord>> outgoing;
  std::map<int, std::vector<int>> slots_to;
  std::vector<std::pair<ContactKey, int>> incidences;
  for (std::size_t b = owned; b < columns; ++b) {
    if (owner[b] < 0)
      throw std::logic_error("GhostTermExchange: ghost column " + std::to_string(b) +
                             " has no owner");
    const GlobalOrdinal gid = column_map.getGlobalElement(static_cast<LocalOrdinal>(6 * b)) / 6;
    incidences.clear();
    jacobian.appendIncidences(b, incidences);
    for (const auto& [key, slot] : incidences) {
      outgoing[owner[b]].push_back({gid, key});
      slots_to[owner[b]].push_back(slot);
    }
  }
  for (auto& [rank, slots] : slots_to) {
    destinations_.push_back(
        {rank, static_cast<int>(send_slots_.size()), static_cast<int>(slots.size())});
    send_slots_.insert(send_slots_.end(), slots.begin(), slots.end());
  }
  const auto received = exchangeRecords(comm_, outgoing, kPlanTag);

  // Each owned body's terms: its own incidences and the received ones, by key.
  std::vector<std::vector<std::pair<ContactKey, int>>> terms(owned);
  int next = 0;
  for (const auto& [rank, records] : received) {
    sources_.push_back({rank, next, static_cast<int>(records.size())});
    for (const IncidenceRecord& r : records) {
      const LocalOrdinal lid = body_map.getLocalElement(6 * r.gid);
      if (lid == Teuchos::OrdinalTraits<LocalOrdinal>::invalid())
        throw std::logic_error("GhostTermExchange: rank " + std::to_string(rank) +
                               " sent a term for body " + std::to_string(r.gid) +
                               ", which this rank does not own");
      terms[static_cast<std::size_t>(lid) / 6].emplace_back(r.key, -(next + 1));
      ++next;
    }
  }
  order_.start.assign(owned + 1, 0);
  for (std::size_t b = 0; b < owned; ++b) {
    auto& list = terms[b];
    jacobian.appendIncidences(b, list);
    std::sort(list.begin(), list.end(),
              [](const auto& x, const auto& y) { return x.first < y.first; });
    for (std::size_t i = 1; i < list.size(); ++i)
      if (list[i].first == list[i - 1].first)
        throw std::logic_error(
            "GhostTermExchange: a contact of body " +
            std::to_string(body_map.getGlobalElement(static_cast<LocalOrdinal>(6 * b)) / 6) +
            " is held by two ranks");
    order_.start[b + 1] = order_.start[b] + static_cast<int>(list.size());
    for (const auto& entry : list) order_.code.push_back(entry.second);
  }
  send_terms_.resize(6 * send_slots_.size());
  received_terms_.resize(6 * static_cast<std::size_t>(next));
  requests_.resize(destinations_.size() + sources_.size());
}

GhostTermExchange::~GhostTermExchange() {
  if (comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
}

void GhostTermExchange::sum(const LocalJacobian& jacobian, double* owned) const {
  std::size_t r = 0;
  for (const Peer& p : sources_)
    MPI_Irecv(received_terms_.data() + 6 * static_cast<std::size_t>(p.begin), 6 * p.count,
              MPI_DOUBLE, p.rank, kTermTag, comm_, &requests_[r++]);
  jacobian.incidenceTerms(send_slots_, send_terms_.data());
  for (const Peer& p : destinations_)
    MPI_Isend(send_terms_.data() + 6 * static_cast<std::size_t>(p.begin), 6 * p.count, MPI_DOUBLE,
              p.rank, kTermTag, comm_, &requests_[r++]);
  MPI_Waitall(static_cast<int>(r), requests_.data(), MPI_STATUSES_IGNORE);
  jacobian.sumInOrder(order_, received_terms_.data(), owned);
}

}  // namespace grains
