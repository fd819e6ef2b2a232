#!/usr/bin/env bash
# Time per step, its breakdown and the peak memory of settling piles of 10k to
# 1M spheres (docs/performance.md). The scene is config/bench_box.yaml with a
# footprint that grows with N and a fixed height (about ten layers of spheres
# on a lattice with 1 cm gaps, so every neighbour is a contact candidate from
# the first step): the physics per body is the same at every size, so the time
# per step per body should stay flat. Runs are interleaved (10k, 100k, 1M,
# 10k, ...) because the machines here are noisy. A size may be given as
# N:STEPS or N:STEPS:REPEATS to run fewer steps or repeats than the others
# (e.g. SIZES="10000 100000 1000000:10:1"); the summary then averages every run
# over the same steps. Each rank runs under /usr/bin/time, which records its
# peak RSS, elapsed time and minor page faults in <run>.rss. LAYOUTS lists
# ranks x threads layouts run side by side (e.g. LAYOUTS="1x1 1x2 2x1");
# every rank is bound to its own THREADS cores (Open MPI binds a rank to one
# core by default, which would put all its threads on that core).
# Usage: scripts/bench/pile_sizes.sh [REPEATS=2] [STEPS=30] [RANKS=1]
# Env: SIZES (default "10000 100000 1000000"), SKIP (first steps left out of
#      the time per step, default 2), OMP_NUM_THREADS (default 1), LAYOUTS
#      (default "RANKSxOMP_NUM_THREADS"), GRAINS_BUILD_DIR (uses its grains),
#      BENCH_OUT, EXTRA (extra --set arguments).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD="${GRAINS_BUILD_DIR:-$ROOT/build}"
REPEATS="${1:-2}"
STEPS="${2:-30}"
RANKS="${3:-1}"
SIZES="${SIZES:-10000 100000 1000000}"
SKIP="${SKIP:-2}"
OUT="${BENCH_OUT:-$ROOT/output/bench-piles}"
source "$ROOT/scripts/env.sh"
export OMP_NUM_THREADS="${OMP_NUM_THREADS:-1}"
LAYOUTS="${LAYOUTS:-${RANKS}x${OMP_NUM_THREADS}}"
mkdir -p "$OUT"
max_repeats="$REPEATS"
for size in $SIZES; do
  IFS=: read -r _ _ r <<< "$size"
  if [[ -n "$r" && "$r" -gt "$max_repeats" ]]; then max_repeats="$r"; fi
done
for rep in $(seq 1 "$max_repeats"); do
  for size in $SIZES; do
    IFS=: read -r n steps repeats <<< "$size"
    steps="${steps:-$STEPS}"
    repeats="${repeats:-$REPEATS}"
    if [[ "$rep" -gt "$repeats" ]]; then continue; fi
    for layout in $LAYOUTS; do
      ranks="${layout%x*}"
      threads="${layout#*x}"
      # Ten layers of (side / 0.21)^2 spheres: side = 0.21 sqrt(n / 10).
      half=$(/usr/bin/python3 -c "print(round(0.105 * ($n / 10) ** 0.5, 4))")
      dir="$OUT/n${n}_p${ranks}_t${threads}_r${rep}"
      rm -f "$dir.rss"
      # /usr/bin/time inside mpirun, so that it measures grains, not mpirun;
      # one line "peak_rss_kB elapsed_s minor_faults" per rank.
      OMP_NUM_THREADS="$threads" mpirun -n "$ranks" --map-by "slot:PE=$threads" --bind-to core \
        /usr/bin/time -a -o "$dir.rss" -f "%M %e %R" "$BUILD/grains" run "$ROOT/config/bench_box.yaml" \
        --output "$dir" --overwrite --steps "$steps" --set output.log_every=0 \
        --set bodies.generator.count="$n" --set bodies.generator.spacing=0.21 \
        --set bodies.generator.jitter=0.5 \
        --set "bodies.generator.region.min=[-$half,-$half,0.0]" \
        --set "bodies.generator.region.max=[$half,$half,30.0]" \
        --set "walls.0.min=[-$half,-$half,0.0]" --set "walls.0.max=[$half,$half,40.0]" \
        ${EXTRA:-} > "$dir.log" 2>&1 || { echo "run failed: $dir (see $dir.log)"; exit 1; }
      echo "done n=$n layout=$layout rep=$rep steps=$steps"
    done
  done
done
/usr/bin/python3 "$ROOT/scripts/bench/summarize_piles.py" "$OUT" "$SKIP" | tee "$OUT/summary.txt"
