#!/usr/bin/python3
"""Measurements (docs/measurements.md) of a resting simple cubic lattice,
tests/scenarios/measurement_lattice.yaml, on 1, 2 and 3 ranks.

Known answers, n = 3 x 3 columns of L = 4 spheres of mass m = 1 kg, radius
r = 0.5 m, g = 10 m/s^2:
- force-carrying contacts are the vertical ones: 3 per column between
  bodies, 1 per column with the floor: z_bodies = 2 * 27 / 36 = 1.5,
  z_walls = 9 / 36 = 0.25; the top layer has one contact: rattlers 9 / 36;
- touching contacts of an interior body: 6; its fabric diag(1/3, 1/3, 1/3);
  the carrying contacts' fabric diag(0, 0, 1);
- packing fraction pi / 6 in a box whose faces cut spheres through their centres;
- Love-Weber stress: s_zz = rho_bulk g h averaged over the packing,
  m g L / (8 r^2) = 20 Pa, and m g (2 L - 2 j + 1) / (8 r^2) = 25 Pa for layer
  j = 2; the other components vanish;
- the grid's cells (one per layer) hold s_zz of their layer and pi / 6;
- the body outside the domain box (2 kg) is removed at the first step:
  2 kg over 0.002 s, 1000 kg/s.
Every file must be the same bits on 1, 2 and 3 ranks.

And a periodic packing, tests/scenarios/measurement_hex_periodic.yaml: two
layers of 9 frictionless spheres in a box periodic in x and y (3 m x 3 m),
layer 2 in the pockets of layer 1, 60 degrees up on either side, a third of
its contacts through the x face:
- every sphere touches 2 x and 2 y neighbours and 2 of the other layer: 6;
- each pocket contact carries F = m g / sqrt(3) along its branch of length
  2 r, and the floor 2 m g under each layer-1 sphere, so over the box
  [0, 3] x [0, 3] x [0, 2] (V = 18 m^3) s_xx = 18 F / 4 / V = 1.44338 Pa,
  s_zz = (18 * 3 F / 4 + 9 * 2 m g r) / V = 9.33013 Pa, s_xz = 0.

Usage: measurements_test.py GRAINS_BINARY SOURCE_DIR MPIEXEC
"""
import csv
import filecmp
import math
import os
import subprocess
import sys
import tempfile

from scenario_runs import use_mpi_as_root

CONFIG = "tests/scenarios/measurement_lattice.yaml"
PERIODIC_CONFIG = "tests/scenarios/measurement_hex_periodic.yaml"
M, R, L, G = 1.0, 0.5, 4, 10.0


def rows(out, name):
    with open(os.path.join(out, f"measurements_{name}.csv"), newline="") as f:
        return list(csv.DictReader(f))


def grid_szz(path):
    import vtk  # python3-vtk9
    reader = vtk.vtkXMLImageDataReader()
    reader.SetFileName(path)
    reader.Update()
    data = reader.GetOutput().GetCellData()
    stress, fraction = data.GetArray("stress"), data.GetArray("packing_fraction")
    return ([stress.GetComponent(c, 8) for c in range(stress.GetNumberOfTuples())],
            [fraction.GetValue(c) for c in range(fraction.GetNumberOfTuples())])


