"""pvbatch script: grains_view draws moving walls where they are at the
frame shown. The run (tests/render/rising_lid.yaml) has a lid rising at
0.2 m/s from z = 0.6 m and a still floor at z = 0; at each output time the
walls' top must be at 0.6 + 0.2 t (the floor's square lies at z = 0).
Usage: pvbatch check_moving_walls.py RUN_DIR SCRIPTS_DIR
"""
import sys

sys.path.insert(0, sys.argv[2])
import grains_view  # noqa: E402

view = grains_view.GrainsView(sys.argv[1], network=False, size=(320, 240))
failed = False
for t in view.times:
    view.show_time(t)
    bounds = view.walls.GetDataInformation().GetBounds()
    expected = 0.6 + 0.2 * t
    print(f"t = {t:.3f} s: walls span z {bounds[4]:.4f} .. {bounds[5]:.4f} (lid expected at "
          f"{expected:.4f})")
    if abs(bounds[5] - expected) > 1e-9 or abs(bounds[4]) > 1e-9:
        print("FAIL: the walls are not drawn where they are at this time")
        failed = True
if len(view.times) < 3:
    print(f"FAIL: {len(view.times)} output times, expected 3")
    failed = True
sys.exit(1 if failed else 0)
