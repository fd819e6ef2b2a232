// Parsers for the simulation, contact, force_field, growth, solver, output
// and parallel sections.
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "config_sections.hpp"
#include "grains/core/text.hpp"
#include "grains/solver/sliding_lift.hpp"

namespace grains::config_detail {

SimulationSection parseSimulation(MapReader s) {
  SimulationSection out;
  const std::string dynamics = s.choice("dynamics", "inertial", {"inertial", "overdamped"});
  out.dynamics = dynamics == "overdamped" ? DynamicsKind::Overdamped : DynamicsKind::Inertial;
  // Accepted (and ignored) with inertial dynamics, so that --set simulation.dynamics
  // can switch a scenario either way.
  out.drag = s.number("drag", out.drag, Range::positive());
  out.dt = s.number("dt", out.dt, Range::positive());
  out.steps = s.optionalInteger("steps", Range::nonNegative());
  out.end_time = s.optionalNumber("end_time", Range::nonNegative());
  if (out.steps.has_value() == out.end_time.has_value()) {
    throwPathError(s.context(), s.yaml(), s.path(),
                   std::string(out.steps ? "both" : "neither") + " of " + s.keyPath("steps") +
                       " and " + s.keyPath("end_time") + " given" +
                       (out.steps ? " (steps = " + describeValue(s.get("steps")) +
                                        ", end_time = " + describeValue(s.get("end_time")) + ")"
                                  : "") +
                       "; expected exactly one of them");
  }
  // end_time / dt must be a step count a long holds (and a run could finish).
  constexpr double kMaxSteps = 1e15;
  if (out.end_time && *out.end_time / out.dt > kMaxSteps) {
    std::ostringstream expected;
    expected << "at most " << kMaxSteps << " steps of simulation.dt = " << out.dt
             << " (end_time / dt = " << *out.end_time / out.dt << ")";
    s.fail("end_time", expected.str());
  }
  out.gravity = s.vec3("gravity", out.gravity);
  out.seed = static_cast<unsigned long>(
      s.integer("seed", static_cast<long>(out.seed), Range::nonNegative()));
  out.planar = s.boolean("planar", out.planar);
  s.finish();
  return out;
}

ContactSection parseContact(MapReader s) {
  ContactSection out;
  const std::string friction = s.choice(
      "friction", "frictionless",
      {"frictionless", "none", "coulomb", "cone", "pyramid", "box", "cylinder", "coulomb_rolling"});
  out.friction = parseFrictionModel(friction);
  out.mu = s.number("mu", out.mu, Range::nonNegative());
  if (out.friction == FrictionModel::Frictionless && out.mu > 0.0) {
    s.fail("mu", "0 with contact.friction = frictionless (set contact.friction: coulomb)");
  }
  out.rolling_friction = s.number("rolling_friction", out.rolling_friction, Range::nonNegative());
  out.spinning_friction =
      s.number("spinning_friction", out.spinning_friction, Range::nonNegative());
  // Rolling and spinning resistance share the Coulomb cone's normal unknown
  // (Tasora & Anitescu 2013): they extend coulomb and no other model.
  const auto require_coulomb = [&](const char* key, double value) {
    if (value > 0.0 && out.friction != FrictionModel::Coulomb &&
        out.friction != FrictionModel::CoulombRolling) {
      s.fail(key, "0 with contact.friction = " + frictionModelName(out.friction) +
                      " (rolling and spinning resistance need contact.friction: coulomb)");
    }
  };
  require_coulomb("rolling_friction", out.rolling_friction);
  require_coulomb("spinning_friction", out.spinning_friction);
  if (out.friction == FrictionModel::Coulomb &&
      (out.rolling_friction > 0.0 || out.spinning_friction > 0.0)) {
    out.friction = FrictionModel::CoulombRolling;
  }
  out.envelope = s.number("envelope", out.envelope, Range::nonNegative());
  out.damping_steps = s.number("damping_steps", out.damping_steps, Range::positive());
  out.compliance = s.number("compliance", out.compliance, Range::nonNegative());
  out.overlap_slop = s.number("overlap_slop", out.overlap_slop, Range::nonNegative());
  out.lift_correction = static_cast<int>(
      s.integer("lift_correction", out.lift_correction, Range::closed(0.0, 100.0)));
  if (out.lift_correction > 0 && !liftsWhenSliding(out.friction)) {
    s.fail("lift_correction",
           "0 with contact.friction = " + frictionModelName(out.friction) +
               " (only coulomb, pyramid and coulomb_rolling friction lift sliding contacts)");
  }
  // The method-specific keys are accepted with every method (and ignored by
  // the others), so one scenario can be run with each method through --set.
  const std::string method = s.choice("method", "single", constraintMethodNames());
  out.method = ConstraintMethod(method);
  out.subspheres =
      static_cast<int>(s.integer("subspheres", out.subspheres, Range::closed(1.0, 1000.0)));
  out.subsphere_buffer = s.number("subsphere_buffer", out.subsphere_buffer, Range::nonNegative());
  out.overlap_tolerance = s.number("overlap_tolerance", out.overlap_tolerance, Range::positive());
  out.max_recursions = static_cast<int>(
      s.integer("max_recursions", out.max_recursions,
                Range::closed(1.0, static_cast<double>(std::numeric_limits<int>::max()))));
  // A shift the fixed point has not yet matched lets a contact close by the
  // mismatch; ReLCP then re-solves while that overlap exceeds its tolerance,
  // and on the settle benchmark its steps run to max_recursions
  // (docs/solvers.md, "Sliding without lift-off").
  if (out.lift_correction > 0 && constraintMethodInfo(out.method).finds_new_contacts) {
    s.fail("lift_correction", "0 with contact.method = " + method +
                                  " (its recursion re-solves the overlaps that shifts not yet "
                                  "matched by the fixed point leave; use method single)");
  }
  // ReLCP re-solves while an overlap exceeds its tolerance; an overlap the
  // step leaves in place (the slop) must therefore stay below it.
  if (constraintMethodInfo(out.method).finds_new_contacts &&
      !(out.overlap_slop < out.overlap_tolerance)) {
    s.fail("overlap_slop", "< contact.overlap_tolerance = " + formatNumber(out.overlap_tolerance) +
                               " with contact.method = " + method +
                               " (the recursion re-solves while an overlap exceeds that "
                               "tolerance, and the step leaves overlaps up to the slop)");
  }
  out.adaptive_envelope = s.boolean("adaptive_envelope", out.adaptive_envelope);
  out.predict_contacts = s.boolean("predict_contacts", out.predict_contacts);
  if (!out.adaptive_envelope && !constraintMethodInfo(out.method).finds_new_contacts) {
    s.fail("adaptive_envelope",
           "true with contact.method = " + method +
               " (false needs contact.method: relcp, whose recursion adds the contacts a step "
               "creates beyond the envelope)");
  }
  s.finish();
  return out;
}

ForceFieldSection parseForceField(MapReader s) {
  ForceFieldSection out;
  const std::string type = s.choice("type", "none", {"none", "compaction", "extension"});
  out.kind = type == "compaction"  ? ForceFieldKind::RadialCompaction
             : type == "extension" ? ForceFieldKind::RadialExtension
                                   : ForceFieldKind::None;
  out.strength = s.number("strength", out.strength, Range::nonNegative());
  out.center = s.vec3("center", out.center);
  s.finish();
  return out;
}

GrowthSection parseGrowth(MapReader s) {
  GrowthSection out;
  out.rate = s.number("rate", out.rate, Range::nonNegative());
  // Checked against the sizes of the rods by the loader (checkGrowth).
  out.division_length = s.number("division_length", out.division_length, Range::positive());
  out.reorientation_deg =
      s.number("reorientation_deg", out.reorientation_deg, Range::closedOpen(0.0, 90.0));
  out.max_generations = static_cast<int>(
      s.integer("max_generations", out.max_generations,
                Range::closed(0.0, static_cast<double>(std::numeric_limits<int>::max()))));
  s.finish();
  return out;
}

namespace {

/// Checks solver.options against the registry's option specs and fills in defaults.
void parseSolverOptions(MapReader& s, const SolverEntry& entry, SolverSettings& settings) {
  const YAML::Node node = s.get("options");
  const std::string path = s.keyPath("options");
  if (!node.IsDefined()) return;
  if (!node.IsMap()) throwValueError(s.context(), node, path, "a map of option: number");
  std::vector<std::string> known;
  for (const auto& spec : entry.options) known.push_back(spec.name);
  for (const auto& item : node) {
    const std::string key = item.first.Scalar();
    const std::string key_path = path + "." + key;
    const SolverOptionSpec* spec = nullptr;
    for (const auto& candidate : entry.options) {
      if (candidate.name == key) spec = &candidate;
    }
    if (spec == nullptr) {
      throwPathError(s.context(), item.first, key_path,
                     known.empty() ? "unknown option: solver '" + entry.name + "' takes no options"
                                   : "unknown option of solver '" + entry.name +
                                         "'; expected one of: " + joined(known));
    }
    if (settings.options.count(key) != 0) {
      throwPathError(s.context(), item.first, key_path, "duplicate key");
    }
    const Range range = Range::closed(spec->min_value, spec->max_value);
    double value = 0.0;
    bool ok = false;
    if (spec->integer) {
      long integral = 0;
      ok = decodeInteger(item.second, integral);
      value = static_cast<double>(integral);
    } else {
      ok = decodeNumber(item.second, value);
    }
    if (!ok || !range.contains(value)) {
      throwValueError(s.context(), item.second, key_path, range.describe(spec->integer));
    }
    settings.options[key] = value;
  }
}

}  // namespace

SolverSection parseSolver(MapReader s, FrictionModel friction, double dt) {
  SolverSection out;
  out.name = s.string("name", out.name);
  const SolverRegistry& registry = SolverRegistry::instance();
  const SolverEntry* entry = registry.find(out.name);
  if (entry == nullptr) s.fail("name", "one of the known solvers: " + joined(registry.names()));
  if (!entry->supports(friction)) {
    s.fail("name", "a solver that supports contact.friction = " + frictionModelName(friction) +
                       " ('" + out.name + "' supports: " + entry->describeModels() + ")");
  }
  out.settings.tolerance = s.number("tolerance", out.settings.tolerance, Range::positive());
  // The same stop in velocity units: a contact-velocity error v x dt is the
  // gap error `tolerance` measures (docs/solvers.md, "What the tolerance means").
  if (const auto velocity = s.optionalNumber("velocity_tolerance", Range::positive())) {
    if (s.has("tolerance"))
      s.fail("velocity_tolerance",
             "either solver.tolerance [m] or solver.velocity_tolerance [m/s], not both");
    out.settings.tolerance = *velocity * dt;
  }
  out.settings.max_iterations = static_cast<int>(
      s.integer("max_iterations", out.settings.max_iterations,
                Range::closed(1.0, static_cast<double>(std::numeric_limits<int>::max()))));
  out.settings.outer_iterations = static_cast<int>(
      s.integer("outer_iterations", out.settings.outer_iterations,
                Range::closed(1.0, static_cast<double>(std::numeric_limits<int>::max()))));
  out.settings.outer_tolerance =
      s.number("outer_tolerance", out.settings.outer_tolerance, Range::nonNegative());
  const std::string policy = s.choice("on_unconverged", "warn", {"warn", "retry", "abort"});
  out.on_unconverged = policy == "retry"   ? UnconvergedPolicy::Retry
                       : policy == "abort" ? UnconvergedPolicy::Abort
                                           : UnconvergedPolicy::Warn;
  out.max_halvings =
      static_cast<int>(s.integer("max_halvings", out.max_halvings, Range::closed(1.0, 20.0)));
  out.rest.reduction = s.number("rest_reduction", out.rest.reduction, Range::closed(0.0, 1.0));
  out.rest.floor = s.number("rest_floor", out.rest.floor, Range::closed(0.0, 1.0));
  out.rest.quantile = s.number("rest_quantile", out.rest.quantile, Range::openClosed(0.0, 1.0));
  out.rest.quantile_limit =
      s.number("rest_quantile_limit", out.rest.quantile_limit, Range::atLeast(1.0));
  out.rest.bulk_stop = s.boolean("rest_bulk_stop", out.rest.bulk_stop);
  parseSolverOptions(s, *entry, out.settings);
  for (const auto& spec : entry->options)
    out.settings.options.emplace(spec.name, spec.default_value);
  // The registry is the final authority on option values.
  bool stops_at_quantile = false;
  try {
    stops_at_quantile = registry.create(out.name, out.settings, friction)->supportsStopQuantile();
  } catch (const std::invalid_argument& e) {
    // Name the offending option when the registry's message mentions one.
    std::string path = s.keyPath("options");
    for (const auto& option : out.settings.options) {
      if (std::string(e.what()).find(option.first) != std::string::npos) {
        path += "." + option.first;
        break;
      }
    }
    throwPathError(s.context(), s.get("options"), path, e.what());
  }
  if (out.rest.stopsAtBulk() && !stops_at_quantile)
    s.fail("rest_bulk_stop", "true with solver " + out.name +
                                 " and contact.friction = " + frictionModelName(friction) +
                                 ", which stops on its worst contact only (use apgd, with "
                                 "friction other than box or cylinder)");
  s.finish();
  return out;
}

OutputSection parseOutput(MapReader s) {
  OutputSection out;
  out.dir = s.string("dir", out.dir);
  out.vtk_every = s.integer("vtk_every", out.vtk_every, Range::nonNegative());
  out.contact_network = s.boolean("contact_network", out.contact_network);
  if (out.contact_network && out.vtk_every == 0)
    s.fail("contact_network",
           "false while output.vtk_every = 0 (the network is written with the VTK frames: set "
           "output.vtk_every > 0)");
  out.log_every = s.integer("log_every", out.log_every, Range::nonNegative());
  out.log_level =
      *logLevelFromName(s.choice("log_level", "info", {"error", "warn", "info", "debug"}));
  out.metrics_every = s.integer("metrics_every", out.metrics_every, Range::nonNegative());
  out.checkpoint_every = s.integer("checkpoint_every", out.checkpoint_every, Range::nonNegative());
  out.checkpoint_keep = s.integer("checkpoint_keep", out.checkpoint_keep, Range::atLeast(1));
  s.finish();
  return out;
}

namespace {
// domain.periodic: a list of distinct axis names, e.g. [x, y].
std::array<bool, 3> parsePeriodicAxes(MapReader& s, bool bounded) {
  std::array<bool, 3> axes{false, false, false};
  const YAML::Node node = s.get("periodic");
  if (!node.IsDefined() || node.IsNull()) return axes;
  const std::string expected = "a list of distinct axes among x, y, z, e.g. [x, y]";
  if (!node.IsSequence()) s.fail("periodic", expected);
  for (const YAML::Node& item : node) {
    const std::string name = item.IsScalar() ? item.Scalar() : std::string();
    const std::size_t d = name.size() == 1 ? std::string("xyz").find(name) : std::string::npos;
    if (d == std::string::npos || axes[d]) s.fail("periodic", expected);
    axes[d] = true;
  }
  if ((axes[0] || axes[1] || axes[2]) && !bounded)
    s.failMissing("min", "the periodic box's lower corner [x, y, z] (domain.periodic is given)");
  return axes;
}
}  // namespace

DomainSection parseDomain(MapReader s) {
  DomainSection out;
  const bool has_min = s.has("min");
  const bool has_max = s.has("max");
  if (has_min || has_max) {
    if (!has_min) s.failMissing("min", "the lower corner [x, y, z] (max is given)");
    if (!has_max) s.failMissing("max", "the upper corner [x, y, z] (min is given)");
    out.bounded = true;
    out.min = s.requiredVec3("min");
    out.max = s.requiredVec3("max");
    if (!(out.max.array() > out.min.array()).all())
      s.fail("max", "a corner greater than domain.min in every component");
  }
  const std::string policy = s.choice("on_exit", "remove", {"remove", "abort"});
  out.on_exit = policy == "abort" ? DomainExitPolicy::Abort : DomainExitPolicy::Remove;
  out.periodic = parsePeriodicAxes(s, out.bounded);
  s.finish();
  return out;
}

ParallelSection parseParallel(MapReader s) {
  ParallelSection out;
  const std::string partitioner = s.choice("partitioner", "rcb", {"rcb", "multijagged"});
  out.partitioner =
      partitioner == "multijagged" ? PartitionerKind::MultiJagged : PartitionerKind::Rcb;
  out.imbalance_threshold =
      s.number("imbalance_threshold", out.imbalance_threshold, Range::atLeast(1.0));
  out.repartition_every =
      s.integer("repartition_every", out.repartition_every, Range::nonNegative());
  out.min_repartition_interval =
      s.integer("min_repartition_interval", out.min_repartition_interval, Range::positive());
  const std::string order = s.choice("body_order", "auto", {"auto", "gid", "spatial"});
  out.body_order = order == "spatial" ? BodyOrder::Spatial
                   : order == "gid"   ? BodyOrder::Gid
                                      : BodyOrder::Auto;
  out.sort_every = s.integer("sort_every", out.sort_every, Range::positive());
  out.reproducible = s.boolean("reproducible", out.reproducible);
  s.finish();
  return out;
}

}  // namespace grains::config_detail
