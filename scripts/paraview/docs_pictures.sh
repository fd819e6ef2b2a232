#!/usr/bin/env bash
# Makes the ParaView pictures of docs/visualisation.md (docs/img/paraview/)
# with the scripts beside this one, from fresh runs:
#   shapes.png     render.py: the five shapes on a floor, contact tubes
#   demo.png       render.py: the settled demo pile (1000 spheres, 2 ranks)
#   demo_ranks.png the same run opened by pvbatch on 2 ranks, coloured by rank
#   chainmail.png  render.py: interlaced rings (relcp_chainmail.yaml), top view
#   movie.png      three frames of animate.py on the demo run's first 1.2 s
#   gui.png        the ParaView GUI after the grains_view macro on the demo run
# Needs a built grains (build/grains), ParaView (scripts/install-deps.sh) and,
# for the last two, xwd and ImageMagick (Debian: x11-apps, imagemagick).
# Usage: scripts/paraview/docs_pictures.sh [WORK_DIR]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
GRAINS="${GRAINS_BUILD_DIR:-$ROOT/build}/grains"
PV="$ROOT/scripts/paraview/pvbatch.sh"
OUT="$ROOT/docs/img/paraview"
work=${1:-$(mktemp -d /tmp/grains_pictures.XXXXXX)}
mkdir -p "$OUT" "$work"
source "$ROOT/scripts/env.sh"
export OMP_NUM_THREADS=1

# The five shapes: the scene of the picture tests, 40 steps.
"$GRAINS" run "$ROOT/tests/render/five_shapes.yaml" --steps 40 --output "$work/shapes" --overwrite -q
"$PV" "$ROOT/scripts/paraview/render.py" "$work/shapes" --size 1000x700 --output "$OUT/shapes.png"

mpirun -n 2 "$GRAINS" run "$ROOT/config/demo_settle.yaml" --set output.contact_network=true \
  --output "$work/demo" --overwrite -q
"$PV" "$ROOT/scripts/paraview/render.py" "$work/demo" --field num_contacts \
  --size 1000x800 --output "$OUT/demo.png"
"$PV" -n 2 "$ROOT/scripts/paraview/render.py" "$work/demo" --field rank --no-network \
  --size 1000x800 --output "$OUT/demo_ranks.png"

"$GRAINS" run "$ROOT/config/relcp_chainmail.yaml" --steps 200 --set output.vtk_every=100 \
  --output "$work/chainmail" --overwrite -q
"$PV" "$ROOT/scripts/paraview/render.py" "$work/chainmail" --field gid --view top \
  --size 1000x900 --output "$OUT/chainmail.png"

"$PV" "$ROOT/scripts/paraview/animate.py" "$work/demo" --end 1.2 --size 640x480 \
  --output-dir "$work/movie"
frames=("$work"/movie/frame_*.png)
convert "${frames[0]}" "${frames[${#frames[@]} / 2]}" "${frames[-1]}" +append "$OUT/movie.png"

# The GUI: open bodies.pvd, run the macro, grab the screen.
cat >"$work/gui.py" <<PY
from paraview import simple as pv
pv.SetActiveSource(pv.PVDReader(registrationName="bodies.pvd", FileName="$work/demo/bodies.pvd"))
macro = "$ROOT/scripts/paraview/grains_view.py"
exec(compile(open(macro).read(), macro, "exec"), {"__name__": "__main__"})
PY
export PYTHONPATH="${GRAINS_PARAVIEW_DIR:-/opt/grains/paraview}/usr/lib/python3/dist-packages"
xvfb-run -a -n $((100 + RANDOM % 5000)) -s "-screen 0 1400x900x24" bash -c "
  paraview --script='$work/gui.py' >'$work/gui.log' 2>&1 &
  sleep 40
  xwd -root -silent >'$work/gui.xwd'
  kill %1"
# The window without the empty screen around it.
convert "$work/gui.xwd" -bordercolor black -border 1 -trim +repage "$OUT/gui.png"
ls -l "$OUT"
