#!/usr/bin/env python3
"""Angle of repose of a poured heap against sliding and rolling friction
(docs/validation.md).

Glass spheres (mean diameter d = 6 mm, radii spread uniformly by +-10 % so
that the heap does not crystallise, 2500 kg/m^3) are poured, 1100 a second
for 2 s, from a cylinder of radius 3 d above the centre of a round table (a
disc of radius R = 12 d; the stream starts R + 2 d to R + 10 d above it,
falling at 0.5 m/s), and pile up into a cone whose toe is the table's edge;
the bodies that roll off the table fall through an outlet below it and are
removed. The heap settles for 1 s more, and the last frame gives its
surface: the top of the highest sphere in each radial bin (width d/2) of
each of eight azimuthal sectors. A straight line through the surface points
of the flank's middle (0.3 R to 0.85 R from the axis: the apex, where the
stream lands, and the toe, perched on the table's edge, are left out) gives
the angle, atan(-slope). The heap's angle is the line through all eight
sectors' points; its uncertainty is the standard error of the eight
sectors' angles.

The sweep: the sliding friction mu between the spheres at no rolling
resistance, and their rolling resistance mu_r at mu = 0.5. The table itself
is rough (mu = TABLE_MU, mu_r = TABLE_MU_R, the per-wall friction of
walls[].friction) so that the base layer holds and the heap's toe sits at
the table's edge whatever the grains' friction; --smooth-table gives the
table the grains' friction instead.

Usage: repose.py [--mus 0.1,0.2,0.4,0.6,0.8,1.0] [--mu-rs 0,0.02,0.05,0.1,0.2]
                 [--ranks 1] [--out DIR] [--quick] [--check] [--smooth-table]
                 [--table R/d] [--count N] [--rate N/s] [--settle S] [--reuse]
                 [--grains BUILD/grains]
Prints a table, writes repose.png (angle against mu and against mu_r, and the
heaps' profiles) and repose.csv into DIR. --quick: a smaller table
(R = 8 d, 700 spheres poured, 0.8 s), mu 0.1 and 0.8 at mu_r = 0, mu_r 0 and
0.2 at mu = 0.5, to check the pipeline end to end (CTest validate_repose);
so small a heap is a few layers high and its angles are lower than the full
sweep's. --check: exit 1 unless every angle and its uncertainty are finite,
every angle is within 1-50 degrees (below 1 degree no heap formed), and the
angle at the larger mu (and mu_r) exceeds the angle at the smaller one by
more than their combined uncertainty (the two standard errors added in
quadrature).
"""
import argparse
import csv
import glob
import math
import os
import sys
import time

from grains_run import run_case

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
D_GRAIN = 0.006
RADIUS = D_GRAIN / 2
SPREAD = 0.1  # radii uniform in [1 - SPREAD, 1 + SPREAD] x RADIUS
DENSITY = 2500.0
DT = 0.001
MU_FOR_MU_R = 0.5  # sliding friction of the rolling-resistance sweep
TABLE_MU = 1.0  # the rough table (per-wall friction)
TABLE_MU_R = 0.3
SECTORS = 8
BIN = D_GRAIN / 2
FIT_LO, FIT_HI = 0.3, 0.85  # fitted part of the flank, fractions of R

CONFIG = """# Written by scripts/validate/repose.py: a heap poured on a table of
# radius {table:.4f} m, mu = {mu:g}, mu_r = {mu_r:g}.
simulation: {{dt: {dt}, end_time: {end}, gravity: [0.0, 0.0, -9.81], seed: 7}}
bodies:
  shape: sphere
  radius: {radius}
  density: {density}
  generator:
    type: random
    count: 0
    region: {{type: box, min: [-0.01, -0.01, 0.0], max: [0.01, 0.01, 0.01]}}
insertion:
  - name: hopper
    shape: sphere
    radius: {radius}
    radius_spread: {spread}
    density: {density}
    region: {{type: cylinder, center: [0.0, 0.0], radius: {nozzle:.4f}, z_min: {z0:.4f}, z_max: {z1:.4f}}}
    rate: {rate}
    end: {pour_end}
    velocity: [0.0, 0.0, -0.5]
    velocity_spread: 0.05
walls:
  - {{type: disc, name: table, point: [0.0, 0.0, 0.0], normal: [0.0, 0.0, 1.0], radius: {table:.5f}{table_friction}}}
outlets:
  - {{name: below, type: plane, point: [0.0, 0.0, -0.03], normal: [0.0, 0.0, 1.0]}}
contact: {{friction: coulomb, mu: {mu}, rolling_friction: {mu_r}}}
solver: {{name: apgd, tolerance: 1.0e-6, max_iterations: 1000}}
domain:
  min: [{lo:.4f}, {lo:.4f}, -0.06]
  max: [{hi:.4f}, {hi:.4f}, {top:.4f}]
  on_exit: remove
output: {{vtk_every: {vtk_every}, log_every: 0}}
"""


