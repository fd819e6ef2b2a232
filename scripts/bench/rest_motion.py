#!/usr/bin/python3
"""What still moves in a settled sphere pile, from the VTK frames of a run
(docs/performance.md, "What keeps a settled pile from rest").

    rest_motion.py [--top 5] [--frames 1] RUN_DIR [RUN_DIR ...]

For each `grains run` output directory (spheres of one mass, as in the
settle benchmark; `bodies.mass` from config_used.yaml) and each of its last
--frames VTK frames, prints:
* the kinetic energy, its rotational share, and the share held by the ten
  bodies with the most kinetic energy;
* the median sphere speed and the median vertical velocity (negative: the
  pile sinks as a whole, a creep rather than a jitter);
* for the --top most energetic spheres: height, speed, angular speed, the
  alignment of the spin axis with the vertical, and the spheres and walls
  they touch (gap below 2e-4 m or 1e-4 of the radius, whichever is
  larger): "floor spinner" for a sphere on the floor whose spin is within 10
  degrees of vertical, "held by 2" for a sphere touching only two bodies,
  which can turn about the line through its two contact points without
  slipping at either, "rolls on the floor" for one that touches nothing else.
"""
import argparse
import os
import sys

import numpy as np
import yaml
from vtkmodules.util.numpy_support import vtk_to_numpy

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from summarize_vs_liggghts import read_vtk_frame, vtk_frames  # noqa: E402


def read(file):
    data = read_vtk_frame(file)  # VTK's Python is present: imported above
    point = data.GetPointData()
    arrays = {name: vtk_to_numpy(point.GetArray(name))
              for name in ("gid", "radius", "velocity", "angular_velocity")}
    order = np.argsort(arrays["gid"])
    arrays = {name: values[order] for name, values in arrays.items()}
    arrays["x"] = vtk_to_numpy(data.GetPoints().GetData())[order]
    return arrays


def walls_touched(x, r, walls, slack):
    """Names of the planes and cylinders of config_used.yaml that x touches."""
    touched = []
    for wall in walls:
        if wall.get("type") == "plane":
            normal = np.asarray(wall["normal"], float)
            normal /= np.linalg.norm(normal)
            gap = (x - np.asarray(wall["point"], float)) @ normal - r
        elif wall.get("type") == "cylinder" and wall.get("side", "inside") == "inside":
            axis = np.asarray(wall["axis"], float)
            axis /= np.linalg.norm(axis)
            d = x - np.asarray(wall["point"], float)
            gap = wall["radius"] - np.linalg.norm(d - (d @ axis) * axis) - r
        else:
            continue
        if gap < slack:
            touched.append(wall.get("name", wall["type"]))
    return touched


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--top", type=int, default=5)
    parser.add_argument("--frames", type=int, default=1)
    parser.add_argument("runs", nargs="+")
    args = parser.parse_args()
    for run in args.runs:
        with open(os.path.join(run, "config_used.yaml")) as f:
            config = yaml.safe_load(f)
        mass = float(config["bodies"]["mass"])
        walls = config.get("walls") or []
        for time, file in vtk_frames(run)[-args.frames:]:
            b = read(file)
            x, r, v, w = b["x"], b["radius"], b["velocity"], b["angular_velocity"]
            inertia = 0.4 * mass * r * r
            translational = 0.5 * mass * (v * v).sum(1)
            rotational = 0.5 * inertia * (w * w).sum(1)
            energy = translational + rotational
            total = energy.sum()
            order = np.argsort(-energy)
            print(f"{run}, t = {time:g} s: KE {total:.3g} J, rotational {rotational.sum() / total:.0%}, "
                  f"ten most energetic spheres {energy[order[:10]].sum() / total:.0%}; median speed "
                  f"{np.median(np.linalg.norm(v, axis=1)):.2g} m/s, median vertical velocity "
                  f"{np.median(v[:, 2]):.2g} m/s")
            for k in order[:args.top]:
                slack = max(1e-4 * r[k], 2e-4)
                gaps = np.linalg.norm(x - x[k], axis=1) - r - r[k]
                gaps[k] = np.inf
                touching = int((gaps < slack).sum())
                on = walls_touched(x[k], r[k], walls, slack)
                spin = np.linalg.norm(w[k])
                vertical = abs(w[k, 2]) / spin if spin > 0 else 0.0
                kind = ""
                if "floor" in on and vertical > np.cos(np.radians(10)):
                    kind = "floor spinner"
                elif touching + len(on) == 2:
                    kind = "held by 2"
                elif touching == 0 and on == ["floor"]:
                    kind = "rolls on the floor"
                print(f"    z {x[k, 2]:.3f} m  |v| {np.linalg.norm(v[k]):.2g} m/s  |w| {spin:.2g} rad/s  "
                      f"|w_z|/|w| {vertical:.2f}  touches {touching} spheres{' + ' if on else ''}"
                      f"{', '.join(on)}  KE share {energy[k] / total:.0%}  {kind}")


if __name__ == "__main__":
    sys.exit(main())
