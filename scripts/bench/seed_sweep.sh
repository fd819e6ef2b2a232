#!/usr/bin/env bash
# The grains side of the settle benchmark (scripts/bench/vs_liggghts.sh: the
# same deck and initial-state generator) from several initial states, for
# settings whose effect on the time of rest is smaller than the spread between
# trajectories: a frictional pile comes to rest at a time that changes by
# seconds with the last bits of its trajectory, so one trajectory per setting
# decides nothing (docs/solvers.md, "What the tolerance means, and piles at
# rest"). Every variant runs from the same initial states; runs are
# interleaved (all variants of a seed and mu, then the next). Each variant
# gets $BENCH_OUT/<name>, laid out as vs_liggghts.sh's output with the seed in
# place of the repeat (grains_n<N>_mu<mu>_p1_r<seed>), and its own summary
# ($BENCH_OUT/<name>/summary.md, by summarize_vs_liggghts.py --runs: medians
# over the seeds, then every run).
#
#   scripts/bench/seed_sweep.sh NAME[=ARGS] [NAME[=ARGS] ...]
#
# ARGS: extra grains arguments of that variant, e.g.
#   scripts/bench/seed_sweep.sh deck "worst=--set solver.rest_quantile=1"
#
# Env: SEEDS (default "1 2 3 4 5")  SIZES (default 2000)  MUS (default "0.3 0.5")
#      TEND (default 12 s)  GRAINS_DT (default 0.02 s)  GRAINS_TOL (default 1e-4)
#      JOBS (runs at a time, one thread each, default 1)
#      GRAINS (default $GRAINS_BUILD_DIR/grains, build/grains)
#      BENCH_OUT (default output/bench-seed-sweep)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD="${GRAINS_BUILD_DIR:-$ROOT/build}"
GRAINS="${GRAINS:-$BUILD/grains}"
SEEDS="${SEEDS:-1 2 3 4 5}"
SIZES="${SIZES:-2000}"
MUS="${MUS:-0.3 0.5}"
TEND="${TEND:-12.0}"
GRAINS_DT="${GRAINS_DT:-0.02}"
GRAINS_TOL="${GRAINS_TOL:-1e-4}"
JOBS="${JOBS:-1}"
OUT="${BENCH_OUT:-$ROOT/output/bench-seed-sweep}"
[[ $# -ge 1 ]] || { sed -n '2,25p' "$0"; exit 2; }
[[ -x "$GRAINS" ]] || { echo "grains binary not found: $GRAINS (set GRAINS or GRAINS_BUILD_DIR)"; exit 1; }
source "$ROOT/scripts/env.sh"
export OMP_NUM_THREADS=1
mkdir -p "$OUT"
source "$ROOT/scripts/bench/settle_run.sh"
names=()
for variant in "$@"; do names+=("${variant%%=*}"); done
for n in $SIZES; do
  for seed in $SEEDS; do
    settle_initial_state "$n" "$OUT/init_n${n}_s$seed" "$seed" > /dev/null
  done
done
# One line per run: init, output directory, mu, extra arguments.
runs="$OUT/runs.txt"
: > "$runs"
for n in $SIZES; do
  for seed in $SEEDS; do
    for mu in $MUS; do
      for variant in "$@"; do
        name="${variant%%=*}"
        args=""
        [[ "$variant" == *=* ]] && args="${variant#*=}"
        mkdir -p "$OUT/$name"
        printf '%s\t%s\t%s\t%s\n' "$OUT/init_n${n}_s$seed/grains_tp2.yaml" \
          "$OUT/$name/grains_n${n}_mu${mu}_p1_r$seed" "$mu" "$args" >> "$runs"
      done
    done
  done
done
run_one() {
  settle_run "$1" || true
  echo "done $(cut -f2 <<< "$1")"
}
export -f run_one
export GRAINS TEND GRAINS_DT GRAINS_TOL
tr '\n' '\0' < "$runs" | xargs -0 -P "$JOBS" -I{} bash -c 'run_one "$1"' _ {}
for name in "${names[@]}"; do
  echo "## $name"
  /usr/bin/python3 "$ROOT/scripts/bench/summarize_vs_liggghts.py" --runs "$OUT/$name" |
    tee "$OUT/$name/summary.md"
  echo
done
