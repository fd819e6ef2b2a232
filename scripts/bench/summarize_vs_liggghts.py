#!/usr/bin/python3
"""Summarise scripts/bench/vs_liggghts.sh. For every run: the time of rest
(the first output time from which the total kinetic energy, translational plus
rotational, stays below 1e-4 N m g r to the end of the run), the wall time
spent until then (grains: the sum of metrics.csv's wall_s; LIGGGHTS: the CPU
column of its thermo output; set-up excluded in both), and the largest
overlap at rest as a fraction of r (grains: metrics.csv max_overlap over the
rest period; LIGGGHTS: the largest sphere-sphere overlap of the thermo rows
over the rest period and the floor/cylinder overlaps of the final positions).
Per N the median and minimum over repeats, and the ratio LIGGGHTS / grains of
the median wall times to rest. Directory names: <code>_n<N>_p<ranks>_r<rep>."""
import csv
import math
import os
import re
import statistics
import sys

RADIUS, MASS, G, CYLINDER = 0.1, 6.28, 9.81, 2.0
REST_FRACTION = 1e-4


def rest_index(times, energies, threshold):
    """Index of the first row from which every energy is <= threshold, or None."""
    index = None
    for i in range(len(energies) - 1, -1, -1):
        if energies[i] > threshold:
            break
        index = i
    return index


def grains_run(path, n):
    with open(os.path.join(path, "metrics.csv")) as f:
        rows = list(csv.DictReader(f))
    times = [float(r["time"]) for r in rows]
    energies = [float(r["kinetic_energy"]) for r in rows]
    i = rest_index(times, energies, REST_FRACTION * n * MASS * G * RADIUS)
    if i is None:
        return None
    wall = sum(float(r["wall_s"]) for r in rows[:i + 1])
    overlap = max(float(r["max_overlap"]) for r in rows[i:])
    steps = i + 1
    iterations = statistics.mean(float(r["iterations"]) for r in rows[:i + 1])
    return times[i], wall, overlap, f"{steps} steps, {iterations:.0f} it/step"


def liggghts_run(path, n):
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
        return None
    col = {name: k for k, name in enumerate(header)}
    times = [r[col["Time"]] for r in table]
    energies = [r[col["KinEng"]] + r[col["rke"]] for r in table]
    i = rest_index(times, energies, REST_FRACTION * n * MASS * G * RADIUS)
    if i is None:
        return None
    overlap = max(r[col["maxoverl"]] for r in table[i:])
    final = os.path.join(path, "final_positions.txt")
    if os.path.exists(final):
        with open(final) as f:
            lines = f.read().split("ITEM: ATOMS")[-1].splitlines()[1:]
        for line in lines:
            _, x, y, z, r = (float(w) for w in line.split()[:5])
            overlap = max(overlap, r - z, math.hypot(x, y) + r - CYLINDER)
    steps = int(table[i][col["Step"]])
    return times[i], table[i][col["CPU"]], overlap, f"{steps} steps"


def main():
    root = sys.argv[1]
    cases = {}
    for name in sorted(os.listdir(root)):
        m = re.fullmatch(r"(grains|liggghts)_n(\d+)_p(\d+)_r(\d+)", name)
        if not m:
            continue
        code, n, ranks = m.group(1), int(m.group(2)), int(m.group(3))
        reader = grains_run if code == "grains" else liggghts_run
        try:
            result = reader(os.path.join(root, name), n)
        except (OSError, KeyError, ValueError) as error:
            print(f"{name}: unreadable ({error})")
            continue
        cases.setdefault((n, ranks, code), []).append(result)
    print(f"{'N':>5} {'ranks':>5} {'code':>8} {'t_rest [s]':>10} {'wall med [s]':>12} "
          f"{'min':>8} {'overlap/r':>9}  detail")
    medians = {}
    for (n, ranks, code), results in sorted(cases.items()):
        done = [r for r in results if r is not None]
        if len(done) < len(results) or not done:
            print(f"{n:>5} {ranks:>5} {code:>8} not at rest by the end of "
                  f"{len(results) - len(done)} of {len(results)} runs")
            continue
        walls = [r[1] for r in done]
        medians[(n, ranks, code)] = statistics.median(walls)
        print(f"{n:>5} {ranks:>5} {code:>8} {statistics.median(r[0] for r in done):>10.2f} "
              f"{statistics.median(walls):>12.2f} {min(walls):>8.2f} "
              f"{100 * max(r[2] for r in done) / RADIUS:>8.2f}%  {done[0][3]}")
    for (n, ranks, code), wall in sorted(medians.items()):
        other = medians.get((n, ranks, "liggghts"))
        if code == "grains" and other:
            print(f"N = {n}, {ranks} rank(s): LIGGGHTS / grains wall time to rest = "
                  f"{other / wall:.2f}")


if __name__ == "__main__":
    main()
