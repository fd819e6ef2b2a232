#include "grains/app/command_line.hpp"

#include "grains/io/log_level.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace grains {

std::string usageText() {
  return R"(grains - rigid bodies in hard contact (non-smooth contact dynamics)

Usage:
  grains run [CONFIG] [--output DIR] [--steps N] [--set key.path=value ...] [--overwrite]
             [--export-qp STEP[,STEP...] DIR] [--restart CHECKPOINT]
             [--log-level LEVEL | -q | -v]
  grains validate CONFIG [--set key.path=value ...]
  grains qp solve DIR --solver NAME [--tolerance X] [--max-iterations N]
             [--outer-iterations N] [--option KEY=VALUE ...] [--history FILE.csv]
             [--history-every N] [--warm-start zero|stored]
  grains qp solvers
  grains --help
  grains --version

Commands:
  run        Run the scenario in CONFIG (YAML); without CONFIG, the built-in
             default demo (1000 spheres settling in a cylinder). Start it with
             mpirun -n P for P ranks.
  validate   Check CONFIG against the schema and print the effective config.
  qp solve   Solver laboratory: run one solver on a contact QP stored by
             run --export-qp, print a summary line and optionally write the
             per-iteration history (iteration, seconds, objective, residual,
             active_set, complementarity_mean, complementarity_max).
  qp solvers List the registered solvers as CSV: name, the friction models
             each solves directly, those it reaches through the
             Tresca-to-Coulomb fixed point, and whether it needs the factored
             operator (D^T and the mobility).

Options:
  --output DIR        Output directory (overrides output.dir).
  --steps N           Number of steps (overrides simulation.steps/end_time).
  --set KEY=VALUE     Override one config key, e.g. --set solver.name=apgd
                      or --set simulation.gravity=[0,0,-1]; repeatable.
  --overwrite         Replace grains' outputs in an existing output directory
                      (other files there are kept). Without it an existing,
                      non-empty output directory is an error.
  --export-qp S DIR   Write the contact QP of steps S (1-based, comma list) to
                      DIR/step_<S>/ (MatrixMarket; see docs/solvers.md).
  --restart FILE      Continue the run from a checkpoint (or from the newest
                      checkpoint in directory FILE) up to the configured
                      step count, on any number of ranks (docs/restart.md).
  --log-level LEVEL   error, warn, info or debug (overrides output.log_level):
                      errors only; + warnings; + progress lines, checkpoints
                      and the timing table (default); + per-step phase times.
  -q, --quiet         Same as --log-level warn.
  -v, --verbose       Same as --log-level debug.
  -h, --help          Show this help.
  --version           Show the version.

Exit status: 0 success, 1 runtime failure, 2 bad command line or config.
Documentation: README.md, docs/config.md, docs/output.md.
)";
}

namespace {

long parseLong(const std::string& flag, const std::string& text, long minimum) {
  errno = 0;
  char* end = nullptr;
  const long value = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || errno != 0 || value < minimum)
    throw UsageError(flag + " = '" + text + "': expected an integer >= " + std::to_string(minimum));
  return value;
}

long parseSteps(const std::string& text) { return parseLong("--steps", text, 0); }

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

CommandLine parseQpCommand(const std::vector<std::string>& args) {
  CommandLine cl;
  cl.command = CommandLine::Command::QpSolve;
  if (args.size() >= 2 && args[1] == "solvers") {
    cl.command = CommandLine::Command::QpSolvers;
    if (args.size() > 2) {
      if (args[2] == "-h" || args[2] == "--help") {
        cl.command = CommandLine::Command::Help;
        return cl;
      }
      throw UsageError("qp solvers: unexpected argument '" + args[2] + "'");
    }
    return cl;
  }
  if (args.size() < 2 || args[1] != "solve")
    throw UsageError("qp: expected 'qp solve DIR --solver NAME ...' or 'qp solvers'");
  QpSolveRequest& q = cl.qp;
  for (std::size_t i = 2; i < args.size(); ++i) {
    const std::string& arg = args[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= args.size()) throw UsageError(arg + ": expected a value after it");
      return args[++i];
    };
    if (arg == "-h" || arg == "--help") {
      cl.command = CommandLine::Command::Help;
      return cl;
    } else if (arg == "--solver") {
      q.solver = value();
    } else if (arg == "--tolerance") {
      q.tolerance = parseNumber(arg, value());
      if (!(*q.tolerance > 0.0)) throw UsageError("--tolerance: expected a value > 0");
    } else if (arg == "--max-iterations") {
      q.max_iterations = parseLong(arg, value(), 0);
    } else if (arg == "--outer-iterations") {
      q.outer_iterations = parseLong(arg, value(), 1);
    } else if (arg == "--option") {
      const std::string kv = value();
      const std::size_t eq = kv.find('=');
      if (eq == std::string::npos || eq == 0)
        throw UsageError("--option '" + kv + "': expected KEY=VALUE");
      q.options.emplace_back(kv.substr(0, eq),
                             parseNumber("--option " + kv.substr(0, eq), kv.substr(eq + 1)));
    } else if (arg == "--history") {
      q.history_path = value();
    } else if (arg == "--history-every") {
      q.history_every = parseLong(arg, value(), 1);
    } else if (arg == "--warm-start") {
      const std::string w = value();
      if (w != "zero" && w != "stored")
        throw UsageError("--warm-start = '" + w + "': expected zero or stored");
      q.warm_start_from_file = w == "stored";
    } else if (!arg.empty() && arg[0] == '-') {
      throw UsageError("qp solve: unknown option '" + arg + "' (see grains --help)");
    } else if (q.dir.empty()) {
      q.dir = arg;
    } else {
      throw UsageError("qp solve: unexpected argument '" + arg + "': only one DIR is accepted");
    }
  }
  if (q.dir.empty()) throw UsageError("qp solve: expected the DIR of an exported QP");
  if (q.solver.empty()) throw UsageError("qp solve: expected --solver NAME");
  return cl;
}

}  // namespace

