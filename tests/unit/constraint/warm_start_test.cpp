#include "grains/constraint/warm_start.hpp"

#include <gtest/gtest.h>
#include <Tpetra_Core.hpp>

#include <algorithm>
#include <map>
#include <random>
#include <vector>

namespace grains {
namespace {

Contact contact(GlobalId a, GlobalId b) {
  Contact c;
  c.key = {a, b};
  return c;
}

TEST(WarmStart, PersistingContactsGetTheirImpulsesNewOnesZero) {
  auto comm = Tpetra::getDefaultComm();
  const std::vector<Contact> first{contact(1, 2), contact(-1, 5), contact(3, 4)};
  auto map1 = rcp(new Map(3 * first.size(), 0, comm));
  Vector g1(map1);
  for (std::size_t i = 0; i < 9; ++i) g1.replaceLocalValue(static_cast<LocalOrdinal>(i), 1.0 + i);
  WarmStartCache cache;
  cache.store(first, 3, g1);
  EXPECT_EQ(cache.size(), 3u);

  const std::vector<Contact> second{contact(3, 4), contact(7, 8), contact(1, 2)};
  auto map2 = rcp(new Map(9, 0, comm));
  Vector g2(map2);
  cache.fill(second, 3, g2);
  auto v = g2.getData();
  const double expected[9] = {7, 8, 9, 0, 0, 0, 1, 2, 3};
  for (int i = 0; i < 9; ++i) EXPECT_DOUBLE_EQ(v[i], expected[i]) << i;
}

TEST(WarmStart, DepartedOwnersTakeTheirContactsAlong) {
  auto comm = Tpetra::getDefaultComm();
  const std::vector<Contact> contacts{contact(1, 2), contact(-1, 5), contact(3, 4)};
  auto map = rcp(new Map(3, 0, comm));
  Vector g(map);
  g.putScalar(2.5);
  WarmStartCache cache;
  cache.store(contacts, 1, g);
  // Body 5 (wall contact owner) went to rank 4, body 2 (not an owner) to rank 1.
  auto out = cache.extractDeparted({{5, 4}, {2, 1}});
  ASSERT_EQ(out.size(), 1u);
  ASSERT_EQ(out[4].size(), 1u);
  EXPECT_EQ(out[4][0].key, (ContactKey{-1, 5}));
  EXPECT_DOUBLE_EQ(out[4][0].impulse[0], 2.5);
  EXPECT_EQ(cache.size(), 2u);

  WarmStartCache other;
  other.insert(out[4]);
  Vector h(rcp(new Map(1, 0, comm)));
  other.fill({contact(-1, 5)}, 1, h);
  EXPECT_DOUBLE_EQ(h.getData()[0], 2.5);
}

TEST(WarmStart, LookupsMatchTheStoredImpulsesInAnyContactOrder) {
  // 5000 remembered contacts, then 4000 contacts of which two thirds are
  // remembered, in five orders: sorted (the walk), runs that restart below
  // their predecessor, forgotten and remembered keys alternating, ascending
  // but far apart, shuffled.
  auto comm = Tpetra::getDefaultComm();
  std::vector<Contact> stored;
  for (GlobalId a = 0; a < 1000; ++a)
    for (GlobalId b = a + 1; b <= a + 5; ++b) stored.push_back(contact(a, b));
  Vector impulses(rcp(new Map(stored.size(), 0, comm)));
  for (std::size_t i = 0; i < stored.size(); ++i)
    impulses.replaceLocalValue(static_cast<LocalOrdinal>(i), 1.0 + static_cast<double>(i));
  WarmStartCache cache;
  cache.store(stored, 1, impulses);
  std::map<std::pair<GlobalId, GlobalId>, double> remembered;
  for (std::size_t i = 0; i < stored.size(); ++i)
    remembered[{stored[i].key.a, stored[i].key.b}] = 1.0 + static_cast<double>(i);

  std::vector<Contact> asked;
  for (GlobalId a = 0; a < 1200; a += 1)
    for (GlobalId b = a + 2; b <= a + 6 && asked.size() < 4000; b += 1)
      if ((a + b) % 3 != 0 || a >= 1000) asked.push_back(contact(a, b));
  std::sort(asked.begin(), asked.end(),
            [](const Contact& x, const Contact& y) { return x.key < y.key; });
  std::vector<std::vector<Contact>> orders{asked};
  std::vector<Contact> runs = asked;  // blocks of 700, last block first
  for (std::size_t first = 0; first + 700 < runs.size(); first += 700)
    std::rotate(runs.begin() + static_cast<long>(first),
                runs.begin() + static_cast<long>(first) + 350,
                runs.begin() + static_cast<long>(first) + 700);
  orders.push_back(runs);
  std::vector<Contact> alternating;  // a forgotten key, then the next remembered one
  for (GlobalId a = 0; a + 1 < 1000; ++a) {
    alternating.push_back(contact(a, a + 6));
    alternating.push_back(contact(a + 1, a + 2));
  }
  orders.push_back(alternating);
  std::vector<Contact> sparse;  // ascending, far apart: the walk's binary search
  for (std::size_t i = 0; i < asked.size(); i += 17) sparse.push_back(asked[i]);
  orders.push_back(sparse);
  std::vector<Contact> shuffled = asked;
  std::shuffle(shuffled.begin(), shuffled.end(), std::mt19937(7));
  orders.push_back(shuffled);
  for (const std::vector<Contact>& order : orders) {
    Vector gamma(rcp(new Map(order.size(), 0, comm)));
    gamma.putScalar(-1.0);
    cache.fill(order, 1, gamma);
    const auto g = gamma.getData();
    std::size_t hits = 0;
    for (std::size_t i = 0; i < order.size(); ++i) {
      const auto at = remembered.find({order[i].key.a, order[i].key.b});
      const double expected = at == remembered.end() ? 0.0 : at->second;
      hits += at != remembered.end() ? 1 : 0;
      ASSERT_EQ(g[i], expected) << "contact " << i << " (" << order[i].key.a << ", "
                                << order[i].key.b << ")";
    }
    EXPECT_GE(hits, order.size() / 3);
    EXPECT_LT(hits, order.size());
  }
}

}  // namespace
}  // namespace grains
