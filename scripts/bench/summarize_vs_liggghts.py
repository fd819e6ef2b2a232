#!/usr/bin/python3
"""Summarise scripts/bench/vs_liggghts.sh: one Markdown table row per
(N, mu, ranks, code) and the ratios LIGGGHTS / grains of the median wall
times to rest.

Usage: summarize_vs_liggghts.py [--runs] BENCH_OUT
--runs: also a table of every run (scripts/bench/seed_sweep.sh, whose runs
differ in their initial state, not only in the machine's noise).
Run directories: <code>_n<N>_mu<mu>_p<ranks>_r<rep> (code grains or liggghts;
the older names without _mu<mu> are read as mu = 0.3, the deck's value then).

Two rest criteria, each the first output time from which the total kinetic
energy (translational + rotational) stays at or below a threshold to the end
of the run:
  A  1e-4 N m g r (the criterion of the earlier tables);
  B  1e-5 of the run's own peak kinetic energy (grains samples every step,
     LIGGGHTS every thermo row, 10 ms in vs_liggghts.sh).
For each, per run: the physical time of rest and the wall time spent until
then (grains: the sum of metrics.csv's wall_s up to that row; LIGGGHTS: the
CPU column of its thermo row; set-up excluded in both). A run that has not
come to rest by its end counts as 'later than the end': medians are taken
with it above every run that rested, and a median that falls on such a run
is printed as '> x', x the median with the run's total wall (or end time) in
its place -- a lower bound; such runs are also listed by name. The minimum is
over the runs that rested. A rest that starts at the run's last output row is
flagged (one sample is weak evidence of rest).

Other columns: overlap/r, the largest overlap from rest A on (grains:
metrics.csv max_overlap; LIGGGHTS: the thermo column of the largest
sphere-sphere overlap, and the floor/cylinder overlaps of the final
positions), or of the last row when the run never rests; steps to rest A;
grains' iterations per step (metrics.csv 'iterations', summed over ReLCP
re-solves) in the impact phase -- from the first step to rest A, free fall
included -- and at rest, after rest A to the end ('-' without rest); v_med,
the median sphere speed of the final state of the runs at rest by A (grains:
the last VTK frame, read with VTK's Python if present; LIGGGHTS:
final_positions.txt); v_rms, the
root-mean-square sphere speed over the rows after rest A from the
translational kinetic energy (LIGGGHTS: KinEng; grains: the optional column
kinetic_energy_translational). Numbers are the median over repeats. Runs
whose overlap at rest exceeds what their code is held to (grains 0.1 % of r,
LIGGGHTS 1 %) are named below the table, and so are grains runs whose
config_used.yaml has another mu than the directory's or contact laws other
than LIGGGHTS's (friction not coulomb, or a rolling or spinning resistance
other than the coefficient LIGGGHTS ran with: parameters.txt's `rolling`, 0
when absent, which bounds both there)."""
import csv
import math
import os
import re
import statistics
import sys
import xml.etree.ElementTree as ET

RADIUS, MASS, G, CYLINDER = 0.1, 6.28, 9.81, 2.0
ABSOLUTE_REST = 1e-4  # x N m g r
PEAK_REST = 1e-5      # x the run's peak kinetic energy
CRITERIA = ("A", "B")
TARGET_OVERLAP = {"grains": 1e-3, "liggghts": 1e-2}  # x r: the accuracy each is held to
DIRECTORY = re.compile(r"(grains|liggghts)_n(\d+)(?:_mu([0-9.eE+-]+))?_p(\d+)_r(\d+)")


def rest_index(energies, threshold):
    """Index of the first row from which every energy is <= threshold, or None."""
    index = None
    for i in range(len(energies) - 1, -1, -1):
        if energies[i] > threshold:
            break
        index = i
    return index


