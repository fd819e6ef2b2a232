#!/usr/bin/env python3
"""Dense inertial flow against the mu(I) rheology (docs/validation.md).

Plane shear at imposed pressure, without gravity, in a box periodic in x
and y: frictional spheres (mean diameter d = 2 mm, radii spread uniformly by
+-20 % so that the bed neither crystallises nor layers, 2500 kg/m^3,
friction MU_P, no rolling resistance), 447 of them in a cell of 6 d x 5 d
(area A) and about 14 d high, between a static floor (z = 0) and a
force-controlled lid (0.04 to 0.4 times the bed's mass, below) that pushes
down with P A and slides along x at V. Both walls have a high sliding and
rolling friction, so the spheres that
touch them stick and make them rough. The contacts are compliant (needed by
the force control), with an overlap of 1e-3 d under the mean contact force
P d^2. The initial bed is a loose random gas that the lid compresses.

Each case runs at one lid speed V. In the steady state (the first strain
units discarded; strain = V t / H) it measures

    P = lid normal load / A,    tau = mean wall tangential load / A,
    gamma_dot = slope of the mean x velocity against z in the core of the
                cell (more than CORE d from either wall; a `grid`
                measurement of one cell per layer),
    I = gamma_dot d / sqrt(P / rho),    mu = tau / P,

the packing fraction phi of the core (`packing_fraction` measurement) and,
as a cross-check of tau and P, the Love-Weber stress of the core (`stress`
measurement: mu_LW = -s_xz / s_zz). The fit is the rheology of Jop,
Forterre & Pouliquen (2006),

    mu(I) = mu_s + (mu_2 - mu_s) / (I_0 / I + 1).

Units: d, rho and P set them. P = 2500 Pa and rho = 2500 kg/m^3 make
sqrt(P / rho) = 1 m/s and the time scale t_p = d sqrt(rho / P) = 2 ms; a
case of inertial number I needs a strain rate I / t_p. The time step is
min(0.035, 0.002 / I) t_p: a neighbour moves by at most 0.002 d per step.
The lid's mass is 0.4 times the bed's at the longest step and goes with
dt^2 (at least 0.04): its explicit update stays stable (a lighter lid at a
longer step chatters on the stiff contacts of the top layer), and at the
shorter steps a lighter lid rocks less on the compliant bed. The solver
stops at contact-velocity errors of 3 % of gamma_dot d. Each case first
lets the lid settle for 25 t_p, then discards 2 strain units (1 below
I = 0.05, 0.7 below 0.01, 0.5 below 0.004) and measures over 4 (3, 1.8,
1.2). tau is the mean of the lid's and the floor's tangential loads.

Usage: mu_i.py [--inertial 0.002,0.005,...,0.3] [--ranks 1] [--out DIR]
               [--quick] [--check] [--grains BUILD/grains]
Prints a table and the fit, writes mu_i.png (mu and phi against I, the
fit, the velocity profiles) and mu_i.csv into DIR. --quick: a smaller cell
(5 d x 4 d x 10 d, 213 spheres) and two shear rates (I about 0.05 and 0.25)
over 1.5 strain units (1 measured), to check the pipeline end to end (CTest
validate_mu_i). --check: exit 1 unless every measured number
is finite, 0.1 < mu < 1 and 0.45 < phi < 0.7 in every case, and mu is
larger and phi smaller at the larger I (with the full sweep also: the fit
gives 0.2 < mu_s < 0.5 and mu_2 > mu_s).
"""
import argparse
import csv
import math
import os
import random
import sys

from grains_run import run_case

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
D = 0.002                 # mean diameter [m]
SPREAD = 0.2              # radii uniform in [1 - SPREAD, 1 + SPREAD] x D/2
RHO = 2500.0              # particle density [kg/m^3]
P = 2500.0                # imposed pressure [Pa]
MU_P = 0.5                # friction between spheres
MU_WALL = {"mu": 2.0, "rolling_friction": 1.0, "spinning_friction": 1.0}
T_P = D * math.sqrt(RHO / P)       # 2 ms
V_P = math.sqrt(P / RHO)           # 1 m/s
COMPLIANCE = 1e-3 / (P * D)        # overlap 1e-3 d under P d^2 [m/N]
LID_MASS = 0.4           # lid mass / bed mass at the longest time step
DT_MAX = 0.035           # largest time step / t_p (the lid's stability)
CORE = 3.5                # the core is more than CORE d from both walls
# Mean sphere volume: the mean of D^3 over the uniform spread.
VOLUME = math.pi / 6 * D ** 3 * (1 + SPREAD ** 2)

