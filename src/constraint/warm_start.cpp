#include "grains/constraint/warm_start.hpp"

#include "grains/core/parallel_loops.hpp"

#include <algorithm>

namespace grains {

namespace {
bool keyLess(const WarmStartRecord& x, const WarmStartRecord& y) { return x.key < y.key; }
}  // namespace

void WarmStartCache::normalise() {
  if (!std::is_sorted(entries_.begin(), entries_.end(), keyLess))
    std::stable_sort(entries_.begin(), entries_.end(), keyLess);
  // Of each run of equal keys keep the last, as a map assignment would.
  std::size_t out = 0;
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    if (i + 1 < entries_.size() && entries_[i + 1].key == entries_[i].key) continue;
    entries_[out++] = entries_[i];
  }
  entries_.resize(out);
}

std::map<int, std::vector<WarmStartRecord>> WarmStartCache::extractDeparted(
    const std::unordered_map<GlobalId, int>& departed) {
  std::map<int, std::vector<WarmStartRecord>> out;
  if (departed.empty()) return out;
  std::size_t kept = 0;
  for (const WarmStartRecord& r : entries_) {
    const auto moved = departed.find(warmStartOwner(r.key));
    if (moved == departed.end()) {
      entries_[kept++] = r;
    } else {
      out[moved->second].push_back(r);
    }
  }
  entries_.resize(kept);
  return out;
}

void WarmStartCache::insert(const std::vector<WarmStartRecord>& records) {
  entries_.insert(entries_.end(), records.begin(), records.end());
  normalise();
}

void WarmStartCache::fill(const std::vector<Contact>& contacts, int block, Vector& gamma) const {
  auto data = gamma.getDataNonConst();
  double* g = data.getRawPtr();
  const auto b = static_cast<std::size_t>(block);
  parallelFor(contacts.size(), [&](std::size_t i) {
    const auto it = std::lower_bound(
        entries_.begin(), entries_.end(), contacts[i].key,
        [](const WarmStartRecord& r, const ContactKey& key) { return r.key < key; });
    const bool found = it != entries_.end() && it->key == contacts[i].key;
    for (std::size_t k = 0; k < b; ++k) g[i * b + k] = found ? it->impulse[k] : 0.0;
  });
}

void WarmStartCache::store(const std::vector<Contact>& contacts, int block, const Vector& gamma) {
  entries_.resize(contacts.size());
  const auto data = gamma.getData();
  const double* g = data.getRawPtr();
  const auto b = static_cast<std::size_t>(block);
  parallelFor(contacts.size(), [&](std::size_t i) {
    WarmStartRecord& r = entries_[i];
    r.key = contacts[i].key;
    r.impulse.fill(0.0);
    for (std::size_t k = 0; k < b; ++k) r.impulse[k] = g[i * b + k];
  });
  normalise();
}

}  // namespace grains
