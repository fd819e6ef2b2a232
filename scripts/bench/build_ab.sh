#!/usr/bin/env bash
# Two grains binaries (two builds: compiler flags, a change under test) on the
# grains side of the settle benchmark (scripts/bench/vs_liggghts.sh: the same
# initial states and deck), interleaved A B A B ... because the machines here
# are noisy. Builds whose bits differ follow different trajectories, so the
# summary compares solve time per APGD iteration as well as wall time
# (docs/performance.md, "Compiling for the machine").
#
#   scripts/bench/build_ab.sh GRAINS_A GRAINS_B [REPEATS=3]
#
# Env: SIZES (default "1000 2000 4000")  MUS (default "0.3 0.5")
#      TEND (default 1.5 s: the impact phase)  GRAINS_DT (default 0.02)
#      GRAINS_TOL (default 1e-4)  EXTRA (arguments of every run)
#      BENCH_OUT (default output/bench-build-ab)
# Output: $BENCH_OUT/a_n<N>_mu<mu>_r<repeat>/ and b_..., and the table of
# summarize_build_ab.py.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
[[ $# -ge 2 ]] || { sed -n '2,16p' "$0"; exit 2; }
GRAINS_A="$1"
GRAINS_B="$2"
REPEATS="${3:-3}"
SIZES="${SIZES:-1000 2000 4000}"
MUS="${MUS:-0.3 0.5}"
export TEND="${TEND:-1.5}"
export GRAINS_DT="${GRAINS_DT:-0.02}"
export GRAINS_TOL="${GRAINS_TOL:-1e-4}"
OUT="${BENCH_OUT:-$ROOT/output/bench-build-ab}"
for g in "$GRAINS_A" "$GRAINS_B"; do
  [[ -x "$g" ]] || { echo "grains binary not found: $g"; exit 1; }
done
source "$ROOT/scripts/env.sh"
source "$ROOT/scripts/bench/settle_run.sh"
export OMP_NUM_THREADS=1
mkdir -p "$OUT"
for n in $SIZES; do settle_initial_state "$n" "$OUT/init_n$n"; done
status=0
for rep in $(seq 1 "$REPEATS"); do
  for n in $SIZES; do
    for mu in $MUS; do
      # Alternate which build goes first, so that neither always follows the other.
      order="a b"
      (( rep % 2 == 0 )) && order="b a"
      for side in $order; do
        GRAINS="$GRAINS_A"
        [[ $side == b ]] && GRAINS="$GRAINS_B"
        export GRAINS
        settle_run "$OUT/init_n$n/grains_tp2.yaml"$'\t'"$OUT/${side}_n${n}_mu${mu}_r${rep}"$'\t'"$mu"$'\t'"${EXTRA:-}" ||
          status=1
      done
      echo "done n=$n mu=$mu rep=$rep"
    done
  done
done
/usr/bin/python3 "$ROOT/scripts/bench/summarize_build_ab.py" "$OUT" | tee "$OUT/summary.md"
exit $status
