#!/usr/bin/python3
"""scripts/bench/rest_motion.py on a synthetic run directory with known
answers: one frame of six spheres (r = 0.1 m, m = 2 kg, so I = 0.008 kg m²)
written here as VTK XML PolyData, with a floor plane and a cylinder wall in
config_used.yaml:
* a floor sphere spinning about the vertical at 5 rad/s (KE 0.1 J):
  "floor spinner";
* a sphere pinched between two resting neighbours on opposite sides,
  turning at 3 rad/s about that line (KE 0.036 J): "held by 2";
* a floor sphere touching nothing else, rolling at 0.2 m/s (KE
  0.04 + 0.016 J): "rolls on the floor";
* a resting sphere against the cylinder wall (no kinetic energy).
Checks the totals, the shares, the medians and each sphere's line.
Then --structure on a frame of five spheres at rest: one on top of a floor
sphere (one support below), one on two floor spheres that touch each other
(two supports): mean coordination 11/5, half of the two spheres off the
floor on one sphere, half on two.
usage: rest_motion_test.py SOURCE_DIR"""
import os
import re
import subprocess
import sys
import tempfile

import numpy as np
from vtkmodules.util.numpy_support import numpy_to_vtk
from vtkmodules.vtkCommonCore import vtkPoints
from vtkmodules.vtkCommonDataModel import vtkPolyData
from vtkmodules.vtkIOXML import vtkXMLPolyDataWriter

R, M = 0.1, 2.0
CONFIG = f"""bodies:
  shape: sphere
  radius: {R}
  mass: {M}
walls:
  - {{type: plane, name: floor, point: [0, 0, 0], normal: [0, 0, 1]}}
  - {{type: cylinder, name: container, side: inside, point: [0, 0, 0], axis: [0, 0, 1], radius: 2}}
"""


def write_frame(path, x, v, w):
    data = vtkPolyData()
    points = vtkPoints()
    points.SetData(numpy_to_vtk(np.ascontiguousarray(x), deep=True))
    data.SetPoints(points)
    arrays = {"gid": np.arange(len(x), dtype=np.int64), "radius": np.full(len(x), R),
              "velocity": v, "angular_velocity": w}
    for name, values in arrays.items():
        array = numpy_to_vtk(np.ascontiguousarray(values), deep=True)
        array.SetName(name)
        data.GetPointData().AddArray(array)
    writer = vtkXMLPolyDataWriter()
    writer.SetFileName(path)
    writer.SetInputData(data)
    writer.Write()


def write_run(run, frames):
    """A run directory with config_used.yaml and frames [(time, x, v, w)]."""
    with open(os.path.join(run, "config_used.yaml"), "w") as f:
        f.write(CONFIG)
    os.makedirs(os.path.join(run, "vtk"))
    entries = []
    for step, (time, x, v, w) in enumerate(frames):
        name = f"vtk/bodies_{step:06d}.vtp"
        write_frame(os.path.join(run, name), x, v, w)
        entries.append(f'    <DataSet timestep="{time}" file="{name}"/>\n')
    with open(os.path.join(run, "bodies.pvd"), "w") as f:
        f.write('<?xml version="1.0"?>\n<VTKFile type="Collection" version="0.1">\n'
                '  <Collection>\n' + "".join(entries) + '  </Collection>\n</VTKFile>\n')


