#!/usr/bin/python3
"""scripts/bench/summarize_build_ab.py on synthetic run directories with known
numbers: one (N, mu) case, builds A and B, three repeats each, and one run of
B without its A. Checks the medians and minima of wall time, iterations and
solve time per iteration, and the B / A ratios paired by repeat.
usage: build_ab_summary_test.py SOURCE_DIR"""
import os
import subprocess
import sys
import tempfile

HEAD = "step,time,iterations,wall_s,time_solve_s,converged"


def write_run(root, name, steps):
    """steps: (iterations, wall_s, time_solve_s) per step."""
    path = os.path.join(root, name)
    os.makedirs(path)
    with open(os.path.join(path, "metrics.csv"), "w") as f:
        f.write(HEAD + "\n")
        for k, (it, wall, solve) in enumerate(steps):
            f.write(f"{k + 1},{0.02 * (k + 1)},{it},{wall},{solve},1\n")


def row(lines, prefix):
    hits = [line for line in lines if line.startswith(prefix)]
    if len(hits) != 1:
        sys.exit(f"expected one row starting {prefix!r}, got {hits}")
    return [cell.strip() for cell in hits[0].strip("|").split("|")]


def main(source):
    script = os.path.join(source, "scripts", "bench", "summarize_build_ab.py")
    with tempfile.TemporaryDirectory() as root:
        # A: 100 iterations per run in 2 steps, solve 1.0 / 1.2 / 0.9 s: 10, 12, 9 ms per iteration
        for rep, solve in ((1, 1.0), (2, 1.2), (3, 0.9)):
            write_run(root, f"a_n2000_mu0.5_r{rep}",
                      [(60, solve * 0.6 + 0.1, solve * 0.6), (40, solve * 0.4 + 0.1, solve * 0.4)])
        # B: 80 iterations, solve 0.72 / 0.96 / 0.81 s: 9, 12, 10.125 ms per iteration
        for rep, solve in ((1, 0.72), (2, 0.96), (3, 0.81)):
            write_run(root, f"b_n2000_mu0.5_r{rep}", [(80, solve + 0.2, solve)])
        write_run(root, "b_n2000_mu0.5_r4", [(80, 5.0, 4.0)])  # no A of repeat 4: not paired
        write_run(root, "c_n2000_mu0.5_r1", [(1, 1.0, 1.0)])   # not a build of the pair
        out = subprocess.run(["/usr/bin/python3", script, root], check=True, capture_output=True,
                             text=True).stdout
    lines = out.splitlines()
    builds, ratios = lines[:lines.index("")], lines[lines.index(""):]
    a = row(builds, "| 2000 | 0.5 | A |")
    b = row(builds, "| 2000 | 0.5 | B |")
    ratio = row(ratios, "| 2000 | 0.5 |")
    failures = []
    # A walls 1.2, 1.4, 1.1; B walls 0.92, 1.16, 1.01 and 5.2 (four runs)
    for got, want, what in ((a[3], "1.20 / 1.10", "A wall"), (a[4], "100", "A iterations"),
                            (a[5], "10000.0 / 9000.0", "A solve per iteration"), (a[6], "3", "A runs"),
                            (b[3], "1.08 / 0.92", "B wall"), (b[6], "4", "B runs"),
                            (b[5], "11062.5 / 9000.0", "B solve per iteration"),
                            # per repeat B / A: 0.9, 1.0, 1.125 per iteration; walls 0.767, 0.829, 0.918
                            (ratio[2], "1.000 (0.900–1.125)", "ratio per iteration"),
                            (ratio[3], "0.829 (0.767–0.918)", "ratio of walls")):
        if got != want:
            failures.append(f"{what}: {got!r}, expected {want!r}")
    if failures:
        print(out)
        sys.exit("\n".join(failures))
    print("build_ab summary: medians, minima and paired ratios as expected")


if __name__ == "__main__":
    main(sys.argv[1])
