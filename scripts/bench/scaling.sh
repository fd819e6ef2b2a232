#!/usr/bin/env bash
# Strong and weak scaling on 1 and 2 ranks.
#  strong: config/bench_box.yaml, 20,000 spheres in a 10 m x 10 m box, on 1 and 2 ranks;
#  weak:   10,000 spheres per rank: a 5 m x 10 m box on 1 rank, 10 m x 10 m on 2.
# Runs are interleaved (1 rank, 2 ranks, 1, 2, ...) since the machines are
# noisy; the summary gives median and minimum time per step, the speedup of
# the medians and of the minima, and bytes sent per step and rank.
# Usage: scripts/bench/scaling.sh [REPEATS=3] [STEPS=200]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD="${GRAINS_BUILD_DIR:-$ROOT/build}"
REPEATS="${1:-3}"
STEPS="${2:-200}"
OUT="${BENCH_OUT:-$ROOT/output/bench-scaling}"
source "$ROOT/scripts/env.sh"
export OMP_NUM_THREADS=1
mkdir -p "$OUT"
run() {  # name ranks extra-args...
  local name=$1 ranks=$2
  shift 2
  mpirun -n "$ranks" "$BUILD/grains" run "$ROOT/config/bench_box.yaml" --output "$OUT/$name" \
    --overwrite --steps "$STEPS" --set output.log_every=0 "$@" > "$OUT/$name.log" 2>&1 ||
    { echo "run failed: $name (see $OUT/$name.log)"; exit 1; }
  echo "done $name"
}
HALF=(--set bodies.generator.count=10000 --set "bodies.generator.region.min=[-5.0,-5.0,0.05]"
  --set "bodies.generator.region.max=[0.0,5.0,30.0]" --set "walls.0.max=[0.0,5.0,40.0]")
for rep in $(seq 1 "$REPEATS"); do
  run "strong_p1_r$rep" 1
  run "strong_p2_r$rep" 2
  run "weak_p1_r$rep" 1 "${HALF[@]}"
  run "weak_p2_r$rep" 2
done
/usr/bin/python3 "$ROOT/scripts/bench/summarize_scaling.py" "$OUT" | tee "$OUT/summary.txt"
