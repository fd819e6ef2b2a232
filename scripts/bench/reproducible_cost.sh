#!/usr/bin/env bash
# What `parallel.reproducible: true` costs (docs/performance.md, "Reproducible
# sums: what they cost"): the default demo with Coulomb friction alone
# (rolling and spinning resistance off) to t = END (no VTK) with the
# setting on and off, interleaved REPEATS times, on each rank count given
# (1 thread per rank). Prints per setting the wall time (median, min), the
# CPU time per rank (median, min; less sensitive to a loaded machine), the
# solve time per APGD iteration and the iteration count, and the on/off ratios.
# Usage: scripts/bench/reproducible_cost.sh [REPEATS=4] [END=4] [RANKS="1 2"]
# Env: GRAINS_BUILD_DIR, BENCH_OUT.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD="${GRAINS_BUILD_DIR:-$ROOT/build}"
REPEATS="${1:-4}"
END="${2:-4}"
RANKS="${3:-1 2}"
OUT="${BENCH_OUT:-$ROOT/output/bench-reproducible}"
source "$ROOT/scripts/env.sh"
export OMP_NUM_THREADS=1
rm -rf "$OUT"
mkdir -p "$OUT"
for n in $RANKS; do
  for r in $(seq 1 "$REPEATS"); do
    for v in true false; do
      dir="$OUT/np${n}_${v}_$r"
      /usr/bin/time -f "%U" -o "$dir.cpu" mpirun -n "$n" \
        "$BUILD/grains" run "$ROOT/config/demo_settle.yaml" --output "$dir" \
        --set simulation.end_time="$END" --set output.vtk_every=0 \
        --set parallel.reproducible="$v" \
        --set contact.rolling_friction=0 --set contact.spinning_friction=0 >/dev/null 2>&1 || {
          echo "run $dir failed" >&2
          exit 1
        }
    done
  done
done
/usr/bin/python3 - "$OUT" "$RANKS" <<'PY'
import csv, glob, statistics, sys
out, ranks = sys.argv[1], sys.argv[2].split()
for n in ranks:
    stats = {}
    for v in ("true", "false"):
        wall, cpu, per_it, its = [], [], [], set()
        for d in sorted(glob.glob(f"{out}/np{n}_{v}_*/")):
            rows = list(csv.DictReader(open(d + "metrics.csv")))
            w = sum(float(r["wall_s"]) for r in rows)
            s = sum(float(r["time_solve_s"]) for r in rows)
            it = sum(int(r["iterations"]) for r in rows)
            wall.append(w)
            cpu.append(float(open(d.rstrip("/") + ".cpu").read().split()[-1]) / int(n))
            per_it.append(1000.0 * s / it)
            its.add(it)
        stats[v] = (statistics.median(wall), min(wall), statistics.median(cpu), min(cpu),
                    statistics.median(per_it))
        print(f"ranks {n} reproducible={v:5s} wall {stats[v][0]:.2f} s (min {stats[v][1]:.2f}) "
              f"cpu/rank {stats[v][2]:.2f} s (min {stats[v][3]:.2f}) "
              f"solve/iteration {stats[v][4]:.4f} ms  iterations {sorted(its)}")
    t, f = stats["true"], stats["false"]
    print(f"ranks {n} on/off: wall median {t[0] / f[0]:.3f} min {t[1] / f[1]:.3f}, "
          f"cpu median {t[2] / f[2]:.3f} min {t[3] / f[3]:.3f}, per iteration {t[4] / f[4]:.3f}")
PY
