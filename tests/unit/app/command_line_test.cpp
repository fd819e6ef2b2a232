#include "grains/app/command_line.hpp"

#include <gtest/gtest.h>

namespace grains {
namespace {

using Command = CommandLine::Command;

TEST(CommandLine, RunWithEverything) {
  const auto cl = parseCommandLine({"run", "pile.yaml", "--output", "out", "--steps", "20", "--set",
                                    "solver.name=apgd", "--set=contact.mu=0.3", "--overwrite"});
  EXPECT_EQ(cl.command, Command::Run);
  EXPECT_EQ(cl.config_path.value(), "pile.yaml");
  EXPECT_EQ(cl.output_dir.value(), "out");
  EXPECT_EQ(cl.steps.value(), 20);
  ASSERT_EQ(cl.overrides.size(), 2u);
  EXPECT_EQ(cl.overrides[1], "contact.mu=0.3");
  EXPECT_TRUE(cl.overwrite);
}

TEST(CommandLine, RunWithoutConfigUsesDemo) {
  const auto cl = parseCommandLine({"run"});
  EXPECT_EQ(cl.command, Command::Run);
  EXPECT_FALSE(cl.config_path.has_value());
}

TEST(CommandLine, HelpAndVersion) {
  EXPECT_EQ(parseCommandLine({}).command, Command::Help);
  EXPECT_EQ(parseCommandLine({"--help"}).command, Command::Help);
  EXPECT_EQ(parseCommandLine({"--version"}).command, Command::Version);
  EXPECT_NE(usageText().find("grains run [CONFIG]"), std::string::npos);
}

TEST(CommandLine, ErrorsSayWhatWasExpected) {
  auto message = [](std::vector<std::string> args) {
    try {
      parseCommandLine(args);
    } catch (const UsageError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message({"fly"}).find("unknown command 'fly'"), std::string::npos);
  EXPECT_NE(message({"run", "--steps", "-3"}).find("non-negative integer"), std::string::npos);
  EXPECT_NE(message({"run", "--steps"}).find("expected a value"), std::string::npos);
  EXPECT_NE(message({"run", "--bogus"}).find("unknown option '--bogus'"), std::string::npos);
  EXPECT_NE(message({"run", "a.yaml", "b.yaml"}).find("only one CONFIG"), std::string::npos);
  EXPECT_NE(message({"validate"}).find("expected a CONFIG"), std::string::npos);
  EXPECT_NE(message({"run", "--set", "novalue"}).find("key.path=value"), std::string::npos);
}

}  // namespace
}  // namespace grains