class Case:
    def __init__(self, mu, mu_r, table_d, pour_count, rate, settle, rough_table):
        self.mu, self.mu_r = mu, mu_r
        self.table = table_d * D_GRAIN
        self.pour_count, self.rate, self.settle = pour_count, rate, settle
        self.rough_table = rough_table

    def name(self):
        return "mu%g_mur%g" % (self.mu, self.mu_r)

    def write(self, directory):
        os.makedirs(directory, exist_ok=True)
        # The stream starts above the highest apex (45 degrees) a table of
        # this size can carry.
        z0 = self.table + 2 * D_GRAIN
        pour_end = self.pour_count / self.rate
        end = round(pour_end + self.settle, 3)
        steps = int(round(end / DT))
        table_friction = ""
        if self.rough_table:
            table_friction = ", friction: {mu: %g, rolling_friction: %g}" % (TABLE_MU, TABLE_MU_R)
        with open(os.path.join(directory, "heap.yaml"), "w") as f:
            f.write(CONFIG.format(table=self.table, mu=self.mu, mu_r=self.mu_r, dt=DT, end=end,
                                  radius=RADIUS, density=DENSITY, spread=SPREAD,
                                  nozzle=3 * D_GRAIN, z0=z0, z1=z0 + 8 * D_GRAIN,
                                  rate=self.rate, pour_end=round(pour_end, 4),
                                  table_friction=table_friction, lo=-self.table - 0.05,
                                  hi=self.table + 0.05, top=z0 + 0.2, vtk_every=steps))


def last_frame(run_dir):
    """Centres, radii and speeds of the bodies in the run's last VTK frame."""
    import numpy as np
    import vtk
    from vtk.util.numpy_support import vtk_to_numpy
    frames = sorted(glob.glob(os.path.join(run_dir, "vtk", "bodies_*.pvtp")))
    reader = vtk.vtkXMLPPolyDataReader()
    reader.SetFileName(frames[-1])
    reader.Update()
    output = reader.GetOutput()
    points = vtk_to_numpy(output.GetPoints().GetData())
    radii = vtk_to_numpy(output.GetPointData().GetArray("radius"))
    speeds = np.linalg.norm(vtk_to_numpy(output.GetPointData().GetArray("velocity")), axis=1)
    return points, radii, speeds


def surface(points, radii, table):
    """Top of the highest sphere per radial bin and sector on the table:
    a list of (sector, r, height) at the bins' centres."""
    import numpy as np
    r = np.hypot(points[:, 0], points[:, 1])
    phi = np.mod(np.arctan2(points[:, 1], points[:, 0]), 2 * math.pi)
    top = points[:, 2] + radii
    on = (r < table) & (points[:, 2] > 0)
    sector = np.minimum((phi / (2 * math.pi) * SECTORS).astype(int), SECTORS - 1)
    rbin = (r / BIN).astype(int)
    heights = {}
    for s, b, h in zip(sector[on], rbin[on], top[on]):
        key = (int(s), int(b))
        heights[key] = max(heights.get(key, 0.0), float(h))
    return [(s, (b + 0.5) * BIN, h) for (s, b), h in sorted(heights.items())]


def line_angle(rs, hs):
    """Angle [degrees] of the least-squares line h(r) falling outward."""
    n = len(rs)
    if n < 3:
        return float("nan")
    mr, mh = sum(rs) / n, sum(hs) / n
    sxx = sum((x - mr) ** 2 for x in rs)
    sxy = sum((x - mr) * (y - mh) for x, y in zip(rs, hs))
    return math.degrees(math.atan(-sxy / sxx))


