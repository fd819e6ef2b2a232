#!/usr/bin/env bash
# Palmer et al. (2025), section 4.4 chainmail with each constraint method; prints a
# Markdown table of the largest true ring-ring overlap per step (docs/relcp.md).
# Usage: scripts/bench/relcp_chainmail.sh [STEPS] [OUTDIR] [DT] [METHODS] [EXTRA]
#   EXTRA: more options for every run, e.g. "--set simulation.drag=1.0"
#   (after scripts/build.sh; METHODS default "relcp single multisphere32")
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
source "$ROOT/scripts/env.sh"
STEPS="${1:-20000}"
OUT="${2:-$ROOT/output/bench/relcp_chainmail}"
DT="${3:-0.001}"
METHODS="${4:-relcp single multisphere32}"
read -r -a EXTRA <<< "${5:-}"
export OMP_NUM_THREADS="${OMP_NUM_THREADS:-1}"
GRAINS="${GRAINS_BUILD_DIR:-$ROOT/build}/grains"
mkdir -p "$OUT"
run() {  # name, extra --set arguments
  local name="$1"; shift
  "$GRAINS" run "$ROOT/config/relcp_chainmail.yaml" --steps "$STEPS" --output "$OUT/$name" \
    --overwrite --set output.vtk_every=0 --set output.log_every=0 --set simulation.dt="$DT" "$@" "${EXTRA[@]}" \
    > "$OUT/$name.log"
}
for method in $METHODS; do
  case "$method" in
    relcp | single) run "$method" --set contact.method="$method" ;;
    multisphere32) run "$method" --set contact.method=multisphere --set contact.subspheres=32 ;;
    *) echo "unknown method $method" >&2; exit 2 ;;
  esac
done
# shellcheck disable=SC2086
/usr/bin/python3 "$ROOT/scripts/bench/summarize_chainmail.py" "$OUT" $METHODS
