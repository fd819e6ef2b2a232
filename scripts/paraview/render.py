"""Render one step of a grains run with ParaView: every body as its own
shape, coloured by a point field, the walls, the contact network as tubes
scaled by force and the time (grains_view.py). One PNG.

Usage: scripts/paraview/pvbatch.sh [-n RANKS] scripts/paraview/render.py RUN_DIR
           [--field FIELD] [--time T | --step-index I] [--view iso|top|front|side]
           [--size WxH] [--no-walls] [--no-network] [--output FILE.png]
(pvbatch.sh finds Debian's ParaView Python and a headless X; plain
`pvbatch render.py ...` works with any ParaView 5.11 or newer.)
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import grains_view  # noqa: E402 (beside this script)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("run_dir")
    parser.add_argument("--field", default="velocity")
    parser.add_argument("--time", type=float, help="physical time (default: the last step)")
    parser.add_argument("--step-index", type=int, help="index into the output steps (0 first, -1 last)")
    parser.add_argument("--view", default="iso", choices=sorted(grains_view.VIEWS))
    parser.add_argument("--size", default="1200x900")
    parser.add_argument("--no-walls", action="store_true")
    parser.add_argument("--no-network", action="store_true")
    parser.add_argument("--output")
    args = parser.parse_args()
    width, height = (int(v) for v in args.size.lower().split("x"))
    grains = grains_view.GrainsView(args.run_dir, field=args.field, walls=not args.no_walls,
                                    network=not args.no_network, size=(width, height))
    t = grains.times[-1]
    if args.time is not None:
        t = grains_view.nearest_time(grains.times, args.time)
    elif args.step_index is not None:
        t = grains.times[args.step_index]
    grains.show_time(t)
    grains.colour_range(*grains_view.point_array_range(grains.bodies, args.field))
    grains.frame(args.view, [t])
    grains.show_time(t)
    output = args.output or os.path.join(args.run_dir, "paraview.png")
    grains.save(output)
    print(f"wrote {output} (t = {t:g} s, {len(grains.times)} steps)")


main()
