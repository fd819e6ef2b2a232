#include "grains/app/command_line.hpp"

#include <cerrno>
#include <cstdlib>

namespace grains {

std::string usageText() {
  return R"(grains - rigid bodies in hard contact (non-smooth contact dynamics)

Usage:
  grains run [CONFIG] [--output DIR] [--steps N] [--set key.path=value ...] [--overwrite]
  grains validate CONFIG [--set key.path=value ...]
  grains --help
  grains --version

Commands:
  run        Run the scenario in CONFIG (YAML); without CONFIG, the built-in
             default demo (1000 spheres settling in a cylinder). Start it with
             mpirun -n P for P ranks.
  validate   Check CONFIG against the schema and print the effective config.

Options:
  --output DIR        Output directory (overrides output.dir).
  --steps N           Number of steps (overrides simulation.steps/end_time).
  --set KEY=VALUE     Override one config key, e.g. --set solver.name=apgd
                      or --set simulation.gravity=[0,0,-1]; repeatable.
  --overwrite         Replace grains' outputs in an existing output directory
                      (other files there are kept). Without it an existing,
                      non-empty output directory is an error.
  -h, --help          Show this help.
  --version           Show the version.

Exit status: 0 success, 1 runtime failure, 2 bad command line or config.
Documentation: README.md, docs/config.md, docs/output.md.
)";
}

namespace {

long parseSteps(const std::string& text) {
  errno = 0;
  char* end = nullptr;
  const long value = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || errno != 0 || value < 0)
    throw UsageError("--steps = '" + text + "': expected a non-negative integer");
  return value;
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
  if (first == "run")
    cl.command = CommandLine::Command::Run;
  else if (first == "validate")
    cl.command = CommandLine::Command::Validate;
  else
    throw UsageError("unknown command '" + first +
                     "': expected run, validate, --help or --version");

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
    if (cl.output_dir || cl.steps || cl.overwrite)
      throw UsageError("validate: only --set is accepted besides CONFIG");
  }
  return cl;
}

}  // namespace grains