CommandLine parseCommandLine(const std::vector<std::string>& args) {
  CommandLine cl;
  if (args.empty()) return cl;
  const std::string& first = args[0];
  if (first == "-h" || first == "--help" || first == "help") return cl;
  if (first == "--version" || first == "version") {
    cl.command = CommandLine::Command::Version;
    return cl;
  }
  if (first == "qp") return parseQpCommand(args);
  if (first == "run")
    cl.command = CommandLine::Command::Run;
  else if (first == "validate")
    cl.command = CommandLine::Command::Validate;
  else
    throw UsageError("unknown command '" + first +
                     "': expected run, validate, qp, --help or --version");

  for (std::size_t i = 1; i < args.size(); ++i) {
    const std::string& arg = args[i];
    auto value = [&](const std::string& flag) -> std::string {
      if (i + 1 >= args.size()) throw UsageError(flag + ": expected a value after it");
      return args[++i];
    };
    if (arg == "-h" || arg == "--help") {
      cl.command = CommandLine::Command::Help;
      return cl;
    } else if (arg == "--output" || arg == "-o") {
      cl.output_dir = value(arg);
    } else if (arg.rfind("--output=", 0) == 0) {
      cl.output_dir = arg.substr(9);
    } else if (arg == "--steps") {
      cl.steps = parseSteps(value(arg));
    } else if (arg.rfind("--steps=", 0) == 0) {
      cl.steps = parseSteps(arg.substr(8));
    } else if (arg == "--set") {
      cl.overrides.push_back(value(arg));
    } else if (arg.rfind("--set=", 0) == 0) {
      cl.overrides.push_back(arg.substr(6));
    } else if (arg == "--overwrite") {
      cl.overwrite = true;
    } else if (arg == "--restart") {
      cl.restart_file = value(arg);
    } else if (arg.rfind("--restart=", 0) == 0) {
      cl.restart_file = arg.substr(10);
    } else if (arg == "--log-level" || arg.rfind("--log-level=", 0) == 0) {
      const std::string level = arg == "--log-level" ? value(arg) : arg.substr(12);
      if (!logLevelFromName(level))
        throw UsageError("--log-level = '" + level + "': expected error, warn, info or debug");
      cl.overrides.push_back("output.log_level=" + level);
    } else if (arg == "-q" || arg == "--quiet") {
      cl.overrides.push_back("output.log_level=warn");
    } else if (arg == "-v" || arg == "--verbose") {
      cl.overrides.push_back("output.log_level=debug");
    } else if (arg == "--export-qp") {
      cl.export_qp_steps = parseStepList(value(arg));
      cl.export_qp_dir = value(arg);
    } else if (!arg.empty() && arg[0] == '-') {
      throw UsageError("unknown option '" + arg + "' (see grains --help)");
    } else if (!cl.config_path) {
      cl.config_path = arg;
    } else {
      throw UsageError("unexpected argument '" + arg + "': only one CONFIG file is accepted");
    }
  }
  for (const auto& o : cl.overrides)
    if (o.find('=') == std::string::npos || o.front() == '=')
      throw UsageError("--set '" + o + "': expected key.path=value");
  if (cl.command == CommandLine::Command::Validate) {
    if (!cl.config_path) throw UsageError("validate: expected a CONFIG file");
    if (cl.output_dir || cl.steps || cl.overwrite || !cl.export_qp_steps.empty() || cl.restart_file)
      throw UsageError("validate: only --set is accepted besides CONFIG");
  }
  return cl;
}

}  // namespace grains
