#!/usr/bin/env bash
# scripts/plot on real output: two short runs (different solvers) give
# metrics.csv files for metrics.py; a stored QP solved by two solvers gives
# histories for solver_history.py; colony.py plots the runs too. Each image
# must exist, have the expected size and hold drawn lines (enough non-white
# pixels in several colours). Exit 77 only if matplotlib is missing.
# Usage: plot_scripts_test.sh SOURCE_DIR GRAINS_BINARY
set -uo pipefail
SOURCE=$1
GRAINS=$2
PY=/usr/bin/python3
$PY -c "import matplotlib" 2>/dev/null || {
  echo "SKIPPED: python3-matplotlib is not installed"
  exit 77
}
export OMP_NUM_THREADS=1
work=$(mktemp -d /tmp/grains_plot.XXXXXX)
trap 'rm -rf "$work"' EXIT
cat >"$work/pile.yaml" <<'YAML'
simulation: {dt: 0.005, steps: 40}
bodies:
  radius: 0.1
  mass: 1.0
  generator: {type: lattice, count: 27, spacing: 0.22, jitter: 0.5,
              region: {type: box, min: [0, 0, 0], max: [0.66, 0.66, 0.66]}}
walls: [{type: plane, point: [0, 0, 0], normal: [0, 0, 1]}]
contact: {friction: coulomb, mu: 0.3}
solver: {name: apgd, tolerance: 1.0e-8}
output: {log_every: 0}
YAML
set -e
"$GRAINS" run "$work/pile.yaml" --output "$work/apgd" --export-qp 30 "$work/qp" -q
"$GRAINS" run "$work/pile.yaml" --output "$work/bbpgd" --set solver.name=bbpgd -q
for solver in apgd bbpgd; do
  "$GRAINS" qp solve "$work/qp/step_30" --solver "$solver" --tolerance 1e-10 \
    --history "$work/$solver.csv" >/dev/null
done
$PY "$SOURCE/scripts/plot/metrics.py" "$work/apgd/metrics.csv" "$work/bbpgd/metrics.csv" \
  --out "$work/metrics.png"
$PY "$SOURCE/scripts/plot/metrics.py" "$work/apgd/metrics.csv" --columns max_overlap,wall_s \
  --out "$work/metrics.pdf"
$PY "$SOURCE/scripts/plot/solver_history.py" "$work/apgd.csv" "$work/bbpgd.csv" \
  --out "$work/history.png"
$PY "$SOURCE/scripts/plot/colony.py" "$work/apgd/metrics.csv" --out "$work/colony.png"
set +e
if $PY "$SOURCE/scripts/plot/metrics.py" "$work/apgd/metrics.csv" --columns no_such \
  --out "$work/x.png" 2>"$work/err.txt"; then
  echo "FAIL: an unknown column was accepted"
  exit 1
fi
grep -q "no column(s) no_such" "$work/err.txt" || {
  echo "FAIL: unknown column message: $(cat "$work/err.txt")"
  exit 1
}
head -c 5 "$work/metrics.pdf" | grep -q "%PDF-" || {
  echo "FAIL: metrics.pdf is not a PDF"
  exit 1
}
$PY - "$work" <<'PY'
import sys
import matplotlib.image as mpimg
work = sys.argv[1]
expected = {"metrics.png": (748, 1210), "history.png": (770, 1210), "colony.png": (440, 1100)}
failed = False
for name, (height, width) in expected.items():
    image = mpimg.imread(f"{work}/{name}")[:, :, :3]
    drawn = (image < 0.9).any(axis=2)
    colours = {tuple((p * 8).astype(int)) for p in image[drawn][::7]}
    share = drawn.mean()
    print(f"{name}: {image.shape[1]}x{image.shape[0]} px, {100 * share:.1f} % drawn, "
          f"{len(colours)} colour bins")
    if image.shape[:2] != (height, width):
        print(f"FAIL: {name} is {image.shape[1]}x{image.shape[0]}, expected {width}x{height}")
        failed = True
    if share < 0.03 or len(colours) < 4:
        print(f"FAIL: {name} looks empty")
        failed = True
sys.exit(1 if failed else 0)
PY