CONFIG = """# Written by scripts/validate/mu_i.py: plane shear at imposed pressure
# {p:g} Pa, target inertial number {target:g}, lid speed {v:.6g} m/s.
simulation: {{dt: {dt:.6g}, end_time: {end:.6g}, gravity: [0.0, 0.0, 0.0], seed: 5}}
bodies:
  shape: sphere
  radius: {radius}
  density: {rho}
  generator: {{type: file, file: bodies.csv}}
domain:
  min: [0.0, 0.0, -0.01]
  max: [{lx:.6g}, {ly:.6g}, {zmax:.6g}]
  periodic: [x, y]
  on_exit: abort
walls:
  - type: plane
    name: floor
    point: [0.0, 0.0, 0.0]
    normal: [0.0, 0.0, 1.0]
{floor_extra}  - type: plane
    name: lid
    point: [0.0, 0.0, {lid:.6g}]
    normal: [0.0, 0.0, -1.0]
{lid_extra}contact:
  friction: coulomb
  mu: {mu}
  compliance: {compliance:.6g}
solver: {{name: apgd, velocity_tolerance: {vtol:.6g}, max_iterations: 2000}}
measurements:
  - {{name: core_stress, type: stress, every: {every}, region: {{lower: [0, 0, {z0:.6g}], upper: [{lx:.6g}, {ly:.6g}, {z1:.6g}]}}}}
  - {{name: core_phi, type: packing_fraction, every: {every}, region: {{lower: [0, 0, {z0:.6g}], upper: [{lx:.6g}, {ly:.6g}, {z1:.6g}]}}}}
  - {{name: profile, type: grid, every: {every}, cells: [1, 1, {nz}], region: {{lower: [0, 0, 0], upper: [{lx:.6g}, {ly:.6g}, {ztop:.6g}]}}}}
output: {{vtk_every: 0, log_every: 0, metrics_every: 1}}
"""


def wall_yaml(friction, motion):
    lines = ""
    if friction:
        lines += "    friction: {%s}\n" % ", ".join(f"{k}: {v}" for k, v in MU_WALL.items())
    if motion:
        lines += f"    motion: {motion}\n"
    return lines


def pack(count, lx, ly, height, rng):
    """Random sequential addition of `count` spheres in [0, lx) x [0, ly) x
    [0, height], periodic in x and y (a loose gas the lid then compresses)."""
    import numpy as np
    centres = np.zeros((count, 3))
    radii = np.zeros(count)
    # The largest first: the small ones fill the gaps they leave.
    sizes = sorted((0.5 * D * (1 + SPREAD * rng.uniform(-1, 1)) for _ in range(count)),
                   reverse=True)
    for i, r in enumerate(sizes):
        for _attempt in range(100000):
            c = np.array([rng.uniform(0, lx), rng.uniform(0, ly),
                          rng.uniform(r * 1.02, height - r * 1.02)])
            delta = centres[:i] - c
            delta[:, 0] -= lx * np.round(delta[:, 0] / lx)
            delta[:, 1] -= ly * np.round(delta[:, 1] / ly)
            if np.all((delta ** 2).sum(axis=1) >= (1.002 * (radii[:i] + r)) ** 2):
                centres[i], radii[i] = c, r
                break
        else:
            raise RuntimeError("could not place sphere %d; lower the packing fraction" % i)
    return [(c[0], c[1], c[2], r) for c, r in zip(centres, radii)]