def structure_check(source):
    """--structure on a small stack with known coordination and supports."""
    s3 = np.sqrt(3.0)
    x = np.array([[-1.0, 0.0, R],               # A on the floor, B on it
                  [-1.0, 0.0, 3 * R],           # B: one sphere below
                  [0.0, 0.0, R],                # D on the floor
                  [2 * R + 1e-5, 0.0, R],       # E on the floor, touching D
                  [R + 5e-6, 0.0, R + s3 * R]])  # C on D and E: two below
    still = np.zeros((5, 3))
    with tempfile.TemporaryDirectory() as run:
        write_run(run, [(1.0, x, still, still)])
        done = subprocess.run(["/usr/bin/python3",
                               os.path.join(source, "scripts", "bench", "rest_motion.py"),
                               "--structure", "--top", "0", run], capture_output=True, text=True)
    if done.returncode != 0:
        return ["rest_motion.py --structure failed:\n" + done.stderr]
    print(done.stdout)
    line = [text for text in done.stdout.splitlines() if "structure:" in text]
    expected = ("structure: mean coordination 2.20; of the 2 spheres off the floor 50% rest on "
                "one sphere below, 50% on two, 0% on three or more, 0% on none")
    if len(line) != 1 or line[0].strip() != expected:
        return [f"--structure printed {line}, expected [{expected!r}]"]
    return []


def main(source):
    x = np.array([[0.0, 0.0, R],              # 0 floor spinner
                  [1.0, 0.0, 0.5],            # 1 held by 2 (between 2 and 3)
                  [1.0, -2 * R, 0.5],         # 2 its neighbour
                  [1.0, 2 * R + 1e-5, 0.5],   # 3 its other neighbour (gap 1e-5 m)
                  [-1.0, 0.0, R],             # 4 rolls on the floor
                  [0.0, 2 - R, 1.0]])         # 5 against the container, at rest
    v = np.zeros((6, 3))
    w = np.zeros((6, 3))
    w[0] = [0, 0, 5]
    w[1] = [0, 3, 0]
    v[4] = [0.2, 0, 0]
    w[4] = [0, 2, 0]
    with tempfile.TemporaryDirectory() as run:
        # The latest time in the first file: the script must order frames by time.
        write_run(run, [(2.5, x, v, w), (0, x, 0 * v, 0 * w)])
        done = subprocess.run(["/usr/bin/python3",
                               os.path.join(source, "scripts", "bench", "rest_motion.py"),
                               "--top", "4", run], capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit("rest_motion.py failed:\n" + done.stderr)
    lines = done.stdout.strip().splitlines()
    print(done.stdout)
    failures = []

    def expect(condition, what):
        if not condition:
            failures.append(what)

    # Total 0.1 + 0.036 + 0.056 = 0.192 J; rotational 0.1 + 0.036 + 0.016 = 0.152 J.
    head = lines[0]
    expect(len(lines) == 5, "one summary line (the last frame only) and four spheres")
    expect("t = 2.5 s" in head, "the frame of the latest time, whatever the file order")
    expect("KE 0.192 J" in head, "total kinetic energy 0.192 J")
    expect("rotational 79%" in head, "rotational share 0.152 / 0.192")
    expect("ten most energetic spheres 100%" in head, "six spheres: the ten hold all")
    expect("median speed 0 m/s" in head, "five of six spheres do not translate")
    spheres = lines[1:]
    expect("KE share 52%" in spheres[0] and spheres[0].rstrip().endswith("floor spinner")
           and "touches 0 spheres + floor" in spheres[0] and "|w_z|/|w| 1.00" in spheres[0],
           "the most energetic sphere is the floor spinner, 0.1 / 0.192")
    expect("KE share 29%" in spheres[1] and spheres[1].rstrip().endswith("rolls on the floor")
           and "|v| 0.2 m/s" in spheres[1], "then the floor roller, 0.056 / 0.192")
    expect("KE share 19%" in spheres[2] and spheres[2].rstrip().endswith("held by 2")
           and "touches 2 spheres" in spheres[2] and "|w_z|/|w| 0.00" in spheres[2],
           "then the pinched sphere, 0.036 / 0.192, touching both neighbours")
    expect(re.search(r"touches 1 spheres\s+KE share 0%", spheres[3]) is not None
           or "KE share 0%" in spheres[3], "then a sphere at rest")
    failures += structure_check(source)
    if failures:
        sys.exit("FAIL:\n  " + "\n  ".join(failures))
    print("rest_motion_test: all checks passed")


if __name__ == "__main__":
    main(sys.argv[1])
