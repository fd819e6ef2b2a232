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

TEST(CommandLine, RestartFile) {
  EXPECT_EQ(parseCommandLine({"run", "pile.yaml", "--restart", "out/c.h5"}).restart_file.value(),
            "out/c.h5");
  EXPECT_EQ(parseCommandLine({"run", "--restart=out"}).restart_file.value(), "out");
  EXPECT_FALSE(parseCommandLine({"run", "pile.yaml"}).restart_file.has_value());
  EXPECT_THROW(parseCommandLine({"run", "--restart"}), UsageError);
  EXPECT_THROW(parseCommandLine({"validate", "a.yaml", "--restart", "c.h5"}), UsageError);
}

TEST(CommandLine, ExportQpStepsAndDirectory) {
  const auto cl = parseCommandLine({"run", "pile.yaml", "--export-qp", "5,200,17", "qpdir"});
  EXPECT_EQ(cl.export_qp_steps, (std::vector<long>{5, 200, 17}));
  EXPECT_EQ(cl.export_qp_dir, "qpdir");
  // A value that is also a command name is still a value.
  EXPECT_EQ(parseCommandLine({"run", "--export-qp", "60", "qp"}).export_qp_dir, "qp");
  EXPECT_EQ(parseCommandLine({"run", "--output", "run"}).output_dir.value(), "run");
  EXPECT_EQ(parseCommandLine({"qp", "solve", "solvers", "--solver", "a"}).qp.dir, "solvers");
  auto message = [](std::vector<std::string> args) {
    try {
      parseCommandLine(args);
    } catch (const UsageError& e) {
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  EXPECT_NE(message({"run", "--export-qp", "5,x", "d"}).find("--export-qp = 'x'"),
            std::string::npos);
  EXPECT_NE(message({"run", "--export-qp", "0", "d"}).find(">= 1"), std::string::npos);
  EXPECT_NE(message({"run", "--export-qp", "5"}).find("expected a value"), std::string::npos);
  EXPECT_NE(message({"validate", "a.yaml", "--export-qp", "5", "d"}).find("only --set"),
            std::string::npos);
}

TEST(CommandLine, QpSolveRequest) {
  const auto cl = parseCommandLine({"qp", "solve", "qp/step_5", "--solver", "spg", "--tolerance",
                                    "1e-8", "--max-iterations", "500", "--option", "n_gll=5",
                                    "--history", "h.csv", "--history-every", "10", "--warm-start",
                                    "stored", "--outer-iterations", "3"});
  EXPECT_EQ(cl.command, Command::QpSolve);
  EXPECT_EQ(cl.qp.dir, "qp/step_5");
  EXPECT_EQ(cl.qp.solver, "spg");
  EXPECT_DOUBLE_EQ(cl.qp.tolerance.value(), 1e-8);
  EXPECT_EQ(cl.qp.max_iterations.value(), 500);
  ASSERT_EQ(cl.qp.options.size(), 1u);
  EXPECT_EQ(cl.qp.options[0].first, "n_gll");
  EXPECT_DOUBLE_EQ(cl.qp.options[0].second, 5.0);
  EXPECT_EQ(cl.qp.history_path.value(), "h.csv");
  EXPECT_EQ(cl.qp.history_every, 10);
  EXPECT_TRUE(cl.qp.warm_start_from_file);
  EXPECT_EQ(cl.qp.outer_iterations.value(), 3);
  auto message = [](std::vector<std::string> args) {
    try {
      parseCommandLine(args);
    } catch (const UsageError& e) {
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  EXPECT_NE(message({"qp", "solve", "d"}).find("--solver"), std::string::npos);
  EXPECT_NE(message({"qp", "solve", "--solver", "apgd"}).find("DIR"), std::string::npos);
  EXPECT_NE(message({"qp", "list"}).find("qp solve DIR"), std::string::npos);
  EXPECT_NE(message({"qp", "solve", "d", "--solver", "a", "--option", "x"}).find("KEY=VALUE"),
            std::string::npos);
  EXPECT_NE(message({"qp", "solve", "d", "--solver", "a", "--tolerance", "0"}).find("> 0"),
            std::string::npos);
  EXPECT_NE(
      message({"qp", "solve", "d", "--solver", "a", "--warm-start", "hot"}).find("zero or stored"),
      std::string::npos);
}

TEST(CommandLine, QpSolversListing) {
  EXPECT_EQ(parseCommandLine({"qp", "solvers"}).command, Command::QpSolvers);
  EXPECT_EQ(parseCommandLine({"qp", "solvers", "--help"}).command, Command::Help);
  try {
    parseCommandLine({"qp", "solvers", "apgd"});
    ADD_FAILURE() << "an argument after 'qp solvers' was accepted";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("'apgd'"), std::string::npos) << e.what();
  }
  try {
    parseCommandLine({"qp"});
    ADD_FAILURE() << "'qp' alone was accepted";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("qp solvers"), std::string::npos) << e.what();
  }
  EXPECT_NE(usageText().find("grains qp solvers"), std::string::npos);
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
  EXPECT_NE(message({"run", "--steps", "-3"}).find("an integer >= 0"), std::string::npos);
  EXPECT_NE(message({"run", "--steps"}).find("expected a value"), std::string::npos);
  EXPECT_NE(message({"run", "--bogus"}).find("unknown option '--bogus'"), std::string::npos);
  EXPECT_NE(message({"run", "a.yaml", "b.yaml"}).find("only one CONFIG"), std::string::npos);
  EXPECT_NE(message({"validate"}).find("expected a CONFIG"), std::string::npos);
  EXPECT_NE(message({"run", "--set", "novalue"}).find("key.path=value"), std::string::npos);
}

}  // namespace
}  // namespace grains
