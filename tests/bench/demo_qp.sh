# Sourced by the tests of the solver laboratory's scripts: the contact QP of
# step 150 of the demo with Coulomb friction alone (1000 spheres falling onto
# the floor; rolling and spinning resistance off), exported by
# `grains run --export-qp`. Sets src, grains, work (removed on exit) and qp,
# and defines objective DIR SOLVER: the optimum SOLVER reaches on DIR at 1e-9.
# usage: source demo_qp.sh SOURCE_DIR GRAINS
set -euo pipefail
src=$1
grains=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMP_NUM_THREADS=1

"$grains" run "$src/config/demo_settle.yaml" --steps 150 --output "$work/run" \
  --set contact.rolling_friction=0 --set contact.spinning_friction=0 \
  --export-qp 150 "$work/qp" -q
qp=$work/qp/step_150

objective() {  # DIR SOLVER -> the objective column of the summary row
  "$grains" qp solve "$1" --solver "$2" --tolerance 1e-9 --max-iterations 20000 |
    tail -n 1 | cut -d, -f4
}
