// Log levels: what each level shows, on which rank, with which prefix.
#include "grains/io/log.hpp"

#include <gtest/gtest.h>

#include <sstream>

namespace grains {
namespace {

std::string everyLevel(LogLevel level, int rank) {
  std::ostringstream out;
  const Log log(&out, level, rank);
  log.error("e");
  log.warn("w");
  log.info("i");
  log.debug("d");
  log.rankWarn("r");
  return out.str();
}

TEST(Log, EachLevelShowsItselfAndTheLevelsBefore) {
  EXPECT_EQ(everyLevel(LogLevel::Error, 0), "error: e\n");
  EXPECT_EQ(everyLevel(LogLevel::Warn, 0), "error: e\nwarning: w\n[rank 0] warning: r\n");
  EXPECT_EQ(everyLevel(LogLevel::Info, 0), "error: e\nwarning: w\ni\n[rank 0] warning: r\n");
  EXPECT_EQ(everyLevel(LogLevel::Debug, 0),
            "error: e\nwarning: w\ni\ndebug: d\n[rank 0] warning: r\n");
}

TEST(Log, OtherRanksPrintOnlyTheirOwnProblems) {
  EXPECT_EQ(everyLevel(LogLevel::Debug, 3), "[rank 3] warning: r\n");
  EXPECT_EQ(everyLevel(LogLevel::Error, 3), "");
  const Log silent;
  EXPECT_FALSE(silent.shows(LogLevel::Error));
  std::ostringstream out;
  EXPECT_TRUE(Log(&out, LogLevel::Info, 0).shows(LogLevel::Info));
  EXPECT_FALSE(Log(&out, LogLevel::Info, 0).shows(LogLevel::Debug));
  EXPECT_FALSE(Log(&out, LogLevel::Info, 1).shows(LogLevel::Error));
}

TEST(Log, LevelNamesRoundTripAndUnknownNamesAreRejected) {
  for (LogLevel level : {LogLevel::Error, LogLevel::Warn, LogLevel::Info, LogLevel::Debug})
    EXPECT_EQ(logLevelFromName(logLevelName(level)), level);
  EXPECT_FALSE(logLevelFromName("warning"));
  EXPECT_FALSE(logLevelFromName("INFO"));
  EXPECT_FALSE(logLevelFromName(""));
}

TEST(Log, MultiLineMessagesEndWithOneNewline) {
  std::ostringstream out;
  Log(&out, LogLevel::Info, 0).info("table\nrow\n");
  EXPECT_EQ(out.str(), "table\nrow\n");
}

}  // namespace
}  // namespace grains