class Run:
    """One run's time series; the readers fill the lists row by row."""

    def __init__(self, name, code, n, mu, ranks):
        self.name, self.code, self.n, self.mu, self.ranks = name, code, n, mu, ranks
        self.steps, self.times, self.energies, self.walls = [], [], [], []  # walls: cumulative
        self.overlaps, self.iterations, self.translational = [], None, None
        self.final_overlap = 0.0  # wall overlaps of the final state (LIGGGHTS)
        self.final_speeds = None
        self.parameters = {}  # LIGGGHTS: youngs, dt as the script passed them
        self.contact = {}     # grains: the contact settings it ran with

    def analyse(self):
        n = self.n
        thresholds = {"A": ABSOLUTE_REST * n * MASS * G * RADIUS,
                      "B": PEAK_REST * max(self.energies)}
        self.rest = {}  # criterion -> row index or None
        for c in CRITERIA:
            self.rest[c] = rest_index(self.energies, thresholds[c])
        self.threshold = thresholds
        i = self.rest["A"]
        after = slice(i, None) if i is not None else slice(-1, None)
        self.overlap = max(max(self.overlaps[after]), self.final_overlap)
        self.impact_iterations = self.rest_iterations = None
        if self.iterations is not None:
            impact = self.iterations[:i + 1] if i is not None else self.iterations
            self.impact_iterations = statistics.mean(impact)
            if i is not None and i + 1 < len(self.iterations):
                self.rest_iterations = statistics.mean(self.iterations[i + 1:])
        self.v_rms = None
        if self.translational is not None and i is not None and i + 1 < len(self.translational):
            self.v_rms = statistics.median(math.sqrt(2.0 * max(e, 0.0) / (n * MASS))
                                           for e in self.translational[i + 1:])
        self.v_med = (statistics.median(self.final_speeds)
                      if self.final_speeds and i is not None else None)  # only at rest


def read_grains(run, path):
    with open(os.path.join(path, "metrics.csv")) as f:
        rows = list(csv.DictReader(f))
    if not rows:
        raise ValueError("metrics.csv has no rows")
    wall = 0.0
    for r in rows:
        run.steps.append(int(float(r["step"])))
        run.times.append(float(r["time"]))
        run.energies.append(float(r["kinetic_energy"]))
        wall += float(r["wall_s"])
        run.walls.append(wall)
        run.overlaps.append(float(r["max_overlap"]))
    run.iterations = [float(r["iterations"]) for r in rows]
    if "kinetic_energy_translational" in rows[0]:
        run.translational = [float(r["kinetic_energy_translational"]) for r in rows]
    run.final_speeds = grains_final_speeds(path)
    run.contact = grains_contact_settings(path)


def grains_contact_settings(path):
    """The contact: block of config_used.yaml as strings ({} if absent)."""
    settings, inside = {}, False
    config = os.path.join(path, "config_used.yaml")
    if not os.path.exists(config):
        return settings
    with open(config) as f:
        for line in f:
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            if not line[0].isspace():
                inside = line.split(":")[0].strip() == "contact"
            elif inside and ":" in line:
                key, value = line.split(":", 1)
                settings[key.strip()] = value.split("#")[0].strip()
    return settings


def vtk_frames(path):
    """(time, file) of every frame of a run's bodies.pvd, by time ([] without it)."""
    pvd = os.path.join(path, "bodies.pvd")
    if not os.path.exists(pvd):
        return []
    sets = ET.parse(pvd).getroot().iter("DataSet")
    return sorted((float(d.get("timestep")), os.path.join(path, d.get("file"))) for d in sets)


def read_vtk_frame(file):
    """The vtkPolyData of one frame (.vtp or .pvtp), or None without VTK's Python."""
    try:
        from vtkmodules.vtkIOXML import vtkXMLPPolyDataReader, vtkXMLPolyDataReader
    except ImportError:
        return None
    reader = vtkXMLPPolyDataReader() if file.endswith(".pvtp") else vtkXMLPolyDataReader()
    reader.SetFileName(file)
    reader.Update()
    return reader.GetOutput()


