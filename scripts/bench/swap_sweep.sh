#!/usr/bin/env bash
# Which part of a settle run decides its time of rest: every base variant runs
# the grains side of the settle benchmark (scripts/bench/seed_sweep.sh: same
# deck, initial states and output layout) up to t = SWITCH and checkpoints
# there; every continuation variant then restarts each of those checkpoints
# and runs on to TEND (docs/performance.md, "With rolling and spinning
# resistance on both sides"). A pile that keeps its base's time of rest
# whatever it continues with was decided before SWITCH.
#
#   scripts/bench/swap_sweep.sh BASE[=ARGS] [BASE[=ARGS] ...] -- CONT[=ARGS] [...]
#
# ARGS: extra grains arguments, as for seed_sweep.sh. A continuation gets the
# EXTRA arguments plus its own (a base's are not carried over: name them in
# the continuation to keep them). Output: $BENCH_OUT/<base>/ (the runs to
# SWITCH) and $BENCH_OUT/<base>-<cont>/, whose metrics.csv holds the base's
# steps followed by the continuation's, and its summary.md
# (summarize_vs_liggghts.py --runs: medians over the seeds, then every run).
#
# Env: SWITCH (default 3 s)  EXTRA (arguments of every run, default none)
#      SEEDS, SIZES, MUS, TEND, GRAINS_DT, GRAINS_TOL, JOBS, GRAINS as for
#      seed_sweep.sh  BENCH_OUT (default output/bench-swap-sweep)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD="${GRAINS_BUILD_DIR:-$ROOT/build}"
export GRAINS="${GRAINS:-$BUILD/grains}"
SWITCH="${SWITCH:-3.0}"
EXTRA="${EXTRA:-}"
export SEEDS="${SEEDS:-1 2 3 4 5}"
export SIZES="${SIZES:-2000}"
export MUS="${MUS:-0.3 0.5}"
export TEND="${TEND:-12.0}"
export GRAINS_DT="${GRAINS_DT:-0.02}"
export GRAINS_TOL="${GRAINS_TOL:-1e-4}"
JOBS="${JOBS:-1}"
OUT="${BENCH_OUT:-$ROOT/output/bench-swap-sweep}"
bases=()
conts=()
target=bases
for arg in "$@"; do
  if [[ "$arg" == "--" ]]; then target=conts; continue; fi
  if [[ $target == bases ]]; then bases+=("$arg"); else conts+=("$arg"); fi
done
[[ ${#bases[@]} -ge 1 && ${#conts[@]} -ge 1 ]] || { sed -n '2,21p' "$0"; exit 2; }
[[ -x "$GRAINS" ]] || { echo "grains binary not found: $GRAINS (set GRAINS or GRAINS_BUILD_DIR)"; exit 1; }
mkdir -p "$OUT"
switch_step=$(/usr/bin/python3 -c "print(round($SWITCH / $GRAINS_DT))")
checkpoint=$(printf 'checkpoint_%08d.h5' "$switch_step")
# The runs to SWITCH, with a checkpoint at its step.
base_variants=()
for base in "${bases[@]}"; do
  args=""
  [[ "$base" == *=* ]] && args="${base#*=}"
  base_variants+=("${base%%=*}=$EXTRA $args --set output.checkpoint_every=$switch_step")
done
TEND="$SWITCH" JOBS="$JOBS" BENCH_OUT="$OUT" "$ROOT/scripts/bench/seed_sweep.sh" \
  "${base_variants[@]}" > "$OUT/bases.log"
source "$ROOT/scripts/env.sh"
export OMP_NUM_THREADS=1
source "$ROOT/scripts/bench/settle_run.sh"
runs="$OUT/continuations.txt"
: > "$runs"
for base in "${bases[@]}"; do
  bname="${base%%=*}"
  for cont in "${conts[@]}"; do
    cname="${cont%%=*}"
    args=""
    [[ "$cont" == *=* ]] && args="${cont#*=}"
    mkdir -p "$OUT/$bname-$cname"
    for n in $SIZES; do
      for seed in $SEEDS; do
        for mu in $MUS; do
          run="grains_n${n}_mu${mu}_p1_r$seed"
          printf '%s\t%s\t%s\t%s\t%s\n' "$OUT/init_n${n}_s$seed/grains_tp2.yaml" \
            "$OUT/$bname/$run" "$OUT/$bname-$cname/$run" "$mu" "$EXTRA $args" >> "$runs"
        done
      done
    done
  done
done
continue_one() {
  IFS=$'\t' read -r config base dir mu args <<< "$1"
  if settle_run "$config"$'\t'"$dir"$'\t'"$mu"$'\t'"--restart $base/$CHECKPOINT $args"; then
    # The whole trajectory for the summary: the base's steps, then these.
    mv "$dir/metrics.csv" "$dir/continuation_metrics.csv"
    { cat "$base/metrics.csv"; tail -n +2 "$dir/continuation_metrics.csv"; } > "$dir/metrics.csv"
  fi
  echo "done $dir"
}
export -f continue_one
export CHECKPOINT="$checkpoint"
tr '\n' '\0' < "$runs" | xargs -0 -P "$JOBS" -I{} bash -c 'continue_one "$1"' _ {}
for base in "${bases[@]}"; do
  for cont in "${conts[@]}"; do
    name="${base%%=*}-${cont%%=*}"
    echo "## $name"
    /usr/bin/python3 "$ROOT/scripts/bench/summarize_vs_liggghts.py" --runs "$OUT/$name" |
      tee "$OUT/$name/summary.md"
    echo
  done
done
