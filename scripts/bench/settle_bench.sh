#!/usr/bin/env bash
# Settle benchmark: the demo scenario (Heyn et al. Test
# Problem 2 geometry) with Coulomb friction alone (rolling and spinning
# resistance off: pgs has no rolling rows) with N = 1000 and 4000 spheres,
# for every solver; time
# per step and solver iterations per step from metrics.csv.
# Runs are interleaved (solver A, B, C, A, B, C, ...) because the 2-core
# machines here are noisy; the summary gives median and minimum per case.
#
# Usage: scripts/bench/settle_bench.sh [REPEATS=3] [STEPS=600] [RANKS=1]
# Env:   GRAINS_BUILD_DIR (default build/), SOLVERS (default "bbpgd apgd pgs"),
#        SIZES (default "1000 4000"), EXTRA (extra grains --set args)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD="${GRAINS_BUILD_DIR:-$ROOT/build}"
REPEATS="${1:-3}"
STEPS="${2:-600}"
RANKS="${3:-1}"
SOLVERS="${SOLVERS:-bbpgd apgd pgs}"
SIZES="${SIZES:-1000 4000}"
OUT="${BENCH_OUT:-$ROOT/output/bench-settle}"
source "$ROOT/scripts/env.sh"
export OMP_NUM_THREADS="${OMP_NUM_THREADS:-1}"
mkdir -p "$OUT"
for rep in $(seq 1 "$REPEATS"); do
  for n in $SIZES; do
    for solver in $SOLVERS; do
      dir="$OUT/n${n}_${solver}_r${rep}"
      mpirun -n "$RANKS" "$BUILD/grains" run --output "$dir" --overwrite --steps "$STEPS" \
        --set bodies.generator.count="$n" --set solver.name="$solver" \
        --set output.vtk_every=0 --set output.log_every=0 \
        --set contact.rolling_friction=0 --set contact.spinning_friction=0 \
        ${EXTRA:-} > "$dir.log" 2>&1 ||
        { echo "run failed: $dir (see $dir.log)"; exit 1; }
      echo "done n=$n solver=$solver rep=$rep"
    done
  done
done
/usr/bin/python3 "$ROOT/scripts/bench/summarize_metrics.py" "$OUT" | tee "$OUT/summary.txt"