def grains_final_speeds(path):
    """Sphere speeds of the last VTK frame (bodies.pvd), or None."""
    frames = vtk_frames(path)
    if not frames:
        return None
    data = read_vtk_frame(frames[-1][1])
    velocity = data.GetPointData().GetArray("velocity") if data is not None else None
    if velocity is None:
        return None
    return [math.sqrt(sum(c * c for c in velocity.GetTuple3(k)))
            for k in range(velocity.GetNumberOfTuples())]


def read_liggghts(run, path):
    header, table = None, []
    with open(os.path.join(path, "log.liggghts")) as f:
        for line in f:
            words = line.split()
            if words[:2] == ["Step", "Time"]:
                header, table = words, []
            elif header and words[:1] == ["Loop"]:
                break
            elif header and len(words) == len(header):
                try:
                    table.append([float(w) for w in words])
                except ValueError:
                    pass
    if not table:
        raise ValueError("no thermo rows in log.liggghts")
    col = {name: k for k, name in enumerate(header)}
    for r in table:
        run.steps.append(int(r[col["Step"]]))
        run.times.append(r[col["Time"]])
        run.energies.append(r[col["KinEng"]] + r[col["rke"]])
        run.walls.append(r[col["CPU"]])
        run.overlaps.append(r[col["maxoverl"]])  # -1e20 while nothing touches
    run.translational = [r[col["KinEng"]] for r in table]
    final = os.path.join(path, "final_positions.txt")
    if os.path.exists(final):
        with open(final) as f:
            text = f.read().split("ITEM: ATOMS")[-1].splitlines()
        names = text[0].split()
        speeds = []
        for line in text[1:]:
            if not line.strip():
                continue
            v = dict(zip(names, (float(w) for w in line.split())))
            x, y, z, r = v["x"], v["y"], v["z"], v["radius"]
            run.final_overlap = max(run.final_overlap, r - z, math.hypot(x, y) + r - CYLINDER)
            if "vx" in v:
                speeds.append(math.sqrt(v["vx"] ** 2 + v["vy"] ** 2 + v["vz"] ** 2))
        run.final_speeds = speeds or None
    for file in ("parameters.txt", "stiffness_and_dt.txt"):  # the latter: older runs
        if os.path.exists(os.path.join(path, file)):
            with open(os.path.join(path, file)) as f:
                words = f.read().split()
            run.parameters = (dict(zip(words[::2], words[1::2])) if file == "parameters.txt"
                              else {"youngs": words[0], "dt": words[1]})
            break


def censored_median(values):
    """values: (number, rested). Returns (median, exact): exact False means the
    median falls on a run that never rested and the number is a lower bound."""
    ordered = sorted(values, key=lambda v: (not v[1], v[0]))  # rested first, then the rest
    inf = [math.inf if not rested else x for x, rested in ordered]
    lower = statistics.median(x for x, _ in ordered)
    if math.isinf(statistics.median(inf)):
        return lower, False
    return statistics.median(inf), True


def cell(value, exact=True, digits=2):
    if value is None:
        return "-"
    return f"{'' if exact else '> '}{value:.{digits}f}"


