#!/usr/bin/env bash
# grains against LIGGGHTS on frictional piles (docs/performance.md, "grains
# against LIGGGHTS"): Heyn et al. (2013), Test Problem 2 -- N spheres of r = 0.1 m,
# m = 6.28 kg on a jittered lattice fall into a cylinder of radius 2 m and come
# to rest -- at each Coulomb friction coefficient mu (pairs, floor and cylinder
# alike) and each N, both codes starting from the same initial state
# (liggghts/make_tp2_initial.py) on the same machine, same MPI ranks, one
# OpenMP thread.
#
#   scripts/bench/vs_liggghts.sh [REPEATS=2] [RANKS=1]
#
# e.g. the whole matrix, three repeats, one rank:
#   BENCH_OUT=/tmp/vs scripts/bench/vs_liggghts.sh 3 1
# or a quick end-to-end check:
#   SIZES=1000 TEND=3 BENCH_OUT=/tmp/vs_small scripts/bench/vs_liggghts.sh 1 1
#
# Env: SIZES  (default "1000 2000 4000")  MUS (default "0.3 0.5")
#      TEND   (simulated time, default 6 s)
#      GRAINS_DT (default 0.02)  GRAINS_TOL (APGD tolerance, default 1e-4)
#      EXTRA  (extra grains arguments, e.g. "--set solver.name=bbpgd")
#      ROLLING (rolling and spinning resistance coefficient on both sides,
#             default 0: none; grains contact.rolling_friction and
#             spinning_friction, LIGGGHTS ROLLING_MODEL with torsionTorque on;
#             use another BENCH_OUT for such runs)
#      ROLLING_MODEL (LIGGGHTS rolling_friction model when ROLLING > 0,
#             default epsd2: elastic-plastic, holds a static torque up to the
#             bound as grains' does; cdt: a constant torque opposing rolling)
#      LIGGGHTS_DT, YOUNGS (default: the per-N rule below)
#      YOUNGS_FACTORS ("mu:factor ...", default none: the per-N rule times
#             factor at that mu, e.g. "0.5:1.2"; dt follows E; "0.3:31.6
#             0.5:37.9" holds LIGGGHTS to grains' 0.1 % of r, a Hertz overlap
#             going as E^(-2/3))
#      GRAINS (the grains binary, default $GRAINS_BUILD_DIR/grains, build/grains)
#      BENCH_OUT (default output/bench-vs-liggghts)
#
# The contact laws are the same on both sides: Coulomb sliding friction mu, no
# rolling or spinning resistance, no cohesion (liggghts/in.tp2 says so
# explicitly); with ROLLING > 0 both sides add rolling and spinning
# resistance bounded by ROLLING * R* * N (R* the reduced radius: r/2 between
# spheres, r at a wall; grains bounds the rolling and the spinning torque by
# that each, LIGGGHTS the torque of the whole relative rotation).
# Accuracy is held to the usual rule on each side:
# * LIGGGHTS (liggghts/in.tp2, Hertz-Mindlin with tangential history,
#   restitution 0.1) is stiffened so that its overlap at rest stays <= 1 % of r
#   at its usual time step: the load at the bottom of the pile grows with N and
#   a Hertz overlap with (F/E)^(2/3), so E would grow like N; measured at
#   mu = 0.3, E = 1.2e8 Pa (N / 1000) gave 0.90, 1.15 and 1.56 % at N = 1000,
#   2000, 4000 (deeper piles also land harder), hence E = 1.2e8 Pa
#   (N / 1000)^1.7 (1.2, 3.9 and 12.7 * 1e8 Pa), and dt = 20 % of the Rayleigh
#   time pi r sqrt(rho/G) / (0.1631 nu + 0.8766). The same rule at every mu
#   unless YOUNGS_FACTORS says otherwise. At mu = 0.5 the overlap at rest
#   (single 3-s runs) was 1.03 % at N = 1000 (0.97 % sphere-sphere, 1.03 %
#   floor; 1.01 % with E x 1.1, 0.91 % with E x 1.2: the largest static
#   overlap depends on the packing, 5-10 % between trajectories) and 0.86 % at
#   N = 2000 (0.81 % at mu = 0.3); the summary names every run above 1 %.
# * grains (liggghts/grains_tp2.yaml: ReLCP without the adaptive envelope) at
#   its overlap tolerance 1e-4 m = 0.1 % of r, mu via --set contact.mu.
#
# Runs are interleaved because the machines here are noisy: for each repeat,
# every (N, mu) case runs grains then LIGGGHTS side by side (grains, LIGGGHTS,
# grains, LIGGGHTS, ...). Directories: $BENCH_OUT/<code>_n<N>_mu<mu>_p<ranks>_r<rep>.
# summarize_vs_liggghts.py then reports, per (N, mu, code), two rest criteria:
#   A: total kinetic energy (translational + rotational) <= 1e-4 N m g r from
#      then on to the end of the run (the criterion of the earlier tables),
#   B: total kinetic energy <= 1e-5 of the run's own peak from then on (each
#      code's peak as sampled: grains every step, LIGGGHTS every 10 ms; both
#      peak near t = 0.4 s, grains' lower as its perfectly inelastic hard
#      contacts stop landing spheres at once: N = 1000, 7,200 J against 8,410 J);
# for each the physical time and the wall time to rest (grains: sum of
# metrics.csv's wall_s; LIGGGHTS: its thermo CPU column; set-up excluded),
# median and minimum over repeats, and the ratios LIGGGHTS / grains of the
# median wall times; runs that never rest are reported as such. Also the
# overlap at rest, grains' APGD iterations per step from the first step to
# rest A (the impact phase: the wall time to rest is spent there; free fall
# included, a few steps) and after it (at rest),
# and the median sphere speed in the final state (grains writes one VTK frame
# at the end for it, outside the timed steps; LIGGGHTS dumps velocities after
# its run). Markdown table in $BENCH_OUT/summary.md. A run that fails is
# marked (<dir>/FAILED), listed by the summary and left out of it; the other
# runs go on.
# Needs the Debian package liggghts, WITHOUT recommends (they remove libvtk9-dev):
#   apt-get install -y --no-install-recommends liggghts
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD="${GRAINS_BUILD_DIR:-$ROOT/build}"
GRAINS="${GRAINS:-$BUILD/grains}"
DECK="$ROOT/scripts/bench/liggghts"
REPEATS="${1:-2}"
RANKS="${2:-1}"
SIZES="${SIZES:-1000 2000 4000}"
MUS="${MUS:-0.3 0.5}"
TEND="${TEND:-6.0}"
GRAINS_DT="${GRAINS_DT:-0.02}"
GRAINS_TOL="${GRAINS_TOL:-1e-4}"
ROLLING="${ROLLING:-0}"
ROLLING_MODEL="${ROLLING_MODEL:-epsd2}"
if /usr/bin/python3 -c "import sys; sys.exit(0 if float('$ROLLING') > 0 else 1)"; then
  grains_rolling=(--set contact.rolling_friction="$ROLLING"
                  --set contact.spinning_friction="$ROLLING")
  liggghts_rolling=(-var rolling "$ROLLING" -var rmodel "$ROLLING_MODEL")
