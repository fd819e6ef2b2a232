#!/usr/bin/env bash
# scripts/render/render_png.py on a real run: spheres, a capsule, an
# ellipsoid, a torus and a cylinder on a floor, with the contact network. The
# PNG must have the requested size, show the bodies (enough coloured pixels,
# several colours of the colour map, centred in a top view), and a wrong
# field must be refused with the list of fields. Exit 77 only if VTK's Python
# or an X server (xvfb-run) is missing.
# Usage: render_png_test.sh SOURCE_DIR GRAINS_BINARY
set -uo pipefail
SOURCE=$1
GRAINS=$2
PY=/usr/bin/python3
$PY -c "import vtk" 2>/dev/null || {
  echo "SKIPPED: python3-vtk9 is not installed"
  exit 77
}
[[ -n ${DISPLAY:-} ]] || command -v xvfb-run >/dev/null || {
  echo "SKIPPED: no X display and no xvfb-run (Debian packages xvfb, xauth)"
  exit 77
}
export OMP_NUM_THREADS=1
work=$(mktemp -d /tmp/grains_render.XXXXXX)
trap 'rm -rf "$work"' EXIT
"$GRAINS" run "$SOURCE/tests/render/five_shapes.yaml" --output "$work/run" -q || {
  echo "FAIL: the grains run failed"
  exit 1
}
render="$PY $SOURCE/scripts/render/render_png.py"
$render "$work/run" --output "$work/iso.png" --size 800x600 || exit 1
$render "$work/run" --step 5 --view top --color-by gid --no-walls --output "$work/top.png" \
  --size 640x640 || exit 1
if $render "$work/run" --color-by no_such_field --output "$work/x.png" 2>"$work/err.txt"; then
  echo "FAIL: an unknown field was accepted"
  exit 1
fi
grep -q "no point field 'no_such_field'; the bodies have: .*velocity" "$work/err.txt" || {
  echo "FAIL: unknown field message: $(cat "$work/err.txt")"
  exit 1
}
$PY - "$work" <<'PY'
import sys
import vtk
from vtk.util.numpy_support import vtk_to_numpy

def load(path):
    reader = vtk.vtkPNGReader()
    reader.SetFileName(path)
    reader.Update()
    image = reader.GetOutput()
    width, height, _ = image.GetDimensions()
    pixels = vtk_to_numpy(image.GetPointData().GetScalars()).reshape(height, width, -1)[:, :, :3]
    return width, height, pixels.astype(int)

failed = False
for name, size in (("iso.png", (800, 600)), ("top.png", (640, 640))):
    width, height, rgb = load(f"{sys.argv[1]}/{name}")
    # Coloured = saturated (the colour map), unlike the white background,
    # the grey floor and the black text.
    saturated = (rgb.max(axis=2) - rgb.min(axis=2)) > 60
    share = saturated.mean()
    hues = {tuple(p // 32) for p in rgb[saturated][::5]}
    rows, cols = saturated.nonzero()
    centre = (cols.mean() / width, 1 - rows.mean() / height) if len(rows) else (0, 0)
    print(f"{name}: {width}x{height}, {100 * share:.1f} % coloured, {len(hues)} colour bins, "
          f"centroid at ({centre[0]:.2f}, {centre[1]:.2f}) of the image")
    if (width, height) != size:
        print(f"FAIL: {name} is {width}x{height}, expected {size[0]}x{size[1]}")
        failed = True
    if share < 0.03 or len(hues) < 4:
        print(f"FAIL: {name} shows too little of the bodies")
        failed = True
    # The camera frames the bodies: they sit around the middle (the colour
    # bar on the right pulls the centroid a little to the right).
    if name == "top.png" and not (0.3 < centre[0] < 0.7 and 0.3 < centre[1] < 0.7):
        print(f"FAIL: {name}: the bodies are not in the middle of the picture")
        failed = True
sys.exit(1 if failed else 0)
PY