def summarise(runs):
    groups = {}
    for run in runs:
        groups.setdefault((run.n, run.mu, run.ranks, run.code), []).append(run)
    lines = []
    head = ["N", "mu", "ranks", "code",
            "at rest A", "t_rest A med / min [s]", "wall A med / min [s]",
            "at rest B", "t_rest B med / min [s]", "wall B med / min [s]",
            "overlap/r", "steps to A", "it/step impact", "it/step rest",
            "v_med end [mm/s]", "v_rms rest [mm/s]"]
    lines.append("| " + " | ".join(head) + " |")
    lines.append("|" + "|".join("---:" for _ in head) + "|")
    medians = {}
    for key, group in sorted(groups.items()):
        n, mu, ranks, code = key
        row = [str(n), f"{mu:g}", str(ranks), code]
        for c in CRITERIA:
            rested = [r for r in group if r.rest[c] is not None]
            t = censored_median([(r.times[r.rest[c]], True) if r.rest[c] is not None
                                 else (r.times[-1], False) for r in group])
            w = censored_median([(r.walls[r.rest[c]], True) if r.rest[c] is not None
                                 else (r.walls[-1], False) for r in group])
            medians[(key, c)] = w
            t_min = min((r.times[r.rest[c]] for r in rested), default=None)
            w_min = min((r.walls[r.rest[c]] for r in rested), default=None)
            row += [f"{len(rested)}/{len(group)}",
                    f"{cell(*t)} / {cell(t_min)}", f"{cell(*w)} / {cell(w_min)}"]
        row.append(f"{100 * max(r.overlap for r in group) / RADIUS:.2f}%")

        def median_of(values, digits):
            values = [v for v in values if v is not None]
            if not values:
                return "-"
            if digits is None:  # three significant digits: speeds span decades
                return f"{statistics.median(values):#.3g}"
            return cell(statistics.median(values), digits=digits)
        row.append(median_of([r.steps[r.rest["A"]] if r.rest["A"] is not None else None
                              for r in group], 0))
        row.append(median_of([r.impact_iterations for r in group], 1))
        row.append(median_of([r.rest_iterations for r in group], 1))
        row.append(median_of([1e3 * r.v_med if r.v_med is not None else None for r in group],
                             None))
        row.append(median_of([1e3 * r.v_rms if r.v_rms is not None else None for r in group],
                             None))
        lines.append("| " + " | ".join(row) + " |")
    lines.append("")
    for (n, mu, ranks, code) in sorted(groups):
        if code != "grains" or (n, mu, ranks, "liggghts") not in groups:
            continue
        parts = []
        for c, name in (("A", "KE <= 1e-4 N m g r"), ("B", "KE <= 1e-5 peak KE")):
            g, g_exact = medians[((n, mu, ranks, "grains"), c)]
            l, l_exact = medians[((n, mu, ranks, "liggghts"), c)]
            if g_exact and l_exact:
                ratio = f"{l / g:.2f}"
            elif g_exact:
                ratio = f"> {l / g:.2f} (LIGGGHTS not at rest)"
            elif l_exact:
                ratio = f"< {l / g:.2f} (grains not at rest)"
            else:
                ratio = "n/a (neither at rest)"
            parts.append(f"{ratio} [{c}: {name}]")
        lines.append(f"N = {n}, mu = {mu:g}, {ranks} rank(s): LIGGGHTS / grains median wall "
                     f"time to rest = " + ", ".join(parts))
    stiffness = sorted({(r.n, r.mu, r.parameters["youngs"], r.parameters["dt"])
                        for r in runs if "youngs" in r.parameters and "dt" in r.parameters})
    if stiffness:
        lines.append("")
        lines += [f"LIGGGHTS N = {n}, mu = {mu:g}: E = {float(e):.3g} Pa, dt = {float(dt):.3g} s"
                  for n, mu, e, dt in stiffness]
    # The rolling resistance LIGGGHTS ran with, per case (parameters.txt; none: 0).
    liggghts_rolling = {}
    for r in runs:
        if r.code == "liggghts":
            liggghts_rolling.setdefault((r.n, r.mu, r.ranks), set()).add(
                float(r.parameters.get("rolling", 0)))
    rollings = sorted(set().union(*liggghts_rolling.values())) if liggghts_rolling else [0.0]
    if any(rollings):
        lines.append("")
        lines.append("Rolling and spinning resistance on both sides: "
                     + ", ".join(f"{x:g}" for x in rollings))
    notes = []
    for run in runs:
        c = run.contact
        if "mu" in c and float(c["mu"]) != run.mu:
            notes.append(f"{run.name}: ran with contact.mu = {c['mu']}, not {run.mu:g}")
        rolling = float(c.get("rolling_friction", 0) or 0)
        spinning = float(c.get("spinning_friction", 0) or 0)
        partner = liggghts_rolling.get((run.n, run.mu, run.ranks), {0.0})
        unlike = (c.get("friction", "coulomb") not in ("coulomb", "coulomb_rolling")
                  or partner != {rolling} or partner != {spinning})
        if run.code == "grains" and unlike:
            notes.append(f"{run.name}: contact laws differ from LIGGGHTS's (friction "
                         f"{c.get('friction')}, rolling {c.get('rolling_friction', 0)} against "
                         f"{', '.join(f'{x:g}' for x in sorted(partner))}, "
                         f"spinning {c.get('spinning_friction', 0)}): not a like-for-like row")
        target = TARGET_OVERLAP[run.code]
        if run.overlap > 1.01 * target * RADIUS:
            notes.append(f"{run.name}: overlap at rest {100 * run.overlap / RADIUS:.2f}% of r, "
                         f"above the {100 * target:g}% it is held to")
        for c in CRITERIA:
            if run.rest[c] is None:
                notes.append(f"{run.name}: not at rest by criterion {c} by the end "
                             f"(t = {run.times[-1]:.2f} s, KE {run.energies[-1]:.3g} J > "
                             f"{run.threshold[c]:.3g} J)")
            elif run.rest[c] == len(run.times) - 1 and len(run.times) > 1:
                notes.append(f"{run.name}: criterion {c} met only at the last output row "
                             f"(t = {run.times[-1]:.2f} s)")
    if notes:
        lines.append("")
        lines += ["- " + note for note in notes]
    return lines


