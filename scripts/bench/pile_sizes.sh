#!/usr/bin/env bash
# Time per step and its breakdown for settling piles of 10k, 50k and 100k
# spheres (issue: performance). The scene is config/bench_box.yaml with a
# footprint that grows with N and a fixed height (about ten layers of spheres
# on a lattice with 1 cm gaps, so every neighbour is a contact candidate from
# the first step): the physics per body is the same at every size, so the time
# per step per body must stay flat. Runs are interleaved (10k, 50k, 100k,
# 10k, ...) because the machines here are noisy. LAYOUTS lists ranks x threads
# layouts run side by side for thread and rank scaling on the same problem
# (e.g. LAYOUTS="1x1 1x2 2x1"); each is interleaved with the others. Every rank
# is bound to its own THREADS cores (Open MPI binds a rank to one core by
# default, which would put all its threads on that core).
# Usage: scripts/bench/pile_sizes.sh [REPEATS=2] [STEPS=30] [RANKS=1]
# Env: SIZES (default "10000 50000 100000"), OMP_NUM_THREADS (default 1),
#      LAYOUTS (default "RANKSxOMP_NUM_THREADS"), GRAINS_BUILD_DIR, BENCH_OUT,
#      EXTRA (extra --set arguments).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD="${GRAINS_BUILD_DIR:-$ROOT/build}"
REPEATS="${1:-2}"
STEPS="${2:-30}"
RANKS="${3:-1}"
SIZES="${SIZES:-10000 50000 100000}"
OUT="${BENCH_OUT:-$ROOT/output/bench-piles}"
source "$ROOT/scripts/env.sh"
export OMP_NUM_THREADS="${OMP_NUM_THREADS:-1}"
LAYOUTS="${LAYOUTS:-${RANKS}x${OMP_NUM_THREADS}}"
mkdir -p "$OUT"
for rep in $(seq 1 "$REPEATS"); do
  for n in $SIZES; do
    for layout in $LAYOUTS; do
      ranks="${layout%x*}"
      threads="${layout#*x}"
      # Ten layers of (side / 0.21)^2 spheres: side = 0.21 sqrt(n / 10).
      half=$(/usr/bin/python3 -c "print(round(0.105 * ($n / 10) ** 0.5, 4))")
      dir="$OUT/n${n}_p${ranks}_t${threads}_r${rep}"
      OMP_NUM_THREADS="$threads" mpirun -n "$ranks" --map-by "slot:PE=$threads" --bind-to core "$BUILD/grains" run "$ROOT/config/bench_box.yaml" --output "$dir" \
        --overwrite --steps "$STEPS" --set output.log_every=0 \
        --set bodies.generator.count="$n" --set bodies.generator.spacing=0.21 \
        --set bodies.generator.jitter=0.5 \
        --set "bodies.generator.region.min=[-$half,-$half,0.0]" \
        --set "bodies.generator.region.max=[$half,$half,30.0]" \
        --set "walls.0.min=[-$half,-$half,0.0]" --set "walls.0.max=[$half,$half,40.0]" \
        ${EXTRA:-} > "$dir.log" 2>&1 || { echo "run failed: $dir (see $dir.log)"; exit 1; }
      echo "done n=$n layout=$layout rep=$rep"
    done
  done
done
/usr/bin/python3 "$ROOT/scripts/bench/summarize_piles.py" "$OUT" | tee "$OUT/summary.txt"
