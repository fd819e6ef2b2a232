#!/usr/bin/env bash
# A small grains run under valgrind memcheck (docs/reliability.md): 27
# frictional spheres settling on a floor for 15 steps, on 1 rank and on 2
# ranks, with VTK frames, the contact network and a checkpoint, so every
# module runs. Invalid reads/writes, uses of uninitialised values and
# definitely lost memory fail the run (exit 1); Open MPI's suppression file
# and scripts/sanitizers/valgrind.supp (each entry explained) hide the MPI
# runtime's own reports.
# Usage: scripts/valgrind.sh [BUILD_DIR]   (default build/, built by scripts/build.sh)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${1:-${GRAINS_BUILD_DIR:-$ROOT/build}}"
GRAINS="$BUILD/grains"
[[ -x $GRAINS ]] || {
  echo "valgrind.sh: no $GRAINS; build first (scripts/build.sh)" >&2
  exit 2
}
command -v valgrind >/dev/null || {
  echo "valgrind.sh: valgrind is not installed" >&2
  exit 2
}
source "$ROOT/scripts/env.sh"
export OMP_NUM_THREADS=1
work=$(mktemp -d /tmp/grains_valgrind.XXXXXX)
trap 'rm -rf "$work"' EXIT
cat >"$work/pile.yaml" <<'YAML'
simulation: {dt: 0.005, steps: 15}
bodies:
  radius: 0.1
  mass: 1.0
  generator: {type: lattice, count: 27, spacing: 0.22, jitter: 0.5,
              region: {type: box, min: [0, 0, 0], max: [0.66, 0.66, 0.66]}}
walls: [{type: plane, point: [0, 0, 0], normal: [0, 0, 1]}]
contact: {friction: coulomb, mu: 0.3}
solver: {name: apgd, tolerance: 1.0e-8}
output: {vtk_every: 5, contact_network: true, checkpoint_every: 15, log_every: 5}
YAML
suppressions=(--suppressions="$ROOT/scripts/sanitizers/valgrind.supp")
[[ -f /usr/share/openmpi/openmpi-valgrind.supp ]] &&
  suppressions+=(--suppressions=/usr/share/openmpi/openmpi-valgrind.supp)
memcheck=(valgrind --tool=memcheck --error-exitcode=1 --leak-check=full
  --show-leak-kinds=definite --errors-for-leak-kinds=definite --track-origins=yes
  --num-callers=30 "${suppressions[@]}")
status=0
for np in 1 2; do
  start=$(date +%s)
  mpirun -np "$np" --oversubscribe "${memcheck[@]}" --log-file="$work/memcheck_np$np.%p.log" \
    "$GRAINS" run "$work/pile.yaml" --output "$work/out_np$np" -q || status=1
  errors=$(grep -h "ERROR SUMMARY" "$work"/memcheck_np$np.*.log | sed 's/.*ERROR SUMMARY: //' |
    paste -sd';' - || true)
  lost=$( (grep -h "definitely lost:" "$work"/memcheck_np$np.*.log || true) |
    sed 's/.*definitely lost: //' | paste -sd';' -)
  echo "np=$np: $(($(date +%s) - start)) s; per rank: errors: $errors; definitely lost: ${lost:-0 bytes}"
  if ((status != 0)); then
    echo "valgrind.sh: memcheck reported errors on $np rank(s):"
    grep -h -A30 "Invalid\|uninitialised\|definitely lost in" "$work"/memcheck_np$np.*.log | head -80
    break
  fi
done
exit "$status"