else
  grains_rolling=()
  liggghts_rolling=()
fi
OUT="${BENCH_OUT:-$ROOT/output/bench-vs-liggghts}"
command -v liggghts > /dev/null ||
  { echo "liggghts not found: apt-get install -y --no-install-recommends liggghts"; exit 1; }
[[ -x "$GRAINS" ]] || { echo "grains binary not found: $GRAINS (set GRAINS or GRAINS_BUILD_DIR)"; exit 1; }
source "$ROOT/scripts/env.sh"
export OMP_NUM_THREADS=1
mkdir -p "$OUT"
# settle_initial_state, and final_frame_only: one VTK frame at the end of each
# grains run (plus the initial one), for the final sphere speeds; frames are
# written outside the timed step.
source "$ROOT/scripts/bench/settle_run.sh"
for n in $SIZES; do settle_initial_state "$n" "$OUT/init_n$n"; done
for rep in $(seq 1 "$REPEATS"); do
  for n in $SIZES; do
    init="$OUT/init_n$n"
    for mu in $MUS; do
      youngs="${YOUNGS:-$(/usr/bin/python3 -c "
factors = dict(pair.split(':') for pair in '${YOUNGS_FACTORS:-}'.split())
factor = float(factors.get('$mu', 1.0))
print(f'{1.2e8 * ($n / 1000) ** 1.7 * factor:.4g}')")}"
      ldt="${LIGGGHTS_DT:-$(/usr/bin/python3 -c "
import math
rho, nu = 6.28 / (4 / 3 * math.pi * 0.1**3), 0.3
shear = $youngs / (2 * (1 + nu))
print(f'{0.2 * math.pi * 0.1 * math.sqrt(rho / shear) / (0.1631 * nu + 0.8766):.3g}')")}"
      every=$(/usr/bin/python3 -c "print(max(1, round(0.01 / $ldt)))")  # thermo every 10 ms
      dir="$OUT/grains_n${n}_mu${mu}_p${RANKS}_r${rep}"
      # shellcheck disable=SC2086  # EXTRA is a list of arguments
      mpirun -n "$RANKS" "$GRAINS" run "$init/grains_tp2.yaml" --output "$dir" --overwrite \
        --set simulation.end_time="$TEND" --set simulation.dt="$GRAINS_DT" \
        --set solver.tolerance="$GRAINS_TOL" --set contact.mu="$mu" \
        --set output.vtk_every="$final_frame_only" "${grains_rolling[@]}" ${EXTRA:-} \
        > "$dir.log" 2>&1 ||
        { echo "grains failed: $dir (see $dir.log)"; mkdir -p "$dir"; touch "$dir/FAILED"; }
      echo "done grains n=$n mu=$mu rep=$rep"
      dir="$OUT/liggghts_n${n}_mu${mu}_p${RANKS}_r${rep}"
      mkdir -p "$dir"
      echo "youngs $youngs dt $ldt mu $mu rolling $ROLLING" > "$dir/parameters.txt"
      (cd "$dir" && mpirun -n "$RANKS" liggghts -echo none -log log.liggghts \
        -var datafile "$init/tp2.data" -var youngs "$youngs" -var dt "$ldt" -var mu "$mu" \
        -var tend "$TEND" -var every "$every" "${liggghts_rolling[@]}" -in "$DECK/in.tp2" \
        > stdout.txt 2>&1) ||
        { echo "liggghts failed: $dir (see $dir/stdout.txt)"; touch "$dir/FAILED"; }
      echo "done liggghts n=$n mu=$mu rep=$rep"
    done
  done
done
/usr/bin/python3 "$ROOT/scripts/bench/summarize_vs_liggghts.py" "$OUT" | tee "$OUT/summary.md"
