#include "grains/constraint/contact_frame_jacobian.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace grains {
namespace {

// Normal-only contacts: per contact the normal and the two arms (9 doubles).
std::vector<double> frames(std::size_t contacts) {
  std::vector<double> values;
  for (std::size_t c = 0; c < contacts; ++c)
    values.insert(values.end(), {0.0, 0.0, 1.0, 0.0, 0.0, 0.1, 0.0, 0.0, -0.1});
  return values;
}

std::vector<ContactKey> keys(std::size_t contacts) {
  std::vector<ContactKey> out;
  for (std::size_t c = 0; c < contacts; ++c)
    out.push_back({static_cast<GlobalId>(c), static_cast<GlobalId>(c + 1), 0});
  return out;
}

std::string constructionError(const std::vector<int>& bodies, std::size_t column_bodies) {
  const std::size_t contacts = bodies.size() / 2;
  try {
    ContactFrameJacobian jacobian(1, bodies, frames(contacts), column_bodies, keys(contacts));
  } catch (const std::logic_error& e) {
    return e.what();
  }
  return "";
}

TEST(ContactFrameJacobian, RefusesBodiesOutsideTheColumnsNamingTheFirst) {
  // Three columns; walls (-1) are allowed on side a only.
  EXPECT_EQ(constructionError({-1, 0, 0, 1, 1, 2}, 3), "");
  EXPECT_EQ(constructionError({0, 1, 1, 7, 2, 5}, 3),
            "ContactFrameJacobian: body 7 outside the 3 column bodies");
  EXPECT_EQ(constructionError({0, -1, -4, 2}, 3),
            "ContactFrameJacobian: body -1 outside the 3 column bodies");
  EXPECT_EQ(constructionError({0, 1, 2, 3}, 3),
            "ContactFrameJacobian: body 3 outside the 3 column bodies");
}

}  // namespace
}  // namespace grains
