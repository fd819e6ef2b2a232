#!/usr/bin/env bash
# Makes the ParaView pictures of docs/boundaries.md (docs/img/paraview/)
# with render.py, from fresh runs of the boundary scenarios:
#   drum.png       config/rotating_drum.yaml at 3 s, along the drum's axis
#   silo.png       config/silo_discharge.yaml at 0.6 s (discharging), front
#   hopper.png     config/mesh_hopper.yaml at 0.6 s, the STL hopper, front
#   heap.png       config/pour_heap.yaml at its end, the poured heap
#   shear.png      config/shear_periodic.yaml at its end, top view (periodic in x, y)
# Needs a built grains (build/grains) and ParaView (scripts/install-deps.sh).
# Usage: scripts/paraview/boundary_pictures.sh [WORK_DIR]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
GRAINS="${GRAINS_BUILD_DIR:-$ROOT/build}/grains"
PV="$ROOT/scripts/paraview/pvbatch.sh"
RENDER="$ROOT/scripts/paraview/render.py"
OUT="$ROOT/docs/img/paraview"
work=${1:-$(mktemp -d /tmp/grains_boundary_pictures.XXXXXX)}
mkdir -p "$OUT" "$work"
source "$ROOT/scripts/env.sh"
export OMP_NUM_THREADS=1

run() {  # NAME CONFIG [grains run arguments...]
  local name=$1 config=$2
  shift 2
  "$GRAINS" run "$ROOT/config/$config" --output "$work/$name" --overwrite -q "$@" >/dev/null 2>&1
}
run drum rotating_drum.yaml --set simulation.end_time=3
"$PV" "$RENDER" "$work/drum" --view side --size 800x700 --output "$OUT/drum.png"
run silo silo_discharge.yaml --set simulation.end_time=0.6
"$PV" "$RENDER" "$work/silo" --view front --size 700x800 --output "$OUT/silo.png"
run hopper mesh_hopper.yaml --set simulation.end_time=0.6
"$PV" "$RENDER" "$work/hopper" --view front --size 700x800 --output "$OUT/hopper.png"
run heap pour_heap.yaml
"$PV" "$RENDER" "$work/heap" --view iso --size 900x700 --output "$OUT/heap.png"
run shear shear_periodic.yaml
"$PV" "$RENDER" "$work/shear" --view top --size 800x800 --output "$OUT/shear.png"
ls -l "$OUT"
