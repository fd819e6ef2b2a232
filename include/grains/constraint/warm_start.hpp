#pragma once
// Impulses of the previous step keyed by contact, to warm-start the solver
// for contacts that persist. Kept as a vector sorted by key: storing a step's
// (already key-sorted) contacts is a copy, lookups walk it alongside the
// contacts on all threads (binary searches where the contacts are out of key
// order), and checkpoints get the sorted list as it is.
#include "grains/constraint/contact.hpp"
#include "grains/linalg/tpetra_types.hpp"
#include "grains/solver/cone_set.hpp"

#include <array>
#include <map>
#include <unordered_map>
#include <vector>

namespace grains {

/// One remembered contact impulse, as sent to another rank.
struct WarmStartRecord {
  ContactKey key;
  std::array<double, kMaxBlockSize> impulse{};
};

/// The body whose owner keeps a contact's impulse: key.a, or the body of a
/// wall contact.
inline GlobalId warmStartOwner(const ContactKey& key) { return key.a >= 0 ? key.a : key.b; }

class WarmStartCache {
 public:
  /// Remove and return the entries whose owning body (key.a, or the body of
  /// a wall contact) is in `departed`, grouped by that body's new rank.
  std::map<int, std::vector<WarmStartRecord>> extractDeparted(
      const std::unordered_map<GlobalId, int>& departed);
  void insert(const std::vector<WarmStartRecord>& records);
  /// Fill gamma (block unknowns per contact, local rows in contact order)
  /// with remembered impulses; new contacts start at zero.
  void fill(const std::vector<Contact>& contacts, int block, Vector& gamma) const;
  /// Remember the impulses of this step's contacts (forgets the rest).
  void store(const std::vector<Contact>& contacts, int block, const Vector& gamma);
  std::size_t size() const { return entries_.size(); }
  /// Every entry, sorted by key (checkpoints).
  const std::vector<WarmStartRecord>& records() const { return entries_; }

 private:
  /// Sorts by key and keeps, of equal keys, the entry that came last.
  void normalise();
  std::vector<WarmStartRecord> entries_;
};

}  // namespace grains
