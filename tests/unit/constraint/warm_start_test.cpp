#include "grains/constraint/warm_start.hpp"

#include <gtest/gtest.h>
#include <Tpetra_Core.hpp>

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

}  // namespace
}  // namespace grains
