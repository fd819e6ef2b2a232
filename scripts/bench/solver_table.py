#!/usr/bin/python3
"""Table and plots of scripts/bench/solvers.sh (Heyn et al. (2013), Table 1 and Figs. 6-8).

Usage: solver_table.py OUT_DIR R0
Reads OUT_DIR/summary.csv and OUT_DIR/<label>.history.csv; writes a markdown
table to stdout and objective/residual plots (against iterations and seconds)
as PNG files into OUT_DIR.
"""
import csv
import math
import os
import sys

out_dir, r0 = sys.argv[1], float(sys.argv[2])


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


summary = read_csv(os.path.join(out_dir, "summary.csv"))
histories = {}
for row in summary:
    path = os.path.join(out_dir, row["solver"] + ".history.csv")
    if os.path.exists(path):
        histories[row["solver"]] = [
            {k: float(v) for k, v in r.items()} for r in read_csv(path)]

ref = histories.get("jacobi_reference", [])


def at_iteration(history, it):
    rows = [r for r in history if r["iteration"] <= it]
    return rows[-1] if rows else None


target_row = at_iteration(ref, 43000)
target = target_row["objective"] if target_row else None
jacobi_time = target_row["seconds"] if target_row else None


# "Reaching" the target objective allows a relative slack of 1e-9: when Jacobi
# has converged by 43,000 iterations its objective is the optimum to rounding
# level, which other methods stopping at a residual tolerance meet only to
# about this precision.
SLACK = 1e-9


def time_to(history, objective):
    """Seconds (and iteration) of the first recorded iterate at or below objective."""
    if objective is None:
        return None, None
    tol = SLACK * abs(objective)
    for r in history:
        if r["objective"] <= objective + tol:
            return r["seconds"], int(r["iteration"])
    return None, None


jacobi_reach, jacobi_reach_it = time_to(ref, target)
print("| method | iterations | final objective | gamma_min | gamma_max | seconds | "
      "relative residual | converged | s to Jacobi-43k objective (iteration) | "
      "speed-up vs Jacobi 43k | speed-up vs Jacobi to the same objective |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
for it in (1000, 10000, 43000, 100000):
    r = at_iteration(ref, it)
    if r and r["iteration"] == it:
        print(f"| jacobi | {it} | {r['objective']:.10f} | | | {r['seconds']:.3f} | "
              f"{r['residual'] / r0:.2e} | | | | |")
for row in summary:
    name = row["solver"]
    if name == "jacobi_reference":
        continue
    t, it = time_to(histories.get(name, []), target)
    speed = f"{jacobi_time / t:.1f}x" if t and jacobi_time else "not reached"
    fair = f"{jacobi_reach / t:.1f}x" if t and jacobi_reach else "not reached"
    reach = f"{t:.4f} ({it})" if t is not None else "not reached"
    print(f"| {name} | {row['iterations']} | {float(row['objective']):.10f} | "
          f"{float(row['gamma_min']):.4g} | {float(row['gamma_max']):.4g} | "
          f"{float(row['seconds']):.3f} | {float(row['residual']) / r0:.2e} | "
          f"{'yes' if row['converged'] == '1' else 'NO'} | {reach} | {speed} | {fair} |")
if target is not None:
    print(f"\nJacobi objective after 43,000 iterations: {target:.12f} "
          f"({jacobi_time:.3f} s); Jacobi first within {SLACK:g} of it after "
          f"{jacobi_reach_it} iterations ({jacobi_reach:.3f} s); residual at gamma = 0: "
          f"{r0:.6g}")

try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    print("\n(matplotlib missing: no plots)")
    sys.exit(0)

best = min(min(r["objective"] for r in h) for h in histories.values() if h)
shift = max(1e-12, 1e-9 * abs(best))
for quantity, ylabel in (("objective", "objective - min + 1e-9|min|"),
                         ("residual", "relative residual")):
    for xaxis in ("iteration", "seconds"):
        fig, ax = plt.subplots(figsize=(7, 4.5))
        for name, h in histories.items():
            if name == "jacobi":
                continue  # the 100,000-iteration reference run shows Jacobi
            rows = [r for r in h if r[xaxis] > 0]  # log axes
            xs = [r[xaxis] for r in rows]
            if quantity == "objective":
                ys = [r["objective"] - best + shift for r in rows]
            else:
                ys = [r["residual"] / r0 for r in rows]
            label = "jacobi" if name == "jacobi_reference" else name
            ax.plot(xs, ys, label=label, linewidth=1.2)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("iterations" if xaxis == "iteration" else "seconds")
        ax.set_ylabel(ylabel)
        ax.grid(True, which="major", alpha=0.3)
        ax.legend(fontsize=8, ncol=2)
        fig.tight_layout()
        fig.savefig(os.path.join(out_dir, f"{quantity}_vs_{xaxis}.png"), dpi=110)
        plt.close(fig)
print(f"\nplots: {out_dir}/objective_vs_iteration.png, objective_vs_seconds.png, "
      "residual_vs_iteration.png, residual_vs_seconds.png")
