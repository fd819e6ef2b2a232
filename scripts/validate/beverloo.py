#!/usr/bin/env python3
"""Silo discharge against Beverloo's law (docs/validation.md).

A flat-bottomed cylindrical silo of glass spheres (mean diameter d = 6 mm,
radii spread uniformly by +-10 % so that the bed does not crystallise,
2500 kg/m^3, friction 0.4) discharges through a round orifice of diameter D
for several D / d. The bed is poured as a jittered lattice and settles on a
gate under the orifice; the gate drops away at T_OPEN and the discharged
bodies are removed 5 cm below the floor (bodies_removed in metrics.csv).

For each D the mass flow rate W is the slope of the discharged mass over
time while 10 % to 60 % of the bed has left (a steady flow, the bed still
more than two orifice diameters high); its two halves (10-35 %, 35-60 %)
show whether W depends on the fill height. Beverloo's law (Beverloo, Leniger
& van de Velde 1961)

    W = C rho_b sqrt(g) (D - k d)^(5/2)

is linear in D after taking W^(2/5): a least-squares line through
(D, W^(2/5)) gives C and k; rho_b is the settled bed's bulk density, measured
in its core before the gate opens.

Usage: beverloo.py [--ratios 5,6.5,8,10] [--ranks 1] [--out DIR] [--quick]
                   [--check] [--grains BUILD/grains]
Prints a table and the fit, writes beverloo.png (rate against D, and the
linearised fit) and beverloo.csv into DIR. --quick: two small orifices and
a low bed (1.5 silo radii), fitted on the 10-35 % window only (the rate
drops once so low a bed has half emptied), to check the pipeline end to end
(CTest validate_beverloo). --check: exit 1 unless every rate is finite and
positive and the fit gives 0.35 <= C <= 0.8 and 0.5 <= k <= 3.5 (broad: two
orifices of a low bed).
"""
import argparse
import csv
import math
import os
import random
import sys

from grains_run import run_case

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
D_GRAIN = 0.006
RADIUS = D_GRAIN / 2
DENSITY = 2500.0
MU = 0.4
G = 9.81
DT = 0.001
T_OPEN = 0.3
SPREAD = 0.1  # radii uniform in [1 - SPREAD, 1 + SPREAD] x RADIUS
SPACING = (1 + SPREAD) * D_GRAIN + 0.0005
# Mean mass of a sphere: the mean of r^3 over the uniform spread.
MASS = DENSITY * 4.0 / 3.0 * math.pi * RADIUS ** 3 * (1 + SPREAD ** 2)

CONFIG = """# Written by scripts/validate/beverloo.py: silo of radius {silo:.4f} m,
# orifice diameter {orifice:.4f} m ({ratio:g} grain diameters).
simulation: {{dt: {dt}, end_time: {end}, gravity: [0.0, 0.0, -9.81], seed: 5}}
bodies:
  shape: sphere
  radius: {radius}
  density: {density}
  generator: {{type: file, file: bodies.csv}}
walls:
  - {{type: cylinder, name: silo, side: inside, point: [0, 0, 0], axis: [0, 0, 1], radius: {silo:.5f}}}
  - {{type: plane, name: floor, point: [0, 0, 0], normal: [0, 0, 1], hole_radius: {hole:.5f}}}
  - type: disc
    name: gate
    point: [0.0, 0.0, -0.0001]
    normal: [0.0, 0.0, 1.0]
    radius: {gate:.5f}
    motion:
      table:
        - {{time: {open}, velocity: [0.0, 0.0, -1.0]}}
        - {{time: {open_end}, velocity: [0.0, 0.0, 0.0]}}
contact: {{friction: coulomb, mu: {mu}}}
solver: {{name: apgd, tolerance: 1.0e-6, max_iterations: 1000}}
domain:
  min: [{lo:.4f}, {lo:.4f}, -0.05]
  max: [{hi:.4f}, {hi:.4f}, {top:.4f}]
  on_exit: remove
output: {{vtk_every: {vtk_every}, log_every: 0}}
"""


def silo_radius(orifice):
    # The orifice's rim stays six grain diameters from the silo's wall.
    return 0.5 * orifice + 6 * D_GRAIN


def expected_rate(orifice):
    """Beverloo with typical constants (C 0.58, k 1.5, bulk density 1470 kg/m^3):
    only to choose how long a case runs."""
    return 0.58 * 1470 * math.sqrt(G) * max(orifice - 1.5 * D_GRAIN, D_GRAIN) ** 2.5


