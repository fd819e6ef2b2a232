#!/usr/bin/env bash
# The main job: install dependencies, build, and run the default demo (1000
# spheres settling in a cylinder, Test Problem 2 of Heyn et al. (2013)) under mpirun.
# Extra arguments go to `grains run`, e.g. --steps 100.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$ROOT/scripts/install-deps.sh"
"$ROOT/scripts/build.sh"
source "$ROOT/scripts/env.sh"
RANKS="${GRAINS_RANKS:-2}"
export OMP_NUM_THREADS="${OMP_NUM_THREADS:-1}"
mpirun -n "$RANKS" "${GRAINS_BUILD_DIR:-$ROOT/build}/grains" run --output "$ROOT/output/demo" --overwrite "$@"
echo "Open $ROOT/output/demo/bodies.pvd in ParaView (see docs/output.md)."
