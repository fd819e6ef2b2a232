#!/usr/bin/python3
"""Summarise scripts/bench/pile_sizes.sh: per pile size and layout, over the
repeats, the median and minimum of the mean wall time per step, the time per
step per body, solver iterations per step, contacts at the last step, the
share of each phase (metrics.csv columns time_*_s, rank 0), the peak RSS
(summed over ranks, from <run>.rss) and per body, the set-up time (the
process's elapsed time outside the steps: start-up, generating the bodies,
MPI) and the minor page faults of the whole run per step. Times per step
average the same steps of every run: from step SKIP + 1 to the last step the
shortest run has. Directory names are n<N>_p<ranks>_t<threads>_r<repeat>.
Usage: summarize_piles.py OUT_DIR [SKIP=2]"""
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_runs import load_runs, mean  # noqa: E402

PHASES = ["domain", "detect", "assemble", "solve", "update"]
root = sys.argv[1]
skip = int(sys.argv[2]) if len(sys.argv) > 2 else 2


def time_record(path):
    """Per-rank lines "peak_rss_kB elapsed_s minor_faults" of /usr/bin/time:
    (kB summed over ranks, longest elapsed s, faults summed over ranks), or
    None without the file."""
    if not os.path.exists(path):
        return None
    lines = [line.split() for line in open(path)]
    values = [(int(f[0]), float(f[1]), int(f[2])) for f in lines if len(f) == 3 and f[0].isdigit()]
    if not values:
        return None
    return (sum(v[0] for v in values), max(v[1] for v in values), sum(v[2] for v in values))


runs_by_case = load_runs(
    root, r"n(\d+)_p(\d+)_t(\d+)_r(\d+)",
    lambda m: (int(m.group(1)), int(m.group(2)), int(m.group(3))),
    extra=lambda name: time_record(os.path.join(root, name + ".rss")))
if not runs_by_case:
    sys.exit(f"no runs in {root}")
last = min(int(rows[-1]["step"]) for runs in runs_by_case.values() for rows, _ in runs)
if last <= skip:
    sys.exit(f"the shortest run has {last} steps, not more than SKIP = {skip}")


def window(rows):
    return [r for r in rows if skip < int(r["step"]) <= last]


def median_or_none(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


print(f"time per step: mean over steps {skip + 1}-{last} of every run; peak RSS over the whole run")
print(f"{'N':>7} {'ranks':>5} {'thr':>3} {'ms/step med':>11} {'min':>9} {'us/step/body':>12} "
      f"{'it/step':>7} {'contacts':>8} " + " ".join(f"{p:>8}" for p in PHASES)
      + f" {'RSS MB':>8} {'B/body':>7} {'setup s':>7} {'pf/step':>8} {'runs':>4}")
summary = {}
for (n, ranks, threads), runs in sorted(runs_by_case.items()):
    per_step = [mean(window(rows), "wall_s", 1e3) for rows, _ in runs]
    med = statistics.median(per_step)
    iterations = statistics.median(mean(window(rows), "iterations") for rows, _ in runs)
    phase = {p: sum(mean(window(rows), f"time_{p}_s") for rows, _ in runs) for p in PHASES}
    total = sum(phase.values()) or 1.0
    shares = " ".join(f"{100 * phase[p] / total:>7.1f}%" for p in PHASES)
    rss_kb = median_or_none(rss[0] if rss else None for _, rss in runs)
    setup = median_or_none(rss[1] - sum(float(r["wall_s"]) for r in rows) if rss else None
                           for rows, rss in runs)
    rss_text = (f"{rss_kb / 1024:>8.0f} {rss_kb * 1024 / n:>7.0f}" if rss_kb is not None
                else f"{'-':>8} {'-':>7}")
    setup_text = f"{setup:>7.1f}" if setup is not None else f"{'-':>7}"
    faults = median_or_none(rss[2] / len(rows) if rss else None for rows, rss in runs)
    setup_text += f" {faults:>8.0f}" if faults is not None else f" {'-':>8}"
    print(f"{n:>7} {ranks:>5} {threads:>3} {med:>11.1f} {min(per_step):>9.1f} {med * 1e3 / n:>12.2f} "
          f"{iterations:>7.1f} {int(runs[0][0][-1]['contacts']):>8} {shares} {rss_text} {setup_text} "
          f"{len(runs):>4}")
    summary.setdefault((ranks, threads), []).append(
        (n, med / n, statistics.median(mean(window(rows), "wall_s") / max(mean(window(rows), "iterations"), 1.0)
                                       for rows, _ in runs) / n, rss_kb))
for (ranks, threads), sizes in sorted(summary.items()):
    small = sizes[0]
    for large in sizes[1:]:
        line = (f"ranks {ranks}, threads {threads}: N = {large[0]} over N = {small[0]}: time per step "
                f"per body {large[1] / small[1]:.2f}, per solver iteration {large[2] / small[2]:.2f}")
        if small[3] is not None and large[3] is not None:
            line += (f"; peak RSS grows by {(large[3] - small[3]) * 1024 / (large[0] - small[0]):.0f} "
                     f"bytes per added body")
        print(line)
medians = {case: statistics.median(mean(window(rows), "wall_s") for rows, _ in runs)
           for case, runs in runs_by_case.items()}
for (n, ranks, threads), med in sorted(medians.items()):
    serial = medians.get((n, 1, 1))
    if serial and (ranks, threads) != (1, 1):
        print(f"N = {n}: {ranks} rank(s) x {threads} thread(s) over 1 x 1: "
              f"{serial / med:.2f}x faster per step")