def write_case(directory, ratio, height_factor):
    orifice = ratio * D_GRAIN
    silo = silo_radius(orifice)
    height = height_factor * max(silo, 1.2 * orifice)
    os.makedirs(directory, exist_ok=True)
    rng = random.Random(5)
    inner = silo - (1 + SPREAD) * RADIUS - 0.0003
    n = int(inner / SPACING) + 1
    rows = []
    z = (1 + SPREAD) * RADIUS + 0.001
    while z < height:
        for i in range(-n, n + 1):
            for j in range(-n, n + 1):
                x, y = i * SPACING, j * SPACING
                if math.hypot(x, y) <= inner - 0.0002:
                    jitter = 0.0002
                    rows.append((x + rng.uniform(-jitter, jitter), y + rng.uniform(-jitter, jitter),
                                 z, RADIUS * (1 + SPREAD * rng.uniform(-1, 1))))
        z += SPACING
    with open(os.path.join(directory, "bodies.csv"), "w") as f:
        f.write("x, y, z, radius\n")
        for x, y, zz, r in rows:
            f.write(f"{x:.6f}, {y:.6f}, {zz:.6f}, {r:.7f}\n")
    # Long enough for 60 % of the bed to leave at about the expected rate,
    # with a third more for the start of the flow and a slower rate.
    end = T_OPEN + 0.25 + 1.35 * 0.6 * len(rows) * MASS / expected_rate(orifice)
    with open(os.path.join(directory, "silo.yaml"), "w") as f:
        f.write(CONFIG.format(silo=silo, orifice=orifice, ratio=ratio, dt=DT, end=round(end, 3),
                              radius=RADIUS, density=DENSITY, hole=orifice / 2,
                              gate=orifice / 2 + 2 * D_GRAIN, open=T_OPEN,
                              open_end=T_OPEN + 0.2, mu=MU, lo=-silo - 0.01, hi=silo + 0.01,
                              top=height + 0.5, vtk_every=int(round(T_OPEN / DT))))
    return orifice, silo, len(rows)


def bulk_density(run_dir, silo):
    """Bulk density of the settled bed's core at the gate's opening."""
    import vtk
    from vtk.util.numpy_support import vtk_to_numpy
    step = int(round(T_OPEN / DT))
    reader = vtk.vtkXMLPPolyDataReader()
    reader.SetFileName(os.path.join(run_dir, "vtk", "bodies_%06d.pvtp" % step))
    reader.Update()
    points = vtk_to_numpy(reader.GetOutput().GetPoints().GetData())
    top = sorted(points[:, 2])[int(0.98 * len(points))]
    r_core = silo - 2 * D_GRAIN
    z_lo, z_hi = 2 * D_GRAIN, top - 3 * D_GRAIN
    inside = sum(1 for p in points
                 if math.hypot(p[0], p[1]) < r_core and z_lo < p[2] < z_hi)
    volume = math.pi * r_core ** 2 * (z_hi - z_lo)
    return inside * MASS / volume, top


def flow_rate(metrics_csv, total):
    """Discharged mass against time: slopes over 10-60 %, 10-35 % and 35-60 %."""
    times, removed = [], []
    cumulative = 0
    with open(metrics_csv) as f:
        for row in csv.DictReader(f):
            cumulative += int(row["bodies_removed"])
            times.append(float(row["time"]))
            removed.append(cumulative)

    def slope(lo, hi):
        pts = [(t, m * MASS) for t, m in zip(times, removed) if lo * total <= m <= hi * total]
        if len(pts) < 10:
            return float("nan")
        n = len(pts)
        mt = sum(p[0] for p in pts) / n
        mm = sum(p[1] for p in pts) / n
        sxx = sum((p[0] - mt) ** 2 for p in pts)
        sxy = sum((p[0] - mt) * (p[1] - mm) for p in pts)
        return sxy / sxx

    return slope(0.10, 0.60), slope(0.10, 0.35), slope(0.35, 0.60), removed[-1]


