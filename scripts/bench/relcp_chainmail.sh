#!/usr/bin/env bash
# Seed 004 section 4.4 chainmail with each constraint method; prints a
# Markdown table of the largest true ring-ring overlap per step (docs/relcp.md).
# Usage: scripts/bench/relcp_chainmail.sh [STEPS] [OUTDIR]   (after scripts/build.sh)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
source "$ROOT/scripts/env.sh"
STEPS="${1:-20000}"
OUT="${2:-$ROOT/output/bench/relcp_chainmail}"
GRAINS="${GRAINS_BUILD_DIR:-$ROOT/build}/grains"
mkdir -p "$OUT"
run() {  # name, extra --set arguments
  local name="$1"; shift
  "$GRAINS" run "$ROOT/config/relcp_chainmail.yaml" --steps "$STEPS" --output "$OUT/$name" \
    --overwrite --set output.vtk_every=0 --set output.log_every=0 "$@" > "$OUT/$name.log"
}
run relcp --set contact.method=relcp
run single --set contact.method=single
run multisphere32 --set contact.method=multisphere --set contact.subspheres=32
/usr/bin/python3 "$ROOT/scripts/bench/summarize_chainmail.py" "$OUT" relcp single multisphere32
