#!/usr/bin/python3
"""What still moves in a settled sphere pile, from the VTK frames of a run
(docs/performance.md, "What keeps a settled pile from rest").

    rest_motion.py [--top 5] [--frames 1] [--structure] RUN_DIR [RUN_DIR ...]

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
With --structure, also a line on the pile's arrangement: the mean
coordination (spheres and walls touched, same gap rule) and, of the spheres
off the floor, the shares resting on none, one, two, and three or more
spheres below them (touching neighbours whose centre lies lower, along a
direction more than 0.1 below the horizontal).
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


def touch_slack(r):
    """The gap below which a sphere of radius r touches: max(1e-4 r, 2e-4 m)."""
    return np.maximum(1e-4 * r, 2e-4)


def touching_pairs(x, r):
    """Index pairs of spheres whose gap is below touch_slack of the larger radius."""
    from scipy.spatial import cKDTree
    reach = 2.0 * r.max() + touch_slack(r.max())
    pairs = np.array(sorted(cKDTree(x).query_pairs(reach)), dtype=int).reshape(-1, 2)
    i, j = pairs[:, 0], pairs[:, 1]
    gaps = np.linalg.norm(x[j] - x[i], axis=1) - r[i] - r[j]
    return pairs[gaps < touch_slack(np.maximum(r[i], r[j]))]


def structure(x, r, walls):
    """The structure line of --structure (module docstring)."""
    pairs = touching_pairs(x, r)
    coordination = np.zeros(len(x), dtype=int)
    below = np.zeros(len(x), dtype=int)
    np.add.at(coordination, pairs.ravel(), 1)
    i, j = pairs[:, 0], pairs[:, 1]
    d = x[j] - x[i]
    rise = d[:, 2] / np.linalg.norm(d, axis=1)
    np.add.at(below, i[rise < -0.1], 1)
    np.add.at(below, j[rise > 0.1], 1)
    on_floor = np.zeros(len(x), dtype=bool)
    for k in range(len(x)):
        on = walls_touched(x[k], r[k], walls, touch_slack(r[k]))
        coordination[k] += len(on)
        on_floor[k] = "floor" in on
    up = below[~on_floor]
    shares = [np.mean(up == 0), np.mean(up == 1), np.mean(up == 2), np.mean(up >= 3)] \
        if len(up) else [0.0] * 4
    return (f"    structure: mean coordination {coordination.mean():.2f}; of the {len(up)} "
            f"spheres off the floor {shares[1]:.0%} rest on one sphere below, {shares[2]:.0%} "
            f"on two, {shares[3]:.0%} on three or more, {shares[0]:.0%} on none")


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--top", type=int, default=5)
    parser.add_argument("--frames", type=int, default=1)
    parser.add_argument("--structure", action="store_true")
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
            of_total = total if total > 0 else 1.0  # a still pile's shares: 0 %
            order = np.argsort(-energy)
            print(f"{run}, t = {time:g} s: KE {total:.3g} J, rotational {rotational.sum() / of_total:.0%}, "
                  f"ten most energetic spheres {energy[order[:10]].sum() / of_total:.0%}; median speed "
                  f"{np.median(np.linalg.norm(v, axis=1)):.2g} m/s, median vertical velocity "
                  f"{np.median(v[:, 2]):.2g} m/s")
            if args.structure:
                print(structure(x, r, walls))
            for k in order[:args.top]:
                slack = touch_slack(r[k])
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
                      f"{', '.join(on)}  KE share {energy[k] / of_total:.0%}  {kind}")


if __name__ == "__main__":
    sys.exit(main())
