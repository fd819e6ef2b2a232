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
  const auto less = [](const WarmStartRecord& r, const ContactKey& key) { return r.key < key; };
  // The first entry not below `key`, searched from `from`, an entry not
  // above it: a few steps forward, then a binary search over the rest.
  const auto search_from = [&](std::vector<WarmStartRecord>::const_iterator from,
                               const ContactKey& key) {
    for (int step = 0; step < 8 && from != entries_.end(); ++step, ++from)
      if (!(from->key < key)) return from;
    return std::lower_bound(from, entries_.end(), key, less);
  };
  // Contacts mostly come in key order, as the entries are kept: a chunk of
  // them then walks the entries forward from one binary search instead of
  // searching for every contact (a cache miss at every halving). A key below
  // its predecessor starts a new search.
  constexpr std::size_t kChunk = 1024;
  const std::size_t chunks = (contacts.size() + kChunk - 1) / kChunk;
  parallelFor(chunks, [&](std::size_t chunk) {
    const std::size_t first = chunk * kChunk;
    const std::size_t last = std::min(contacts.size(), first + kChunk);
    auto it = entries_.cbegin();
    for (std::size_t i = first; i < last; ++i) {
      const ContactKey& key = contacts[i].key;
      it = i > first && !(key < contacts[i - 1].key)
               ? search_from(it, key)
               : std::lower_bound(entries_.cbegin(), entries_.cend(), key, less);
      const bool found = it != entries_.end() && it->key == key;
      for (std::size_t k = 0; k < b; ++k) g[i * b + k] = found ? it->impulse[k] : 0.0;
    }
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