def main():
    grains, source, mpiexec = sys.argv[1:4]
    use_mpi_as_root()
    failures = []

    def check(what, got, want, tol):
        ok = abs(got - want) <= tol
        print(f"{'ok  ' if ok else 'FAIL'} {what}: {got:.12g} (expected {want:.12g} +- {tol:g})")
        if not ok:
            failures.append(what)

    def run_on_1_2_3_ranks(work, config):
        """Runs `config` on 1, 2 and 3 ranks; returns the 1-rank output
        after checking that every measurement file is the same bits."""
        outs = []
        for ranks in (1, 2, 3):
            out = os.path.join(work, f"np{ranks}")
            cmd = [mpiexec, "-np", str(ranks), "--oversubscribe", grains, "run",
                   os.path.join(source, config), "--output", out, "-q"]
            done = subprocess.run(cmd, capture_output=True, text=True)
            if done.returncode != 0:
                sys.exit(f"FAIL: {' '.join(cmd)}\n{done.stdout}\n{done.stderr}")
            outs.append(out)
        out = outs[0]
        names = sorted(f for f in os.listdir(out) if f.startswith("measurements_"))
        vtk_dir = os.path.join(out, "vtk")
        if os.path.isdir(vtk_dir):
            names += [os.path.join("vtk", f) for f in sorted(os.listdir(vtk_dir))
                      if f.startswith("measurements_")]
        for other in outs[1:]:
            for name in names:
                same = filecmp.cmp(os.path.join(out, name), os.path.join(other, name),
                                   shallow=False)
                print(f"{'ok  ' if same else 'FAIL'} {name} the same bits in {other}")
                if not same:
                    failures.append(f"{name} differs in {other}")
        return out

    with tempfile.TemporaryDirectory(prefix="grains_measure.") as work:
        out = run_on_1_2_3_ranks(os.path.join(work, "periodic"), PERIODIC_CONFIG)
        for c in rows(out, "hex_touching"):
            check("periodic: touching z", float(c["z"]), 6.0, 1e-12)
        # Only the floor's count: the touching side contacts may pick up
        # round-off-level impulses, which count as carrying.
        check("periodic: z_walls", float(rows(out, "hex_carrying")[-1]["z_walls"]), 0.5, 1e-12)
        force = M * G / math.sqrt(3.0)
        volume = 3.0 * 3.0 * 2.0
        for s in rows(out, "hex_stress"):
            check("periodic: s_xx", float(s["s_xx"]), 18 * force / 4 / volume, 1e-5)
            check("periodic: s_zz", float(s["s_zz"]),
                  (18 * 3 * force / 4 + 9 * 2 * M * G * R) / volume, 1e-5)
            for k in ("s_yy", "s_xz", "s_zx", "s_xy", "s_yz"):
                check(f"periodic: {k}", float(s[k]), 0.0, 1e-9)

        out = run_on_1_2_3_ranks(work, CONFIG)

        for step_row in (0, 1):
            c = rows(out, "coordination")[step_row]
            check("z_bodies", float(c["z_bodies"]), 1.5, 1e-12)
            check("z_walls", float(c["z_walls"]), 0.25, 1e-12)
            check("z (walls: true)", float(c["z"]), 1.75, 1e-12)
            check("rattler_fraction", float(c["rattler_fraction"]), 0.25, 1e-12)
        i = rows(out, "interior")[-1]
        check("interior bodies", float(i["bodies"]), 2, 0)
        check("interior z (touching)", float(i["z"]), 6.0, 1e-12)
        f = rows(out, "interior_fabric")[-1]
        for k in ("f_xx", "f_yy", "f_zz"):
            check(f"interior fabric {k}", float(f[k]), 1.0 / 3.0, 1e-12)
        for k in ("f_xy", "f_xz", "f_yz"):
            check(f"interior fabric {k}", float(f[k]), 0.0, 1e-12)
        f = rows(out, "carrying_fabric")[-1]
        check("carrying fabric f_zz", float(f["f_zz"]), 1.0, 1e-12)
        check("carrying fabric f_xx", float(f["f_xx"]), 0.0, 1e-12)
        p = rows(out, "packing_fraction")[-1]
        check("packing fraction", float(p["packing_fraction"]), math.pi / 6, 1e-8)
        s = rows(out, "stress")[-1]
        check("s_zz of the packing", float(s["s_zz"]), M * G * L / (8 * R * R), 1e-3)
        for k in ("s_xx", "s_yy", "s_xz", "s_zx"):
            check(f"{k} of the packing", float(s[k]), 0.0, 1e-9)
        check("pressure", float(s["pressure"]), M * G * L / (8 * R * R) / 3, 1e-3)
        s = rows(out, "layer2")[-1]
        check("s_zz of layer 2", float(s["s_zz"]), M * G * (2 * L - 2 * 2 + 1) / (8 * R * R), 1e-3)
        szz, fraction = grid_szz(os.path.join(out, "vtk", "measurements_fields_000004.vti"))
        for j in range(1, L + 1):
            check(f"grid s_zz of layer {j}", szz[j - 1], M * G * (2 * L - 2 * j + 1) / (8 * R * R),
                  1e-3)
            check(f"grid packing fraction of layer {j}", fraction[j - 1], math.pi / 6, 1e-12)
        flow = rows(out, "mass_flow")
        check("mass removed by step 2", float(flow[0]["mass_removed"]), 2.0, 0)
        check("mass flow rate by step 2", float(flow[0]["mass_flow_rate"]), 1000.0, 1e-9)
        check("mass removed by step 4", float(flow[1]["mass_removed"]), 0.0, 0)
        check("mass left", float(flow[1]["mass"]), 36.0, 1e-12)
    if failures:
        sys.exit("FAIL: " + "; ".join(failures))
    print("measurements: all checks passed")


if __name__ == "__main__":
    main()