def fit(diameters, rates, rho_b):
    """Least squares of W^(2/5) = a (D - k d): C = a^(5/2) / (rho_b sqrt g)."""
    ys = [w ** 0.4 for w in rates]
    n = len(ys)
    mx, my = sum(diameters) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in diameters)
    slope = sum((x - mx) * (y - my) for x, y in zip(diameters, ys)) / sxx
    intercept = my - slope * mx
    k = -intercept / (slope * D_GRAIN)
    c = slope ** 2.5 / (rho_b * math.sqrt(G))
    return c, k, slope, intercept


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ratios", default="5,6.5,8,10")
    parser.add_argument("--ranks", type=int, default=1)
    parser.add_argument("--out", default=os.path.join(ROOT, "output", "validate-beverloo"))
    parser.add_argument("--grains", default=os.path.join(ROOT, "build", "grains"))
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    ratios = [float(r) for r in args.ratios.split(",")]
    height_factor = 2.5
    if args.quick:
        ratios, height_factor = [5.0, 6.0], 1.5
    results = []
    for ratio in ratios:
        directory = os.path.join(args.out, "D%g" % ratio)
        orifice, silo, count = write_case(directory, ratio, height_factor)
        print(f"D/d = {ratio:g}: orifice {1000 * orifice:.1f} mm, silo radius "
              f"{1000 * silo:.1f} mm, {count} spheres", flush=True)
        run_case(args.grains, directory, "silo.yaml", args.ranks)
        rho_b, top = bulk_density(os.path.join(directory, "run"), silo)
        w, w_early, w_late, discharged = flow_rate(os.path.join(directory, "run", "metrics.csv"),
                                                   count)
        results.append(dict(ratio=ratio, orifice=orifice, silo=silo, count=count, rho_b=rho_b,
                            bed_height=top, rate=w, rate_early=w_early, rate_late=w_late,
                            discharged=discharged))
    rho_b = sum(r["rho_b"] for r in results) / len(results)
    valid = [r for r in results if math.isfinite(r["rate"]) and r["rate"] > 0]
    print()
    print(" D/d   D [mm]  spheres  bulk density  W [kg/s]  W 10-35 %  W 35-60 %  late/early")
    for r in results:
        print(f"{r['ratio']:4g}  {1000 * r['orifice']:7.1f}  {r['count']:7d}  {r['rho_b']:12.0f}"
              f"  {r['rate']:8.4f}  {r['rate_early']:9.4f}  {r['rate_late']:9.4f}"
              f"  {r['rate_late'] / r['rate_early']:10.3f}")
    with open(os.path.join(args.out, "beverloo.csv"), "w") as f:
        writer = csv.DictWriter(f, fieldnames=list(results[0]))
        writer.writeheader()
        writer.writerows(results)
    if len(valid) < 2:
        print("FAIL: fewer than two orifices gave a steady flow rate")
        return 1
    fitted = "rate_early" if args.quick else "rate"
    c, k, slope, intercept = fit([r["orifice"] for r in valid], [r[fitted] for r in valid], rho_b)
    print(f"\nBeverloo fit over {len(valid)} orifices: C = {c:.3f}, k = {k:.2f} "
          f"(mean bulk density {rho_b:.0f} kg/m^3; published C 0.55-0.65, k 1.3-3)")
    with open(os.path.join(args.out, "fit.txt"), "w") as f:
        f.write(f"C {c:.6f}\nk {k:.6f}\nrho_b {rho_b:.3f}\n")
    if args.check:
        finite = all(math.isfinite(r[key]) and r[key] > 0 for r in results
                     for key in ("rate", "rate_early", "rate_late", "rho_b"))
        if not (finite and len(valid) == len(results) and 0.35 <= c <= 0.8 and 0.5 <= k <= 3.5):
            print(f"FAIL: rates finite and positive: {finite}; C = {c:.3f} (0.35-0.8), "
                  f"k = {k:.2f} (0.5-3.5)")
            return 1
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return 0
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    ds = [1000 * r["orifice"] for r in valid]
    left.plot(ds, [r[fitted] for r in valid], "o", label="grains")
    grid = [x / 1000 for x in range(int(min(ds) * 0.8), int(max(ds) * 1.1) + 1)]
    left.plot([1000 * x for x in grid],
              [c * rho_b * math.sqrt(G) * max(x - k * D_GRAIN, 0) ** 2.5 for x in grid], "-",
              label=f"Beverloo, C = {c:.2f}, k = {k:.2f}")
    left.set_xlabel("orifice diameter D [mm]")
    left.set_ylabel("mass flow rate W [kg/s]")
    left.legend()
    right.plot(ds, [r[fitted] ** 0.4 for r in valid], "o")
    right.plot([1000 * x for x in grid], [slope * x + intercept for x in grid], "-")
    right.set_xlabel("orifice diameter D [mm]")
    right.set_ylabel("W^(2/5) [(kg/s)^(2/5)]")
    right.set_title(f"line crosses zero at D = k d = {k * D_GRAIN * 1000:.1f} mm")
    fig.tight_layout()
    fig.savefig(os.path.join(args.out, "beverloo.png"), dpi=110)
    print("wrote", os.path.join(args.out, "beverloo.png"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
