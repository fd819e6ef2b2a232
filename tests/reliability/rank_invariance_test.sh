#!/usr/bin/env bash
# Rank and thread invariance (docs/reliability.md): the default demo's first
# 300 steps give the same metrics.csv, bit for bit (every column but the
# wall-clock times and the partition statistics), on 1 rank with 1 and 2
# threads and on 2, 3 and 4 ranks; a run restarted on 3 ranks from a 1-rank
# checkpoint continues bit for bit; bbpgd's first 150 steps agree on 1 and 3
# ranks (with contact.lift_correction on 1, 2 and 3 ranks), and so do a
# ReLCP ellipsoid compaction, a growing colony (also when
# their 1-rank checkpoints continue on 2 ranks) and two periodic boxes (a
# sheared bed of spheres, the colony periodic in x and y). With parallel.reproducible: false the
# 2-rank run must part from the 1-rank run (so the comparison can tell).
# Usage: rank_invariance_test.sh SOURCE_DIR GRAINS_BINARY MPIEXEC
set -uo pipefail
SOURCE=$1
GRAINS=$2
MPIEXEC=$3
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
COMPARE="python3 $(dirname "$0")/compare_metrics.py"
work=$(mktemp -d /tmp/grains_ranks.XXXXXX)
trap 'rm -rf "$work"' EXIT
failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

# run NAME RANKS THREADS [grains run arguments...]
run() {
  local name=$1 np=$2 threads=$3
  shift 3
  OMP_NUM_THREADS=$threads "$MPIEXEC" -np "$np" --oversubscribe -x OMP_NUM_THREADS "$GRAINS" \
    run "$SOURCE/config/demo_settle.yaml" --output "$work/$name" -q \
    --set output.vtk_every=0 "$@" || fail "run $name ($np ranks, $threads threads) failed"
}

run reference 1 1 --steps 300 --set output.checkpoint_every=150
run threads2 1 2 --steps 300
for np in 2 3 4; do run "ranks$np" "$np" 1 --steps 300; done
for name in threads2 ranks2 ranks3 ranks4; do
  $COMPARE "$work/reference/metrics.csv" "$work/$name/metrics.csv" || fail "$name differs"
done

# A restart on another rank count continues bit for bit.
run restarted 3 1 --steps 300 --restart "$work/reference/checkpoint_00000150.h5"
$COMPARE "$work/reference/metrics.csv" "$work/restarted/metrics.csv" 151 ||
  fail "the 3-rank restart of the 1-rank checkpoint differs"

# The sliding-lift correction's shifts are per contact, from reproducible
# products: the same bits on 1, 2 and 3 ranks.
for np in 1 2 3; do run "lift$np" "$np" 1 --steps 150 --set contact.lift_correction=3; done
for np in 2 3; do
  $COMPARE "$work/lift1/metrics.csv" "$work/lift$np/metrics.csv" || fail "lift_correction on $np ranks differs"
done
# bbpgd: its Barzilai-Borwein quotients are reproducible sums too.
run bbpgd1 1 1 --steps 150 --set solver.name=bbpgd
run bbpgd3 3 1 --steps 150 --set solver.name=bbpgd
$COMPARE "$work/bbpgd1/metrics.csv" "$work/bbpgd3/metrics.csv" || fail "bbpgd on 3 ranks differs"

# ReLCP ellipsoids (150 in a compaction field, bbpgd) and a growing colony of
# spherocylinders (to 32 cells, bbpgd) on 1 and 3 ranks.
scenario() {
  local name=$1 np=$2 config=$3
  shift 3
  OMP_NUM_THREADS=1 "$MPIEXEC" -np "$np" --oversubscribe -x OMP_NUM_THREADS "$GRAINS" run \
    "$SOURCE/config/$config" --output "$work/$name" -q --set output.vtk_every=0 "$@" 2>/dev/null ||
    fail "run $name ($np ranks) failed"
}
relcp=(--set bodies.volume_fraction=0.03 --set bodies.generator.count=150 --set simulation.dt=0.05)
scenario relcp1 1 relcp_compaction.yaml --steps 200 "${relcp[@]}" --set output.checkpoint_every=100
scenario relcp3 3 relcp_compaction.yaml --steps 200 "${relcp[@]}"
scenario colony1 1 colony.yaml --steps 400 --set solver.name=bbpgd --set output.checkpoint_every=200
scenario colony3 3 colony.yaml --steps 400 --set solver.name=bbpgd
$COMPARE "$work/relcp1/metrics.csv" "$work/relcp3/metrics.csv" || fail "ReLCP on 3 ranks differs"
$COMPARE "$work/colony1/metrics.csv" "$work/colony3/metrics.csv" || fail "the colony on 3 ranks differs"
# Their 1-rank checkpoints continued on 2 ranks.
scenario relcp_restarted 2 relcp_compaction.yaml --steps 200 "${relcp[@]}" \
  --restart "$work/relcp1/checkpoint_00000100.h5"
$COMPARE "$work/relcp1/metrics.csv" "$work/relcp_restarted/metrics.csv" 101 ||
  fail "the 2-rank restart of the ReLCP run differs"
scenario colony_restarted 2 colony.yaml --steps 400 --set solver.name=bbpgd \
  --restart "$work/colony1/checkpoint_00000200.h5"
$COMPARE "$work/colony1/metrics.csv" "$work/colony_restarted/metrics.csv" 201 ||
  fail "the 2-rank restart of the colony differs"

# Periodic boxes: the sheared bed (spheres, periodic in x and y, 2 threads on
# 1 rank against 3 ranks) and the colony in a 10 x 10 box periodic in x and y,
# whose chains of rods meet themselves through the faces.
OMP_NUM_THREADS=2 "$MPIEXEC" -np 1 -x OMP_NUM_THREADS "$GRAINS" run \
  "$SOURCE/config/shear_periodic.yaml" --output "$work/shear1" -q --set output.vtk_every=0 ||
  fail "run shear1 failed"
scenario shear3 3 shear_periodic.yaml
$COMPARE "$work/shear1/metrics.csv" "$work/shear3/metrics.csv" || fail "the periodic shear on 3 ranks differs"
for np in 1 3; do
  scenario "pcolony$np" "$np" colony.yaml --steps 400 --set solver.name=bbpgd \
    --set 'domain.min=[-5,-5,-1]' --set 'domain.max=[5,5,1]' --set 'domain.periodic=[x,y]'
done
$COMPARE "$work/pcolony1/metrics.csv" "$work/pcolony3/metrics.csv" ||
  fail "the periodic colony on 3 ranks differs"

# Ordinary sums: the ranks' partial body sums add in another order.
run ordinary2 2 1 --steps 300 --set parallel.reproducible=false
if $COMPARE "$work/reference/metrics.csv" "$work/ordinary2/metrics.csv" >/dev/null; then
  fail "with parallel.reproducible: false the 2-rank run still matches 1 rank bit for bit"
fi

if [ "$failures" -ne 0 ]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "rank and thread invariance: all runs identical"
