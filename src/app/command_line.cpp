// The `grains` command line on CLI11: the subcommands and options below are
// both the parser and the help text. Values are taken as text and converted
// here, so that every message names the option and what it expected.
#include "grains/app/command_line.hpp"

#include "grains/io/log_level.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <memory>

namespace grains {
namespace {

long parseLong(const std::string& flag, const std::string& text, long minimum) {
  errno = 0;
  char* end = nullptr;
  const long value = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || errno != 0 || value < minimum)
    throw UsageError(flag + " = '" + text + "': expected an integer >= " + std::to_string(minimum));
  return value;
}

double parseNumber(const std::string& flag, const std::string& text) {
  errno = 0;
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || errno != 0 || !std::isfinite(value))
    throw UsageError(flag + " = '" + text + "': expected a finite number");
  return value;
}

std::vector<long> parseStepList(const std::string& text) {
  std::vector<long> steps;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    steps.push_back(parseLong("--export-qp", text.substr(start, comma - start), 1));
    start = comma + 1;
  }
  return steps;
}

/// `words` joined by spaces into lines of at most `width` characters, each
/// line after the first starting with `indent`.
std::string wrapped(const std::vector<std::string>& words, std::size_t width,
                    const std::string& indent) {
  std::string out;
  std::size_t column = 0;
  for (const std::string& word : words) {
    if (column > 0 && column + 1 + word.size() > width) {
      out += "\n" + indent;
      column = indent.size();
    } else if (column > 0) {
      out += ' ';
      ++column;
    }
    out += word;
    column += word.size();
  }
  return out;
}

