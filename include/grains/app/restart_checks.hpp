#pragma once
// Checks of a restart against the configuration it continues with
// (docs/restart.md): the restored bodies must not penetrate the config's
// walls nor overlap each other, and the keys that define the trajectory are compared with the
// checkpoint's own configuration.
#include "grains/config/simulation_config.hpp"
#include "grains/core/body.hpp"
#include "grains/io/checkpoint.hpp"
#include "grains/io/log.hpp"
#include "grains/linalg/tpetra_types.hpp"
#include "grains/parallel/body_domain.hpp"

#include <string>
#include <vector>

namespace grains {

/// How deep a restored body may lie in a wall: contact.overlap_tolerance, or
/// 5 % of the body's smallest size (radius, or smallest semi-axis) if larger,
/// so a settled pile's solver-tolerance overlaps pass and a moved wall does not.
double restartPenetrationTolerance(const Body& body, const ContactSection& contact);

/// Collective: the deepest penetration of a wall of `config` by this rank's
/// `owned` bodies beyond restartPenetrationTolerance, over all ranks, as
/// "body G penetrates wall 'name' (kind) by D m ..." naming how many bodies
/// do; "" if none does. Moving walls are where they are at `time` [s], a
/// force-controlled wall displaced by its `force_control` state (one per
/// wall, as checkpoints hold them; empty: at its configured pose).
std::string restartWallPenetration(const std::vector<Body>& owned, const SimulationConfig& config,
                                   const Comm& comm, double time = 0.0,
                                   const std::vector<ForceControlState>& force_control = {});

/// Collective: the deepest overlap of two restored bodies beyond the smaller
/// of their restartPenetrationTolerance, over all ranks, as "bodies A at
/// (x, y, z) and B at (...) overlap by D m ..." naming how many pairs do; ""
/// if none does, or if the bodies hold a shape pair only the multisphere
/// method handles. Leaves ghosts in `domain` (the next migration drops them).
std::string restartBodyOverlap(BodyDomain& domain, const ContactSection& contact);

/// Collective: throws ConfigError for a restartBodyOverlap unless
/// `allow_penetration`, which makes it a warning.
void checkRestoredOverlaps(BodyDomain& domain, const ContactSection& contact,
                           bool allow_penetration, const Log& log);

/// The trajectory-defining settings (simulation dt, gravity, dynamics and
/// seed; walls; contact; domain) in which `checkpoint_config_yaml` (the
/// checkpoint's effective config) differs from `config`, one line per value:
/// "walls.1.radius: checkpoint 2, config 1.5". A stored config that cannot be
/// read gives one line saying so.
std::vector<std::string> restartConfigDifferences(const std::string& checkpoint_config_yaml,
                                                  const SimulationConfig& config);

/// Collective, before anything is written: warns (on `log`) about each
/// restartConfigDifferences line, and throws ConfigError for a wall
/// penetration (restartWallPenetration) unless `allow_penetration` (run
/// --allow-penetration), which makes it a warning.
void checkRestart(const CheckpointState& restart, const SimulationConfig& config,
                  bool allow_penetration, const Comm& comm, const Log& log);

}  // namespace grains
