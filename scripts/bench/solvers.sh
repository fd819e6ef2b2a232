#!/usr/bin/env bash
# Solver laboratory benchmark, after Heyn et al. (2013), Table 1:
#  1. run a scenario to rest and export the frictionless QP of its last step;
#  2. projected Jacobi for JACOBI_ITERATIONS (100,000) iterations: its
#     objective after 43,000 iterations is the target (Heyn et al. (2013), §5.1);
#  3. every solver from zero to a relative residual of 1e-6 (relative to the
#     residual at gamma = 0), with its per-iteration history;
#  4. a table (method, iterations, final objective, gamma_min, gamma_max,
#     seconds, relative residual, seconds to reach the Jacobi-43,000
#     objective, speed-up over Jacobi) and PNG plots of objective and
#     residual against iterations and against seconds.
# Timings exclude the history measurements (grains qp solve does that).
#
# Usage: scripts/bench/solvers.sh [CONFIG=config/seed001_tp1.yaml] [STEPS=800] [RANKS=1]
# Env:   GRAINS_BUILD_DIR, BENCH_OUT (default output/bench-solvers/<config name>),
#        SOLVERS (default: every registered solver), JACOBI_ITERATIONS (100000),
#        MAX_ITERATIONS (200000; NEWTON_MAX_ITERATIONS 2000: a semi-smooth Newton
#        step costs up to krylov_iterations applications of A), EXTRA (extra
#        --set arguments for the run),
#        QP_DIR (skip the run and use this exported QP directory)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD="${GRAINS_BUILD_DIR:-$ROOT/build}"
CONFIG="${1:-$ROOT/config/seed001_tp1.yaml}"
STEPS="${2:-800}"
RANKS="${3:-1}"
NAME="$(basename "$CONFIG" .yaml)"
OUT="${BENCH_OUT:-$ROOT/output/bench-solvers/$NAME}"
SOLVERS="${SOLVERS:-jacobi pgs ngs apgd bbpgd spg gpminres kucera cpg newton}"
JACOBI_ITERATIONS="${JACOBI_ITERATIONS:-100000}"
MAX_ITERATIONS="${MAX_ITERATIONS:-200000}"
NEWTON_MAX_ITERATIONS="${NEWTON_MAX_ITERATIONS:-2000}"
source "$ROOT/scripts/env.sh"
export OMP_NUM_THREADS="${OMP_NUM_THREADS:-1}"
PY=/usr/bin/python3
if ! $PY -c "import matplotlib" 2> /dev/null; then
  echo "solvers.sh: installing python3-matplotlib for the plots"
  SUDO=""; [[ $(id -u) -ne 0 ]] && SUDO="sudo"
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends python3-matplotlib
fi
mkdir -p "$OUT"

QP="${QP_DIR:-$OUT/qp/step_$STEPS}"
if [[ -z "${QP_DIR:-}" ]]; then
  echo "== settling $CONFIG for $STEPS steps on $RANKS rank(s), exporting the QP of step $STEPS"
  mpirun -n "$RANKS" "$BUILD/grains" run "$CONFIG" --output "$OUT/run" --overwrite \
    --steps "$STEPS" --set output.vtk_every=0 --set output.log_every=100 \
    --export-qp "$STEPS" "$OUT/qp" ${EXTRA:-} | tee "$OUT/run.log" | tail -3
fi

# The residual at gamma = 0 scales the tolerance: a relative residual of 1e-6.
r0=$("$BUILD/grains" qp solve "$QP" --solver apgd --max-iterations 0 --history "$OUT/r0.csv" > /dev/null || true
     sed -n 2p "$OUT/r0.csv" | cut -d, -f4)
tol=$($PY -c "print(1e-6 * $r0)")
echo "== residual at gamma = 0: $r0; tolerance (relative 1e-6): $tol"

: > "$OUT/summary.csv"
run_solver() {  # name, max iterations, history stride, tolerance, label
  local log="$OUT/$5.log"
  mpirun -n "$RANKS" "$BUILD/grains" qp solve "$QP" --solver "$1" --max-iterations "$2" \
    --tolerance "$4" --history "$OUT/$5.history.csv" --history-every "$3" > "$log" 2>&1 || true
  head -1 "$log"
  if [[ ! -s "$OUT/summary.csv" ]]; then sed -n 2p "$log" > "$OUT/summary.csv"; fi
  sed -n 3p "$log" | sed "s/^[^,]*/$5/" >> "$OUT/summary.csv"
}
echo "== projected Jacobi, $JACOBI_ITERATIONS iterations (reference)"
run_solver jacobi "$JACOBI_ITERATIONS" 100 1e-300 jacobi_reference
for s in $SOLVERS; do
  echo "== $s"
  stride=1
  cap="$MAX_ITERATIONS"
  [[ "$s" == jacobi || "$s" == pgs || "$s" == ngs ]] && stride=10
  [[ "$s" == newton ]] && cap="$NEWTON_MAX_ITERATIONS"
  run_solver "$s" "$cap" "$stride" "$tol" "$s"
done
$PY "$ROOT/scripts/bench/solver_table.py" "$OUT" "$r0" | tee "$OUT/table.md"
echo "table: $OUT/table.md; plots: $OUT/*.png"