def write_case(directory, target, size, strains, drive, wall_friction, step=0.002,
               settle=35.0):
    """One shear case of target inertial number `target` in a cell of
    size = (lx, ly, h) grain diameters; strains = (discarded, total); a
    neighbour moves by at most `step` d per time step; the first `settle`
    t_p are the lid's compaction of the initial gas."""
    lx, ly, h = (s * D for s in size)
    area = lx * ly
    count = int(round(0.58 * area * h / VOLUME))
    gas_height = h * 0.58 / 0.3
    rng = random.Random(5)
    spheres = pack(count, lx, ly, gas_height, rng)
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, "bodies.csv"), "w") as f:
        f.write("x, y, z, radius\n")
        for x, y, z, r in spheres:
            f.write(f"{x:.7f}, {y:.7f}, {z:.7f}, {r:.7f}\n")
    mass = RHO * VOLUME * count
    rate = target / T_P                 # strain rate asked for [1/s]
    speed = rate * h                    # wall speed for it (a linear profile)
    dt = T_P * min(DT_MAX, step / target)
    # The lid's contacts with the top layer make it a stiff oscillator: its
    # explicit update needs dt small against sqrt(lid mass / stiffness), so
    # a longer step needs a heavier lid. A lighter lid (at the shorter steps
    # of the faster flows) follows the bed's dilation faster and damps
    # better: its mass goes with dt^2.
    lid_ratio = min(LID_MASS, max(0.04, LID_MASS * (dt / (DT_MAX * T_P)) ** 2))
    # The lid falls onto the gas and compresses it; the bed rebounds and
    # settles (within about 30 t_p in the 16 d cell). Then the discarded
    # strain, then the measured one.
    t_settle = settle * T_P
    t_discard = t_settle + strains[0] / rate
    end = t_settle + strains[1] / rate
    steps = int(math.ceil(end / dt))
    every = max(1, steps // 1000)
    force = P * area
    control = f"mass: {lid_ratio * mass:.6g}, force: [0.0, 0.0, {-force:.6g}]"
    if drive == "lid":
        floor_motion = None
        lid_motion = "{force_control: {%s, velocity: [%.6g, 0.0, 0.0]}}" % (control, speed)
    else:
        floor_motion = "{velocity: [%.6g, 0.0, 0.0]}" % speed
        lid_motion = "{force_control: {%s}}" % control
    # Velocity errors well below the relative velocity of neighbours.
    vtol = 0.03 * rate * D
    ztop = gas_height + 2 * D
    with open(os.path.join(directory, "shear.yaml"), "w") as f:
        f.write(CONFIG.format(
            p=P, target=target, v=speed, dt=dt, end=end, radius=D / 2, rho=RHO, lx=lx, ly=ly,
            zmax=ztop + 0.01, lid=gas_height + 0.2 * D, mu=MU_P, compliance=COMPLIANCE,
            vtol=vtol, every=every, grid_every=max(1, steps // 300), z0=CORE * D, z1=h - CORE * D, ztop=ztop,
            nz=int(round(ztop / (0.5 * D))),
            floor_extra=wall_yaml(wall_friction, floor_motion),
            lid_extra=wall_yaml(wall_friction, lid_motion)))
    return dict(target=target, drive=drive, count=count, area=area, h_nominal=h, speed=speed, rate=rate,
                lid_ratio=lid_ratio,
                dt=dt, end=end, steps=steps, t_discard=t_discard, mass=mass)


def read_csv(path):
    with open(path) as f:
        return [{k: float(v) for k, v in row.items() if k != "solver"}
                for row in csv.DictReader(f)]


def mean(values):
    return sum(values) / len(values) if values else float("nan")


def stderr_blocks(values, blocks=8):
    """Standard error of the mean from block averages (correlated samples)."""
    n = len(values) // blocks
    if n < 1:
        return float("nan")
    means = [mean(values[i * n:(i + 1) * n]) for i in range(blocks)]
    m = mean(means)
    return math.sqrt(sum((x - m) ** 2 for x in means) / (blocks * (blocks - 1)))


def velocity_profile(run_dir, t_from):
    """Time-averaged mean x velocity and packing fraction per layer."""
    import vtk
    from vtk.util.numpy_support import vtk_to_numpy
    frames = []
    with open(os.path.join(run_dir, "measurements_profile.pvd")) as f:
        for line in f:
            if "<DataSet" in line:
                t = float(line.split('timestep="')[1].split('"')[0])
                name = line.split('file="')[1].split('"')[0]
                if t >= t_from:
                    frames.append(os.path.join(run_dir, name))
    vx_sum = phi_sum = weight = None
    for path in frames:
        reader = vtk.vtkXMLImageDataReader()
        reader.SetFileName(path)
        reader.Update()
        image = reader.GetOutput()
        cells = image.GetCellData()
        count = vtk_to_numpy(cells.GetArray("bodies")).astype(float)
        vx = vtk_to_numpy(cells.GetArray("velocity"))[:, 0]
        phi = vtk_to_numpy(cells.GetArray("packing_fraction"))
        if vx_sum is None:
            vx_sum, phi_sum, weight = 0 * vx, 0 * phi, 0 * count
            bounds = image.GetBounds()
            nz = len(count)
        vx_sum = vx_sum + count * vx
        phi_sum = phi_sum + phi
        weight = weight + count
    dz = (bounds[5] - bounds[4]) / nz
    z = [bounds[4] + (k + 0.5) * dz for k in range(nz)]
    vx = [s / w if w > 0 else float("nan") for s, w in zip(vx_sum, weight)]
    phi = [s / len(frames) for s in phi_sum]
    return z, vx, phi, len(frames)


def line_fit(xs, ys):
    mx, my = mean(xs), mean(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx
    return slope, my - slope * mx


def analyse(directory, case):
    run_dir = os.path.join(directory, "run")
    # The lid slides in +x (the bed drags it back: wall_lid_fx < 0), or the
    # floor does (the bed drags the lid forward).
    sign = 1.0 if case["drive"] == "lid" else -1.0
    t0 = case["t_discard"]
    metrics = [r for r in read_csv(os.path.join(run_dir, "metrics.csv")) if r["time"] >= t0]
    area = case["area"]
    pressure = [r["wall_lid_fz"] / area for r in metrics]
    shear_lid = [-sign * r["wall_lid_fx"] / area for r in metrics]
    shear_floor = [sign * r["wall_floor_fx"] / area for r in metrics]
    # The mean of the two walls' loads: while the bed still gains momentum
    # along x (the slowest, fastest flows) the walls' loads differ by that
    # gain, and their mean is the shear stress at mid-height.
    shear = [0.5 * (a + b) for a, b in zip(shear_lid, shear_floor)]
    p, tau = mean(pressure), mean(shear)
    mu_series = [t / p for t in shear]
    z, vx, phi_layers, frames = velocity_profile(run_dir, t0)
    # The cell's height: the top of the layers the bodies fill.
    filled = [zz for zz, f in zip(z, phi_layers) if f > 0.2]
    height = max(filled) + 0.25 * D if filled else float("nan")
    core = [(zz, v) for zz, v in zip(z, vx)
            if CORE * D <= zz <= height - CORE * D and math.isfinite(v)]
    rate, _ = line_fit([c[0] for c in core], [c[1] for c in core]) if len(core) > 2 \
        else (float("nan"), float("nan"))
    rate *= sign
    stress = [r for r in read_csv(os.path.join(run_dir, "measurements_core_stress.csv"))
              if r["time"] >= t0]
    s_xz = mean([r["s_xz"] for r in stress])
    s_zx = mean([r["s_zx"] for r in stress])
    s_zz = mean([r["s_zz"] for r in stress])
    packing = [r["packing_fraction"] for r in
               read_csv(os.path.join(run_dir, "measurements_core_phi.csv")) if r["time"] >= t0]
    inertial = rate * D / math.sqrt(p / RHO)
    return dict(target=case["target"], drive=case["drive"], count=case["count"], speed=case["speed"],
                steps=case["steps"], dt=case["dt"], height=height,
                strain=case["speed"] * (case["end"] - t0) / height, frames=frames,
                rate=rate, slip=1 - rate * height / case["speed"],
                inertial=inertial, pressure=p, tau=tau, tau_lid=mean(shear_lid),
                tau_floor=mean(shear_floor),
                mu=tau / p, mu_err=stderr_blocks(mu_series),
                mu_lw=-sign * 0.5 * (s_xz + s_zx) / s_zz, p_lw=s_zz,
                phi=mean(packing), phi_err=stderr_blocks(packing),
                profile=(z, vx, phi_layers))


def rheology(i, mu_s, mu_2, i_0):
    return mu_s + (mu_2 - mu_s) / (i_0 / i + 1)


def fit_rheology(results, i_0=None):
    """Least squares of mu(I) weighted by the measured errors; with i_0
    given, only mu_s and mu_2 are fitted."""
    from scipy.optimize import curve_fit
    xs = [r["inertial"] for r in results]
    ys = [r["mu"] for r in results]
    sigma = [max(r["mu_err"], 0.005) if math.isfinite(r["mu_err"]) else 0.01 for r in results]
    if i_0 is not None:
        params, cov = curve_fit(lambda i, mu_s, mu_2: rheology(i, mu_s, mu_2, i_0), xs, ys,
                                p0=(min(ys), max(ys) + 0.1), sigma=sigma, absolute_sigma=True)
        return list(params) + [i_0], [math.sqrt(max(c, 0)) for c in cov.diagonal()] + [0.0]
    params, cov = curve_fit(rheology, xs, ys, p0=(min(ys), max(ys) + 0.1, 0.3), sigma=sigma,
                            absolute_sigma=True, bounds=([0, 0, 1e-3], [2, 2, 10]),
                            maxfev=20000)
    return list(params), [math.sqrt(max(c, 0)) for c in cov.diagonal()]


def plot(results, fitted, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, (left, middle, right) = plt.subplots(1, 3, figsize=(14, 4.2))
    xs = [r["inertial"] for r in results]
    left.errorbar(xs, [r["mu"] for r in results], yerr=[r["mu_err"] for r in results],
                  fmt="o", label="grains: wall loads")
    left.plot(xs, [r["mu_lw"] for r in results], "x", label="grains: Love-Weber stress of the core")
    lo, hi = min(xs) / 2, max(xs) * 2
    grid = [lo * (hi / lo) ** (k / 200) for k in range(201)]
    if fitted is not None:
        (mu_s, mu_2, i_0), _ = fitted
        left.plot(grid, [rheology(g, mu_s, mu_2, i_0) for g in grid], "-",
                  label=f"fit: mu_s {mu_s:.3f}, mu_2 {mu_2:.3f}, I_0 {i_0:.3f}")
    left.plot(grid, [rheology(g, 0.382, 0.643, 0.279) for g in grid], "--", color="grey",
              label="Jop et al. (2006), glass beads")
    left.set_xscale("log")
    left.set_xlabel("inertial number I")
    left.set_ylabel("effective friction mu = tau / P")
    left.legend(fontsize=8)
    middle.errorbar(xs, [r["phi"] for r in results], yerr=[r["phi_err"] for r in results],
                    fmt="o")
    middle.set_xscale("log")
    middle.set_xlabel("inertial number I")
    middle.set_ylabel("packing fraction of the core")
    for r in results:
        z, vx, _ = r["profile"]
        pts = [(zz / D, v / r["speed"] if r["drive"] == "lid" else 1 - v / r["speed"]) for zz, v in zip(z, vx) if math.isfinite(v)]
        right.plot([p[1] for p in pts], [p[0] for p in pts], ".-", ms=3,
                   label=f"I = {r['inertial']:.2g}")
    right.axhline(CORE, color="grey", lw=0.5)
    right.set_xlabel("mean x velocity / wall speed")
    right.set_ylabel("z / d")
    right.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--inertial", default="0.002,0.005,0.012,0.03,0.07,0.15,0.3",
                        help="target inertial numbers, comma separated")
    parser.add_argument("--ranks", type=int, default=1)
    parser.add_argument("--out", default=os.path.join(ROOT, "output", "validate-mu-i"))
    parser.add_argument("--grains", default=os.path.join(ROOT, "build", "grains"))
    parser.add_argument("--drive", choices=("lid", "floor"), default="lid",
                        help="which wall slides (lid: the force-controlled lid slides)")
    parser.add_argument("--smooth-walls", action="store_true",
                        help="walls with the spheres' friction instead of sticky ones")
    parser.add_argument("--analyse-only", action="store_true",
                        help="analyse the runs already in --out")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    targets = [float(x) for x in args.inertial.split(",")]
    size, strains, step, settle = (6, 5, 14), (2.0, 6.0), 0.002, 25.0
    if args.quick:
        targets, size, strains, step, settle = [0.05, 0.25], (5, 4, 10), (0.5, 1.5), 0.005, 20.0
    results = []
    for target in targets:
        directory = os.path.join(args.out, "I%g" % target)
        # Slow cases cost steps: fewer strain units at the lowest I.
        case_strains = strains
        if not args.quick and target < 0.05:
            case_strains = (1.0, 4.0) if target >= 0.01 else \
                (0.7, 2.5) if target >= 0.004 else (0.5, 1.7)
        case = write_case(directory, target, size, case_strains, args.drive,
                          not args.smooth_walls, step, settle)
        print(f"I = {target:g}: {case['count']} spheres, lid speed {case['speed']:.4g} m/s, "
              f"lid mass {case['lid_ratio']:.3g} x the bed's, dt {case['dt']:.3g} s, "
              f"{case['steps']} steps", flush=True)
        if not args.analyse_only:
            run_case(args.grains, directory, "shear.yaml", args.ranks)
        results.append(analyse(directory, case))
    results.sort(key=lambda r: r["inertial"])
    print()
    print("   I target  I measured  gamma_dot [1/s]  P [Pa]   tau [Pa]  mu      +-      "
          "mu (core)  P (core)  phi     slip   strain")
    for r in results:
        print(f"{r['target']:10.4g}  {r['inertial']:10.4g}  {r['rate']:15.4g}  {r['pressure']:7.1f}"
              f"  {r['tau']:8.1f}  {r['mu']:.4f}  {r['mu_err']:.4f}  {r['mu_lw']:9.4f}"
              f"  {r['p_lw']:8.1f}  {r['phi']:.4f}  {r['slip']:5.2f}  {r['strain']:6.2f}")
    fields = [k for k in results[0] if k != "profile"]
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "mu_i.csv"), "w") as f:
        writer = csv.DictWriter(f, fieldnames=fields, extrasaction="ignore")
        writer.writeheader()
        writer.writerows(results)
    fitted = fixed = None
    if len(results) >= 4:
        try:
            fitted = fit_rheology(results)
            fixed = fit_rheology(results, i_0=0.279)
        except (RuntimeError, ValueError) as error:
            print("fit failed:", error)
    if fitted is not None:
        (mu_s, mu_2, i_0), (e_s, e_2, e_0) = fitted
        slope, mu_0 = line_fit([r["inertial"] for r in results], [r["mu"] for r in results])
        phi_slope, phi_0 = line_fit([r["inertial"] for r in results],
                                    [r["phi"] for r in results])
        print(f"\nmu(I) fit over {len(results)} rates: mu_s = {mu_s:.3f} +- {e_s:.3f}, "
              f"mu_2 = {mu_2:.3f} +- {e_2:.3f}, I_0 = {i_0:.3f} +- {e_0:.3f}; "
              f"initial slope (mu_2 - mu_s) / I_0 = {(mu_2 - mu_s) / i_0:.3f}")
        print(f"with I_0 = 0.279 fixed: mu_s = {fixed[0][0]:.3f} +- {fixed[1][0]:.3f}, "
              f"mu_2 = {fixed[0][1]:.3f} +- {fixed[1][1]:.3f}")
        print(f"straight lines: mu = {mu_0:.3f} + {slope:.3f} I, "
              f"phi = {phi_0:.4f} - {-phi_slope:.4f} I")
        print("Jop, Forterre & Pouliquen (2006), glass beads: mu_s = 0.382, mu_2 = 0.643, "
              "I_0 = 0.279 (initial slope 0.935)")
        with open(os.path.join(args.out, "fit.txt"), "w") as f:
            f.write(f"mu_s {mu_s:.6f} {e_s:.6f}\nmu_2 {mu_2:.6f} {e_2:.6f}\n"
                    f"I_0 {i_0:.6f} {e_0:.6f}\n"
                    f"fixed_I_0 mu_s {fixed[0][0]:.6f} mu_2 {fixed[0][1]:.6f}\n"
                    f"line mu_0 {mu_0:.6f} slope {slope:.6f}\n"
                    f"line phi_0 {phi_0:.6f} slope {phi_slope:.6f}\n")
    status = 0
    if args.check:
        keys = ("inertial", "rate", "pressure", "tau", "mu", "mu_lw", "p_lw", "phi", "height")
        finite = all(math.isfinite(r[k]) for r in results for k in keys)
        in_range = all(0.1 < r["mu"] < 1 and 0.45 < r["phi"] < 0.7 and r["inertial"] > 0
                       for r in results)
        monotone = (results[-1]["mu"] > results[0]["mu"] and
                    results[-1]["phi"] < results[0]["phi"])
        fit_ok = True
        if not args.quick:
            fit_ok = fitted is not None and (0.2 < fitted[0][0] < 0.5 and
                                             fitted[0][0] < fitted[0][1])
        if not (finite and in_range and monotone and fit_ok):
            print(f"FAIL: finite {finite}; 0.1 < mu < 1 and 0.45 < phi < 0.7: {in_range}; "
                  f"mu rises and phi falls with I: {monotone}; fit in range: {fit_ok}")
            status = 1
    try:
        plot(results, fitted, os.path.join(args.out, "mu_i.png"))
        print("wrote", os.path.join(args.out, "mu_i.png"))
    except ImportError:
        pass
    return status


if __name__ == "__main__":
    sys.exit(main())
