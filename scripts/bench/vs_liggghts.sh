#!/usr/bin/env bash
# grains against LIGGGHTS (issue: performance): wall time until seed 001 Test
# Problem 2 (N spheres of r = 0.1 m, m = 6.28 kg falling into a cylinder of
# radius 2 m, Coulomb mu = 0.3) comes to rest, both codes starting from the
# same initial state (liggghts/make_tp2_initial.py) on the same machine with
# the same number of MPI ranks. LIGGGHTS: liggghts/in.tp2 (Hertz-Mindlin) at
# the softest stiffness that keeps overlaps at rest <= 1 % of r and the
# largest time step its usual stability rule allows, both per N: the load at
# the bottom of the pile grows with N and a Hertz overlap with (F/E)^(2/3), so
# E would grow like N; measured, E = 1.2e8 Pa (N / 1000) gave 0.90, 1.15 and
# 1.56 % at N = 1000, 2000, 4000 (the deeper piles also land harder), hence
# E = 1.2e8 Pa (N / 1000)^1.7 (1.2, 3.9 and 12.7 * 1e8 Pa), and dt = 20 % of
# the Rayleigh time pi r sqrt(rho/G) / (0.1631 nu + 0.8766). grains:
# liggghts/grains_tp2.yaml (ReLCP without the adaptive envelope). Runs are
# interleaved (grains, LIGGGHTS, grains, ...) because the machines here are
# noisy; summarize_vs_liggghts.py finds the
# time of rest (total kinetic energy below 1e-4 N m g r from then on) and the
# wall time spent until then, and checks the overlaps at rest.
#
# Usage: scripts/bench/vs_liggghts.sh [REPEATS=2] [RANKS=1]
# Env: SIZES (default "1000 2000 4000"), TEND (simulated time, default 6 s),
#      GRAINS_DT (default 0.02), GRAINS_TOL (default 1e-4), LIGGGHTS_DT and
#      YOUNGS (default: the per-N rule above), GRAINS_BUILD_DIR, BENCH_OUT,
#      EXTRA (extra grains --set arguments). OMP_NUM_THREADS is set to 1.
# Needs the Debian package liggghts: apt-get install -y --no-install-recommends liggghts
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD="${GRAINS_BUILD_DIR:-$ROOT/build}"
DECK="$ROOT/scripts/bench/liggghts"
REPEATS="${1:-2}"
RANKS="${2:-1}"
SIZES="${SIZES:-1000 2000 4000}"
TEND="${TEND:-6.0}"
GRAINS_DT="${GRAINS_DT:-0.02}"
GRAINS_TOL="${GRAINS_TOL:-1e-4}"
OUT="${BENCH_OUT:-$ROOT/output/bench-vs-liggghts}"
command -v liggghts > /dev/null ||
  { echo "liggghts not found: apt-get install -y --no-install-recommends liggghts"; exit 1; }
source "$ROOT/scripts/env.sh"
export OMP_NUM_THREADS=1
mkdir -p "$OUT"
for n in $SIZES; do
  init="$OUT/init_n$n"
  /usr/bin/python3 "$DECK/make_tp2_initial.py" "$n" "$init"
  cp "$DECK/grains_tp2.yaml" "$init/"
done
for rep in $(seq 1 "$REPEATS"); do
  for n in $SIZES; do
    init="$OUT/init_n$n"
    dir="$OUT/grains_n${n}_p${RANKS}_r${rep}"
    mpirun -n "$RANKS" "$BUILD/grains" run "$init/grains_tp2.yaml" --output "$dir" --overwrite \
      --set simulation.end_time="$TEND" --set simulation.dt="$GRAINS_DT" \
      --set solver.tolerance="$GRAINS_TOL" ${EXTRA:-} > "$dir.log" 2>&1 ||
      { echo "grains failed: $dir (see $dir.log)"; exit 1; }
    echo "done grains n=$n rep=$rep"
    dir="$OUT/liggghts_n${n}_p${RANKS}_r${rep}"
    mkdir -p "$dir"
    youngs="${YOUNGS:-$(/usr/bin/python3 -c "print(f'{1.2e8 * ($n / 1000) ** 1.7:.4g}')")}"
    ldt="${LIGGGHTS_DT:-$(/usr/bin/python3 -c "
import math
rho, nu = 6.28 / (4 / 3 * math.pi * 0.1**3), 0.3
shear = $youngs / (2 * (1 + nu))
print(f'{0.2 * math.pi * 0.1 * math.sqrt(rho / shear) / (0.1631 * nu + 0.8766):.3g}')")}"
    every=$(/usr/bin/python3 -c "print(max(1, round(0.01 / $ldt)))")  # thermo every 10 ms
    echo "$youngs $ldt" > "$dir/stiffness_and_dt.txt"
    (cd "$dir" && mpirun -n "$RANKS" liggghts -echo none -log log.liggghts \
      -var datafile "$init/tp2.data" -var youngs "$youngs" -var dt "$ldt" \
      -var tend "$TEND" -var every "$every" -in "$DECK/in.tp2" > stdout.txt 2>&1) ||
      { echo "liggghts failed: $dir (see $dir/stdout.txt)"; exit 1; }
    echo "done liggghts n=$n rep=$rep"
  done
done
/usr/bin/python3 "$ROOT/scripts/bench/summarize_vs_liggghts.py" "$OUT" | tee "$OUT/summary.txt"
