#!/usr/bin/env bash
# The grains side of the settle benchmark (scripts/bench/vs_liggghts.sh, the
# same initial states and deck) at several time steps, to see how the time
# step changes the time to rest (docs/performance.md, "Choosing the time
# step"). Runs are interleaved (every time step of a case, then the next
# case, repeat by repeat) because the machines here are noisy. Each time step
# gets its own directory $BENCH_OUT/dt<dt>, laid out as vs_liggghts.sh's
# output without the LIGGGHTS runs, and its own summary
# ($BENCH_OUT/dt<dt>/summary.md, by summarize_vs_liggghts.py).
#
#   scripts/bench/dt_sweep.sh [REPEATS=2] [RANKS=1]
#
# Env: DTS (default "0.01 0.02 0.04")  SIZES (default "1000 2000 4000")
#      MUS (default "0.3 0.5")  TEND (default 6 s)
#      GRAINS_TOL (APGD tolerance in metres, the same at every time step,
#      default 1e-4)  EXTRA (extra grains arguments)
#      GRAINS (default $GRAINS_BUILD_DIR/grains, build/grains)
#      BENCH_OUT (default output/bench-dt-sweep)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD="${GRAINS_BUILD_DIR:-$ROOT/build}"
GRAINS="${GRAINS:-$BUILD/grains}"
REPEATS="${1:-2}"
RANKS="${2:-1}"
DTS="${DTS:-0.01 0.02 0.04}"
SIZES="${SIZES:-1000 2000 4000}"
MUS="${MUS:-0.3 0.5}"
TEND="${TEND:-6.0}"
GRAINS_TOL="${GRAINS_TOL:-1e-4}"
OUT="${BENCH_OUT:-$ROOT/output/bench-dt-sweep}"
[[ -x "$GRAINS" ]] || { echo "grains binary not found: $GRAINS (set GRAINS or GRAINS_BUILD_DIR)"; exit 1; }
source "$ROOT/scripts/env.sh"
export OMP_NUM_THREADS=1
mkdir -p "$OUT"
source "$ROOT/scripts/bench/settle_run.sh"
for n in $SIZES; do settle_initial_state "$n" "$OUT/init_n$n"; done
for rep in $(seq 1 "$REPEATS"); do
  for n in $SIZES; do
    for mu in $MUS; do
      for dt in $DTS; do
        dir="$OUT/dt$dt/grains_n${n}_mu${mu}_p${RANKS}_r${rep}"
        mkdir -p "$OUT/dt$dt"
        # shellcheck disable=SC2086  # EXTRA is a list of arguments
        mpirun -n "$RANKS" "$GRAINS" run "$OUT/init_n$n/grains_tp2.yaml" --output "$dir" \
          --overwrite --set simulation.end_time="$TEND" --set simulation.dt="$dt" \
          --set solver.tolerance="$GRAINS_TOL" --set contact.mu="$mu" \
          --set output.vtk_every="$final_frame_only" ${EXTRA:-} > "$dir.log" 2>&1 ||
          { echo "grains failed: $dir (see $dir.log)"; mkdir -p "$dir"; touch "$dir/FAILED"; }
        echo "done n=$n mu=$mu dt=$dt rep=$rep"
      done
    done
  done
done
for dt in $DTS; do
  echo "## dt = $dt s"
  /usr/bin/python3 "$ROOT/scripts/bench/summarize_vs_liggghts.py" "$OUT/dt$dt" |
    tee "$OUT/dt$dt/summary.md"
  echo
done
