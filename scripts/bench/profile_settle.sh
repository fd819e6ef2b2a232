#!/usr/bin/env bash
# perf profile of the settle scenario: the built-in demo with Coulomb friction
# alone (config/demo_settle.yaml: Heyn et al. (2013), Test Problem 2, 1000
# spheres, APGD; rolling and spinning resistance off; ROLLING=1 keeps them) for
# its first STEPS steps on 1 rank and 1 thread, sampled at 999 Hz. Prints the
# phase table of the run and the symbols above 1 % of the samples.
# Usage: scripts/bench/profile_settle.sh [STEPS=300] [BUILD_DIR=build] [OUT]
# Needs perf (Debian package linux-perf) and kernel.perf_event_paranoid <= 1
# (or root).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
STEPS="${1:-300}"
BUILD="${2:-$ROOT/build}"
OUT="${3:-$ROOT/output/profile-settle}"
command -v perf > /dev/null || { echo "perf not found: apt-get install -y linux-perf"; exit 1; }
source "$ROOT/scripts/env.sh"
export OMP_NUM_THREADS=1
mkdir -p "$OUT"
FRICTION="--set contact.rolling_friction=0 --set contact.spinning_friction=0"
[ "${ROLLING:-0}" = 1 ] && FRICTION=""
perf record -q -F 999 -o "$OUT/perf.data" "$BUILD/grains" run "$ROOT/config/demo_settle.yaml" \
  --output "$OUT/run" --overwrite --steps "$STEPS" --set output.vtk_every=0 \
  --set output.log_every=0 $FRICTION > "$OUT/run.log" 2>&1
grep -A12 "^timing" "$OUT/run.log"
perf report -i "$OUT/perf.data" --no-children --percent-limit 1 --stdio 2> /dev/null |
  grep -E "^ +[0-9]" | sed -E 's/<[^<>]*(<[^<>]*>[^<>]*)*>//g; s/ +/ /g' | cut -c1-140
