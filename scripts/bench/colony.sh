#!/usr/bin/env bash
# Palmer et al. (2025), section 4.3 / Table 3: the growing colony with ReLCP and LCP-MS,
# then a Markdown table of constraint ratios and compute time per constraint
# averaged over the run (docs/colony.md).
# Usage: scripts/bench/colony.sh [GENERATIONS] [OUTDIR] [METHODS] [RANKS]
#   (after scripts/build.sh; METHODS default "relcp multisphere5 multisphere7";
#   METHOD:SOLVER picks another solver, e.g. multisphere5:bbpgd)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
source "$ROOT/scripts/env.sh"
GENERATIONS="${1:-10}"
OUT="${2:-$ROOT/output/bench/colony}"
METHODS="${3:-relcp multisphere5 multisphere7}"
RANKS="${4:-1}"
export OMP_NUM_THREADS="${OMP_NUM_THREADS:-1}"
GRAINS="${GRAINS_BUILD_DIR:-$ROOT/build}/grains"
mkdir -p "$OUT"
run() {  # name, extra --set arguments
  local name="$1"; shift
  mpirun --oversubscribe -np "$RANKS" "$GRAINS" run "$ROOT/config/colony.yaml" \
    --output "$OUT/$name" --overwrite --set output.vtk_every=0 --set output.log_every=0 \
    --set growth.max_generations="$GENERATIONS" "$@" > "$OUT/$name.log"
}
for entry in $METHODS; do  # METHOD or METHOD:SOLVER (default: the config's kucera)
  method="${entry%%:*}"
  solver=()
  [[ "$entry" == *:* ]] && solver=(--set solver.name="${entry#*:}")
  case "$method" in
    relcp | single) run "$entry" --set contact.method="$method" "${solver[@]}" ;;
    multisphere*) run "$entry" --set contact.method=multisphere \
                    --set contact.subspheres="${method#multisphere}" "${solver[@]}" ;;
    *) echo "unknown method $method" >&2; exit 2 ;;
  esac
done
# shellcheck disable=SC2086
/usr/bin/python3 "$ROOT/scripts/bench/summarize_colony.py" "$OUT" $METHODS