def run_rows(runs):
    """One Markdown row per run: its rest times, wall times to rest and final
    median speed ('-' where it never rested)."""
    def at(run, criterion, values, scale=1.0):
        i = run.rest[criterion]
        return "-" if i is None else f"{scale * values[i]:.2f}"
    lines = ["| run | t_rest A [s] | wall A [s] | t_rest B [s] | wall B [s] | v_med end [mm/s] |",
             "|---|---:|---:|---:|---:|---:|"]
    for run in runs:
        v_med = "-" if run.v_med is None else f"{1e3 * run.v_med:.3g}"
        lines.append(f"| {run.name} | {at(run, 'A', run.times)} | {at(run, 'A', run.walls)} | "
                     f"{at(run, 'B', run.times)} | {at(run, 'B', run.walls)} | {v_med} |")
    return lines


def main():
    arguments = sys.argv[1:]
    per_run = "--runs" in arguments
    arguments = [a for a in arguments if a != "--runs"]
    if len(arguments) != 1:
        sys.exit(__doc__)
    root = arguments[0]
    runs, problems = [], []
    for name in sorted(os.listdir(root)):
        m = DIRECTORY.fullmatch(name)
        if not m or not os.path.isdir(os.path.join(root, name)):
            continue
        code, n, ranks = m.group(1), int(m.group(2)), int(m.group(4))
        mu = float(m.group(3)) if m.group(3) else 0.3
        run = Run(name, code, n, mu, ranks)
        if os.path.exists(os.path.join(root, name, "FAILED")):
            problems.append(f"- {name}: FAILED (see {name}.log or {name}/stdout.txt); "
                            "left out of the table")
            continue
        try:
            (read_grains if code == "grains" else read_liggghts)(run, os.path.join(root, name))
            run.analyse()
        except (OSError, KeyError, ValueError, IndexError, ET.ParseError) as error:
            problems.append(f"- {name}: unreadable ({error!r})")
            continue
        runs.append(run)
    print("Rest A: total KE <= 1e-4 N m g r from then on; rest B: total KE <= 1e-5 of the "
          "run's peak from then on. Wall time: set-up excluded. Medians over repeats "
          "('> x': the median run never rested, x a lower bound); minima over the runs "
          "that rested. it/step: grains' iterations per step from the first step to rest A "
          "(free fall included) and after it. v_med end: median sphere speed of the final "
          "state (runs at rest by A); v_rms rest: r.m.s. translational speed after rest A "
          "(grains: needs metrics.csv kinetic_energy_translational). Ratios LIGGGHTS / "
          "grains > 1: grains is faster.")
    print()
    for line in summarise(runs) if runs else ["no runs found"]:
        print(line)
    if problems:
        print()
        print("\n".join(problems))
    if per_run and runs:
        print()
        print("\n".join(run_rows(runs)))


if __name__ == "__main__":
    main()