def measure(run_dir, table):
    points, radii, speeds = last_frame(run_dir)
    prof = surface(points, radii, table)
    window = [(s, r, h) for s, r, h in prof if FIT_LO * table <= r <= FIT_HI * table]
    angle = line_angle([p[1] for p in window], [p[2] for p in window])
    per_sector = [line_angle([p[1] for p in window if p[0] == s],
                             [p[2] for p in window if p[0] == s]) for s in range(SECTORS)]
    valid = [a for a in per_sector if math.isfinite(a)]
    if len(valid) >= 2:
        mean = sum(valid) / len(valid)
        sd = math.sqrt(sum((a - mean) ** 2 for a in valid) / (len(valid) - 1))
        sem = sd / math.sqrt(len(valid))
    else:
        sd = sem = float("nan")
    on = [math.hypot(p[0], p[1]) < table and p[2] > 0 for p in points]
    on_table = int(sum(on))
    # Still moving at the end: faster than 1 cm/s (the rest creep at ~1e-4 m/s).
    moving = int(sum(1 for o, v in zip(on, speeds) if o and v > 0.01))
    apex = max((h for _, r, h in prof if r < 2 * D_GRAIN), default=float("nan"))
    return dict(angle=angle, sem=sem, sector_sd=sd, on_table=on_table, moving=moving, apex=apex,
                profile=prof)


