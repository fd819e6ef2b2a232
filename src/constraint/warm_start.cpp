#include "grains/constraint/warm_start.hpp"

#include <algorithm>

namespace grains {

std::map<int, std::vector<WarmStartRecord>> WarmStartCache::extractDeparted(
    const std::unordered_map<GlobalId, int>& departed) {
  std::map<int, std::vector<WarmStartRecord>> out;
  if (departed.empty()) return out;
  for (auto it = impulses_.begin(); it != impulses_.end();) {
    const GlobalId owner_body = warmStartOwner(it->first);
    const auto moved = departed.find(owner_body);
    if (moved == departed.end()) {
      ++it;
      continue;
    }
    out[moved->second].push_back(WarmStartRecord{it->first, it->second});
    it = impulses_.erase(it);
  }
  return out;
}

void WarmStartCache::insert(const std::vector<WarmStartRecord>& records) {
  for (const auto& r : records) impulses_[r.key] = r.impulse;
}

std::vector<WarmStartRecord> WarmStartCache::records() const {
  std::vector<WarmStartRecord> out;
  out.reserve(impulses_.size());
  for (const auto& [key, impulse] : impulses_) out.push_back(WarmStartRecord{key, impulse});
  std::sort(out.begin(), out.end(),
            [](const WarmStartRecord& x, const WarmStartRecord& y) { return x.key < y.key; });
  return out;
}

void WarmStartCache::fill(const std::vector<Contact>& contacts, int block, Vector& gamma) const {
  auto g = gamma.getDataNonConst();
  for (std::size_t i = 0; i < contacts.size(); ++i) {
    const auto it = impulses_.find(contacts[i].key);
    for (int k = 0; k < block; ++k)
      g[i * block + k] = it == impulses_.end() ? 0.0 : it->second[static_cast<std::size_t>(k)];
  }
}

void WarmStartCache::store(const std::vector<Contact>& contacts, int block, const Vector& gamma) {
  impulses_.clear();
  impulses_.reserve(contacts.size());
  auto g = gamma.getData();
  for (std::size_t i = 0; i < contacts.size(); ++i) {
    std::array<double, 3> value{0.0, 0.0, 0.0};
    for (int k = 0; k < block; ++k) value[static_cast<std::size_t>(k)] = g[i * block + k];
    impulses_[contacts[i].key] = value;
  }
}

}  // namespace grains