std::string wrapped(const std::string& text, std::size_t width, const std::string& indent) {
  std::vector<std::string> words;
  for (std::size_t start = 0; start < text.size();) {
    const std::size_t end = std::min(text.find(' ', start), text.size());
    words.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return wrapped(words, width, indent);
}

/// Help of one command: a usage line made from its options and positionals,
/// its description, then its options (the help flag and the positionals,
/// named in the description, are not listed again).
class HelpFormatter : public CLI::Formatter {
 public:
  HelpFormatter() { column_width(24); }

  std::string make_help(const CLI::App* app, std::string name, CLI::AppFormatMode) const override {
    std::vector<std::string> usage = {"Usage:", name};
    for (const CLI::Option* opt : app->get_options()) {
      if (opt == app->get_help_ptr()) continue;
      const std::string item =
          opt->get_positional() ? opt->get_name(true) : opt->get_name() + make_option_opts(opt);
      usage.push_back(opt->get_required() ? item : "[" + item + "]");
    }
    std::string text = wrapped(usage, kWidth, std::string(name.size() + 8, ' ')) + "\n";
    if (!app->get_description().empty())
      text += "  " + wrapped(app->get_description(), kWidth - 2, "  ") + "\n";
    for (const CLI::Option* opt : app->get_options())
      if (opt != app->get_help_ptr() && !opt->get_positional()) text += make_option(opt, false);
    return text + "\n";
  }
  std::string make_option_opts(const CLI::Option* opt) const override {
    const std::string type = opt->get_type_name();
    return type.empty() ? "" : " " + type;
  }
  std::string make_option_desc(const CLI::Option* opt) const override {
    return wrapped(opt->get_description(), kWidth - get_column_width(), "");
  }

 private:
  static constexpr std::size_t kWidth = 79;
};

/// The option texts as given, converted after parsing.
struct Given {
  std::string config, output, steps, restart;
  std::vector<std::string> export_qp;
  bool overwrite = false;
  bool allow_penetration = false;
  std::vector<std::string> overrides;  ///< --set, --log-level, -q, -v in command-line order
  std::string qp_dir, solver, tolerance, max_iterations, outer_iterations, history, history_every,
      warm_start;
  std::vector<std::string> qp_options;
};

struct Parser {
  CLI::App app{"grains - rigid bodies in hard contact (non-smooth contact dynamics)", "grains"};
  CLI::App* run = nullptr;
  CLI::App* validate = nullptr;
  CLI::App* qp = nullptr;
  CLI::App* qp_solve = nullptr;
  CLI::App* qp_solvers = nullptr;
  CLI::App* help = nullptr;
  CLI::App* version = nullptr;
  CLI::Option* version_flag = nullptr;
};

/// --set, --log-level, -q and -v: config overrides, kept in the order given,
/// for run and validate alike.
void addOverrideOptions(CLI::App& command, Given& given) {
  command
      .add_option_function<std::string>(
          "--set", [&given](const std::string& kv) { given.overrides.push_back(kv); },
          "Override one config key, e.g. --set solver.name=apgd or "
          "--set simulation.gravity=[0,0,-1]; repeatable.")
      ->type_name("KEY=VALUE")
      ->trigger_on_parse();
  command
      .add_option_function<std::string>(
          "--log-level",
          [&given](const std::string& level) {
            if (!logLevelFromName(level))
              throw UsageError("--log-level = '" + level +
                               "': expected error, warn, info or debug");
            given.overrides.push_back("output.log_level=" + level);
          },
          "error, warn, info or debug (overrides output.log_level): errors only; + warnings; + "
          "progress lines, checkpoints and the timing table (default); + per-step phase times.")
      ->type_name("LEVEL")
      ->trigger_on_parse();
  command
      .add_flag_callback(
          "-q,--quiet", [&given] { given.overrides.push_back("output.log_level=warn"); },
          "Same as --log-level warn.")
      ->trigger_on_parse();
  command
      .add_flag_callback(
          "-v,--verbose", [&given] { given.overrides.push_back("output.log_level=debug"); },
          "Same as --log-level debug.")
      ->trigger_on_parse();
}

std::unique_ptr<Parser> makeParser(Given& given) {
  auto p = std::make_unique<Parser>();
  CLI::App& app = p->app;
  // A repeated option keeps its last value; errors are reported by the caller.
  app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  app.allow_extras();
  // One command: after it, a value such as `--export-qp 5 qp` is not a command.
  app.require_subcommand(0, 1);
  app.formatter(std::make_shared<HelpFormatter>());  // inherited by the subcommands
  app.set_help_flag("-h,--help", "Show this help.");
  p->version_flag = app.add_flag("--version", "Show the version.");
  app.footer(
      "Exit status: 0 success, 1 runtime failure, 2 bad command line or config, 3 qp solve\n"
      "did not converge. Documentation: README.md, docs/running.md, docs/config.md,\n"
      "docs/output.md, docs/solvers.md.");

  CLI::App& run = *app.add_subcommand(
      "run",
      "Run the scenario in CONFIG (YAML); without CONFIG, the built-in default demo (1000 "
      "spheres settling in a cylinder). Start it with mpirun -n P for P ranks.");
  run.allow_extras();
  run.add_option("CONFIG", given.config, "The scenario (YAML).");
  run.add_option("-o,--output", given.output, "Output directory (overrides output.dir).")
      ->type_name("DIR");
  run.add_option("--steps", given.steps, "Number of steps (overrides simulation.steps/end_time).")
      ->type_name("N");
  addOverrideOptions(run, given);
  run.add_flag("--overwrite", given.overwrite,
               "Replace grains' outputs in an existing output directory (other files there are "
               "kept). Without it an existing, non-empty output directory is an error.");
  run.add_option("--export-qp", given.export_qp,
                 "Write the contact QP of steps STEP (1-based, comma list) to DIR/step_<STEP>/ "
                 "(MatrixMarket; see docs/solvers.md).")
      ->type_name("STEP[,STEP...] DIR")
      ->expected(2)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  run.add_option("--restart", given.restart,
                 "Continue the run from a checkpoint (or from the newest checkpoint in directory "
                 "FILE) up to the configured step count, on any number of ranks "
                 "(docs/restart.md).")
      ->type_name("FILE");
  run.add_flag("--allow-penetration", given.allow_penetration,
               "With --restart: continue although restored bodies penetrate the config's walls "
               "or overlap each other deeper than the tolerance (otherwise an error; "
               "docs/restart.md).");
  p->run = &run;

  CLI::App& validate = *app.add_subcommand(
      "validate", "Check CONFIG against the schema and print the effective config.");
  validate.allow_extras();
  validate.add_option("CONFIG", given.config, "The scenario (YAML).")->required();
  addOverrideOptions(validate, given);
  p->validate = &validate;

  CLI::App& qp = *app.add_subcommand("qp",
                                     "Solver laboratory on contact QPs stored by run "
                                     "--export-qp: qp solve, qp solvers.");
  qp.allow_extras();
  qp.require_subcommand(0, 1);
  CLI::App& solve = *qp.add_subcommand(
      "solve",
      "Run one solver on the QP in DIR, print a summary line and optionally write the "
      "per-iteration history (iteration, seconds, objective, residual, active_set, "
      "complementarity_mean, complementarity_max, residual_q50, residual_q99).");
  solve.allow_extras();
  solve.add_option("DIR", given.qp_dir, "A directory written by run --export-qp.")->required();
  solve.add_option("--solver", given.solver, "A registered solver (grains qp solvers).")
      ->type_name("NAME")
      ->required();
  solve.add_option("--tolerance", given.tolerance, "Stop at this residual (default 1e-6).")
      ->type_name("X");
  solve.add_option("--max-iterations", given.max_iterations, "Iteration cap (default 1000).")
      ->type_name("N");
  solve
      .add_option("--outer-iterations", given.outer_iterations,
                  "Cap of the friction fixed point's outer iterations.")
      ->type_name("N");
  solve
      .add_option("--option", given.qp_options, "A solver option as in solver.options; repeatable.")
      ->type_name("KEY=VALUE")
      ->allow_extra_args(false);
  solve.add_option("--history", given.history, "Write the per-iteration history (CSV).")
      ->type_name("FILE.csv");
  solve.add_option("--history-every", given.history_every, "Record every N-th iteration.")
      ->type_name("N");
  solve
      .add_option("--warm-start", given.warm_start,
                  "Start from zero (default) or from the stored warm start.")
      ->type_name("zero|stored");
  p->qp_solve = &solve;
  CLI::App& solvers = *qp.add_subcommand(
      "solvers",
      "List the registered solvers as CSV: name, the friction models each solves directly, "
      "those it reaches through the Tresca-to-Coulomb fixed point, and whether it needs the "
      "factored operator (D^T and the mobility).");
  solvers.allow_extras();
  p->qp_solvers = &solvers;
  p->qp = &qp;

  // `grains help` and `grains version` as words too (not listed).
  p->help = app.add_subcommand("help")->group("");
  p->version = app.add_subcommand("version")->group("");
  return p;
}

/// An argument CLI11 left over: an option nobody declared, or one positional too many.
std::string leftover(const CLI::App& command) {
  const auto rest = command.remaining();
  return rest.empty() ? std::string() : rest.front();
}

bool isOption(const std::string& arg) { return !arg.empty() && arg[0] == '-'; }

void checkRunLeftovers(const Parser& p, const CLI::App& command, const CommandLine& cl) {
  const std::string arg = leftover(command);
  if (arg.empty()) return;
  if (!isOption(arg))
    throw UsageError("unexpected argument '" + arg + "': only one CONFIG file is accepted");
  if (cl.command == CommandLine::Command::Validate &&
      p.run->get_option_no_throw(arg.substr(0, arg.find('='))) != nullptr)
    throw UsageError("validate: only --set is accepted besides CONFIG");
  throw UsageError("unknown option '" + arg + "'");
}

CommandLine convertQpSolve(const CLI::App& solve, const Given& given) {
  CommandLine cl;
  cl.command = CommandLine::Command::QpSolve;
  const std::string arg = leftover(solve);
  if (isOption(arg)) throw UsageError("qp solve: unknown option '" + arg + "'");
  if (!arg.empty())
    throw UsageError("qp solve: unexpected argument '" + arg + "': only one DIR is accepted");
  QpSolveRequest& q = cl.qp;
  q.dir = given.qp_dir;
  q.solver = given.solver;
  if (solve.count("--tolerance")) {
    q.tolerance = parseNumber("--tolerance", given.tolerance);
    if (!(*q.tolerance > 0.0)) throw UsageError("--tolerance: expected a value > 0");
  }
  if (solve.count("--max-iterations"))
    q.max_iterations = parseLong("--max-iterations", given.max_iterations, 0);
  if (solve.count("--outer-iterations"))
    q.outer_iterations = parseLong("--outer-iterations", given.outer_iterations, 1);
  for (const std::string& kv : given.qp_options) {
    const std::size_t eq = kv.find('=');
    if (eq == std::string::npos || eq == 0)
      throw UsageError("--option '" + kv + "': expected KEY=VALUE");
    q.options.emplace_back(kv.substr(0, eq),
                           parseNumber("--option " + kv.substr(0, eq), kv.substr(eq + 1)));
  }
  if (solve.count("--history")) q.history_path = given.history;
  if (solve.count("--history-every"))
    q.history_every = parseLong("--history-every", given.history_every, 1);
  if (solve.count("--warm-start")) {
    if (given.warm_start != "zero" && given.warm_start != "stored")
      throw UsageError("--warm-start = '" + given.warm_start + "': expected zero or stored");
    q.warm_start_from_file = given.warm_start == "stored";
  }
  return cl;
}

CommandLine convert(const Parser& p, const Given& given) {
  CommandLine cl;
  const CLI::App& app = p.app;
  if (p.help->parsed()) return cl;
  if (p.version->parsed() || p.version_flag->count() > 0) {
    cl.command = CommandLine::Command::Version;
    return cl;
  }
  if (p.qp->parsed()) {
    if (p.qp_solvers->parsed()) {
      const std::string arg = leftover(*p.qp_solvers);
      if (!arg.empty()) throw UsageError("qp solvers: unexpected argument '" + arg + "'");
      cl.command = CommandLine::Command::QpSolvers;
      return cl;
    }
    if (!p.qp_solve->parsed())
      throw UsageError("qp: expected 'qp solve DIR --solver NAME ...' or 'qp solvers'");
    return convertQpSolve(*p.qp_solve, given);
  }
  const CLI::App* command = p.run->parsed() ? p.run : p.validate->parsed() ? p.validate : nullptr;
  if (command == nullptr) {
    const std::string arg = leftover(app);
    if (arg.empty()) return cl;  // no command: help
    throw UsageError("unknown command '" + arg +
                     "': expected run, validate, qp, --help or --version");
  }
  cl.command = command == p.run ? CommandLine::Command::Run : CommandLine::Command::Validate;
  checkRunLeftovers(p, *command, cl);
  if (command->count("CONFIG")) cl.config_path = given.config;
  if (p.run->count("--output")) cl.output_dir = given.output;
  if (p.run->count("--steps")) cl.steps = parseLong("--steps", given.steps, 0);
  cl.overwrite = given.overwrite;
  if (p.run->count("--restart")) cl.restart_file = given.restart;
  cl.allow_penetration = given.allow_penetration;
  if (given.export_qp.size() % 2 != 0) throw UsageError("--export-qp: expected a value after it");
  if (given.export_qp.size() >= 2) {  // the last --export-qp counts
    cl.export_qp_steps = parseStepList(given.export_qp[given.export_qp.size() - 2]);
    cl.export_qp_dir = given.export_qp.back();
  }
  cl.overrides = given.overrides;
  for (const auto& o : cl.overrides)
    if (o.find('=') == std::string::npos || o.front() == '=')
      throw UsageError("--set '" + o + "': expected key.path=value");
  return cl;
}

}  // namespace

