// The built-in demo scenario. config/demo_settle.yaml holds the identical
// text (a unit test checks it): edit both together.
#include "grains/config/config_loader.hpp"

namespace grains {

std::string defaultConfigYaml() {
  return R"yaml(# Built-in demo (also `grains` without a config file): 1000 spheres with
# Coulomb friction and rolling and spinning resistance settle under gravity
# inside a vertical cylinder on a floor.
# Geometry of Test Problem 2 in Heyn et al. (2013):
# cylinder radius 2 m, sphere radius 0.1 m, sphere mass 6.28 kg. With
# friction the pile comes to rest; config/tp2_frictionless.yaml is the
# frictionless variant the paper's solver comparison uses.
# Keep this file identical to defaultConfigYaml() in src/config/default_config.cpp.
simulation:
  dynamics: inertial
  dt: 0.005                 # [s]
  end_time: 4.0             # [s] -> 800 steps
  gravity: [0.0, 0.0, -9.81]
  seed: 1

bodies:
  shape: sphere
  radius: 0.1               # [m]
  mass: 6.28                # [kg]
  initial_velocity: [0.0, 0.0, 0.0]
  generator:
    type: lattice
    count: 1000
    spacing: 0.25           # loose simple cubic lattice (gap 0.05 m)
    jitter: 0.1             # breaks the lattice symmetry, seeded by simulation.seed
    region:                 # bodies lie entirely inside: centres within r < 1.75 m, z >= 0.15 m
      type: cylinder
      center: [0.0, 0.0]
      radius: 1.85
      z_min: 0.05
      z_max: 20.0

walls:
  - {type: plane, name: floor, point: [0.0, 0.0, 0.0], normal: [0.0, 0.0, 1.0]}
  - {type: cylinder, name: container, side: inside, point: [0.0, 0.0, 0.0], axis: [0.0, 0.0, 1.0], radius: 2.0}

contact:
  friction: coulomb
  mu: 0.3
  envelope: 0.02            # [m]
  damping_steps: 4
  compliance: 0.0
  # Overlaps up to 0.01 % of r are held, not pushed out again every step:
  # the resting pile stands still (docs/solvers.md, "Piles at rest").
  overlap_slop: 1.0e-5      # [m]
  # Real grains touch over an area: rolling and spinning resistance (torques
  # up to 0.05 rho N, rho the rolling radius) stop the rolls and spins a point
  # contact cannot, and the pile comes to rest (docs/model.md; 0 turns them off).
  rolling_friction: 0.05
  spinning_friction: 0.05

solver:
  name: apgd                # converges on every step of this pile (docs/benchmarks.md)
  tolerance: 1.0e-6
  max_iterations: 1000
  # Near rest a step removes most of the error its warm start carries.
  rest_reduction: 0.3
  rest_floor: 0.01

output:
  dir: output
  vtk_every: 10             # 800 steps -> 80 frames (plus the initial one)
  log_every: 50
  metrics_every: 1
)yaml";
}

}  // namespace grains