def run_metrics(metrics_csv):
    """Bodies poured, the last step's kinetic energy, and the solver's
    iterations and convergence over the run."""
    poured = steps = unconverged = 0
    iterations = []
    kinetic = 0.0
    with open(metrics_csv) as f:
        for row in csv.DictReader(f):
            poured += int(row.get("inserted_hopper", 0) or 0)
            iterations.append(int(row["iterations"]))
            unconverged += 0 if int(row["converged"]) else 1
            kinetic = float(row["kinetic_energy"])
            steps += 1
    iterations.sort()
    return dict(poured=poured, kinetic=kinetic, steps=steps,
                unconverged=unconverged,
                iter_median=iterations[len(iterations) // 2] if iterations else 0,
                iter_max=iterations[-1] if iterations else 0)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mus", default="0.1,0.2,0.4,0.6,0.8,1.0")
    parser.add_argument("--mu-rs", default="0,0.02,0.05,0.1,0.2")
    parser.add_argument("--ranks", type=int, default=1)
    parser.add_argument("--out", default=os.path.join(ROOT, "output", "validate-repose"))
    parser.add_argument("--grains", default=os.path.join(ROOT, "build", "grains"))
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--smooth-table", action="store_true",
                        help="the table with the grains' friction instead of a rough one")
    parser.add_argument("--table", type=float, help="table radius [grain diameters]")
    parser.add_argument("--count", type=int, help="spheres poured")
    parser.add_argument("--rate", type=float, help="spheres poured per second")
    parser.add_argument("--settle", type=float, help="time after the pour [s]")
    parser.add_argument("--reuse", action="store_true",
                        help="measure the runs already in DIR instead of running them again")
    args = parser.parse_args()
    mus = [float(m) for m in args.mus.split(",")]
    mu_rs = [float(m) for m in args.mu_rs.split(",")]
    table_d, pour_count, rate, settle = 12, 2200, 1100.0, 1.0
    if args.quick:
        mus, mu_rs = [0.1, 0.8], [0.0, 0.2]
        table_d, pour_count, rate, settle = 8, 700, 1400.0, 0.3
    table_d = args.table or table_d
    pour_count = args.count or pour_count
    rate = args.rate or rate
    settle = args.settle or settle
    rough = not args.smooth_table
    cases = [Case(mu, 0.0, table_d, pour_count, rate, settle, rough) for mu in mus]
    cases += [Case(MU_FOR_MU_R, mu_r, table_d, pour_count, rate, settle, rough) for mu_r in mu_rs
              if not (mu_r == 0.0 and MU_FOR_MU_R in mus)]
    results = []
    for case in cases:
        directory = os.path.join(args.out, case.name())
        run_dir = os.path.join(directory, "run")
        start = time.time()
        if not (args.reuse and os.path.exists(os.path.join(run_dir, "metrics.csv"))):
            case.write(directory)
            run_case(args.grains, directory, "heap.yaml", args.ranks)
        seconds = time.time() - start
        m = measure(run_dir, case.table)
        info = run_metrics(os.path.join(run_dir, "metrics.csv"))
        print(f"mu = {case.mu:g}, mu_r = {case.mu_r:g}: angle {m['angle']:.1f} +- {m['sem']:.1f} deg,"
              f" {m['on_table']} of {info['poured']} spheres on the table, {seconds:.0f} s",
              flush=True)
        results.append(dict(mu=case.mu, mu_r=case.mu_r, angle=m["angle"], sem=m["sem"],
                            sector_sd=m["sector_sd"], apex=m["apex"], on_table=m["on_table"],
                            moving=m["moving"],
                            poured=info["poured"], kinetic=info["kinetic"],
                            iter_median=info["iter_median"], iter_max=info["iter_max"],
                            unconverged=info["unconverged"], steps=info["steps"],
                            seconds=seconds, profile=m["profile"], table=case.table))
    print()
    print("  mu   mu_r  angle [deg]  sector sd  apex [mm]  on table  moving  poured  KE end [J]"
          "  iters median/max  unconverged")
    for r in results:
        print(f"{r['mu']:4g}  {r['mu_r']:5g}  {r['angle']:6.1f} +- {r['sem']:3.1f}  {r['sector_sd']:9.1f}"
              f"  {1000 * r['apex']:9.1f}  {r['on_table']:8d}  {r['moving']:6d}  {r['poured']:6d}  {r['kinetic']:10.2e}"
              f"  {r['iter_median']:8d}/{r['iter_max']:<5d}  {r['unconverged']:5d}/{r['steps']}")
    fields = [k for k in results[0] if k not in ("profile",)]
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "repose.csv"), "w") as f:
        writer = csv.DictWriter(f, fieldnames=fields, extrasaction="ignore")
        writer.writeheader()
        writer.writerows(results)
    mu_series = sorted([r for r in results if r["mu_r"] == 0.0], key=lambda r: r["mu"])
    mu_r_series = sorted([r for r in results if r["mu"] == MU_FOR_MU_R], key=lambda r: r["mu_r"])
    failed = False
    if args.check:
        for r in results:
            if not (math.isfinite(r["angle"]) and math.isfinite(r["sem"]) and 1 <= r["angle"] <= 50):
                print(f"FAIL: mu = {r['mu']:g}, mu_r = {r['mu_r']:g}: angle {r['angle']:.2f} "
                      f"+- {r['sem']:.2f} not finite or outside 1-50 degrees")
                failed = True
        for label, series, key in (("mu", mu_series, "mu"), ("mu_r", mu_r_series, "mu_r")):
            series = sorted(series, key=lambda r: r[key])
            lo, hi = series[0], series[-1]
            margin = math.hypot(lo["sem"], hi["sem"])
            if not hi["angle"] - lo["angle"] > margin:
                print(f"FAIL: the angle at {label} = {hi[key]:g} ({hi['angle']:.1f}) does not exceed "
                      f"the angle at {label} = {lo[key]:g} ({lo['angle']:.1f}) by more than "
                      f"{margin:.1f} degrees")
                failed = True
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return 1 if failed else 0
    fig, (left, middle, right) = plt.subplots(1, 3, figsize=(14, 4))
    left.errorbar([r["mu"] for r in mu_series], [r["angle"] for r in mu_series],
                  yerr=[r["sem"] for r in mu_series], fmt="o-", capsize=3)
    left.set_xlabel("sliding friction μ (μ_r = 0)")
    left.set_ylabel("angle of repose [degrees]")
    left.set_ylim(bottom=0)
    middle.errorbar([r["mu_r"] for r in mu_r_series], [r["angle"] for r in mu_r_series],
                    yerr=[r["sem"] for r in mu_r_series], fmt="s-", color="C1", capsize=3)
    middle.set_xlabel(f"rolling resistance μ_r (μ = {MU_FOR_MU_R:g})")
    middle.set_ylabel("angle of repose [degrees]")
    middle.set_ylim(bottom=0)
    shown = [mu_series[0], mu_series[-1], mu_r_series[-1]]
    shown = [r for i, r in enumerate(shown) if r not in shown[:i]]
    for i, r in enumerate(shown):
        prof = r["profile"]
        right.plot([1000 * p[1] for p in prof], [1000 * p[2] for p in prof], ".", ms=3,
                   color=f"C{i}", label=f"μ = {r['mu']:g}, μ_r = {r['mu_r']:g}: {r['angle']:.1f}°")
        table = r["table"]
        window = [p for p in prof if FIT_LO * table <= p[1] <= FIT_HI * table]
        n = len(window)
        mr = sum(p[1] for p in window) / n
        mh = sum(p[2] for p in window) / n
        slope = -math.tan(math.radians(r["angle"]))
        xs = [FIT_LO * table, FIT_HI * table]
        right.plot([1000 * x for x in xs], [1000 * (mh + slope * (x - mr)) for x in xs], "-",
                   color=f"C{i}")
    right.set_xlabel("distance from the axis [mm]")
    right.set_ylabel("surface height [mm]")
    right.set_aspect("equal")
    right.legend(fontsize=8)
    right.set_title("heap surfaces (8 sectors) and fitted lines")
    fig.tight_layout()
    fig.savefig(os.path.join(args.out, "repose.png"), dpi=110)
    print("wrote", os.path.join(args.out, "repose.png"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