std::string usageText() {
  Given given;
  const auto p = makeParser(given);
  std::string text = p->app.get_description() + "\n\n";
  text += p->run->help("grains") + p->validate->help("grains") + p->qp_solve->help("grains qp") +
          p->qp_solvers->help("grains qp");
  text += "Usage: grains --help | --version\n  Show this help, or the version.\n\n";
  return text + p->app.get_footer() + "\n";
}

CommandLine parseCommandLine(const std::vector<std::string>& args) {
  Given given;
  const auto parser = makeParser(given);
  try {
    // CLI11 takes the arguments in reverse order.
    std::vector<std::string> reversed(args.rbegin(), args.rend());
    parser->app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    return CommandLine{};
  } catch (const CLI::RequiredError&) {
    if (parser->validate->parsed()) throw UsageError("validate: expected a CONFIG file");
    if (parser->qp_solve->count("DIR") == 0)
      throw UsageError("qp solve: expected the DIR of an exported QP");
    throw UsageError("qp solve: expected --solver NAME");
  } catch (const CLI::ArgumentMismatch& e) {
    // CLI11 says "NAME: 1 required TYPE missing" for an option without its value.
    const std::string what = e.what();
    const std::size_t colon = what.find(':');
    if (colon != std::string::npos && what.size() > 8 &&
        what.compare(what.size() - 8, 8, " missing") == 0)
      throw UsageError(what.substr(0, colon) + ": expected a value after it");
    throw UsageError(what);
  } catch (const CLI::ParseError& e) {
    throw UsageError(e.what());
  }
  return convert(*parser, given);
}

}  // namespace grains
