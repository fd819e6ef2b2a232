#!/usr/bin/env bash
# parallel.body_order: gid, spatial and auto on the same pile given in two input
# orders (docs/performance.md, "Body order in memory"). N spheres (r = 0.1 m)
# on a lattice with 1 cm gaps in config/bench_box.yaml's bin, ten layers high,
# read from a bodies file either in lattice order (neighbours in space are
# neighbours in the file) or shuffled (as random insertion or another tool's
# output leaves them); both body orders on both files, interleaved, first
# STEPS steps, 1 rank. Prints wall time per step (steps 3..STEPS), solve time
# per APGD iteration, and the spatial / gid ratios per input.
# Usage: scripts/bench/body_order.sh [REPEATS=2] [STEPS=20] [N=100000]
# Env: OMP_NUM_THREADS (default 1), GRAINS_BUILD_DIR, BENCH_OUT.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD="${GRAINS_BUILD_DIR:-$ROOT/build}"
REPEATS="${1:-2}"
STEPS="${2:-20}"
N="${3:-100000}"
OUT="${BENCH_OUT:-$ROOT/output/bench-body-order}"
source "$ROOT/scripts/env.sh"
export OMP_NUM_THREADS="${OMP_NUM_THREADS:-1}"
mkdir -p "$OUT"

# Bodies files and configs (the bin's half width: ten layers of N / 10).
half=$(/usr/bin/python3 - "$N" "$OUT" "$ROOT/config/bench_box.yaml" <<'PY'
import random, re, sys
n, out, base = int(sys.argv[1]), sys.argv[2], sys.argv[3]
spacing, jitter = 0.21, 0.004
per_side = int((n / 10) ** 0.5) + 1
half = round(0.5 * spacing * per_side, 4)
rng = random.Random(5)
points, z = [], 0.11
while len(points) < n:
    for i in range(per_side):
        for j in range(per_side):
            if len(points) < n:
                points.append((-half + spacing * (i + 0.5) + rng.uniform(-jitter, jitter),
                               -half + spacing * (j + 0.5) + rng.uniform(-jitter, jitter),
                               z + rng.uniform(-jitter, jitter)))
    z += spacing
shuffled = points[:]
rng.shuffle(shuffled)
text = open(base).read()
generator = re.search(r"  generator:\n(    .*\n)+", text)
for name, order in (("lattice", points), ("shuffled", shuffled)):
    with open(f"{out}/{name}.csv", "w") as f:
        f.write("x, y, z\n")
        f.writelines("%.17g, %.17g, %.17g\n" % p for p in order)
    config = (text[:generator.start()] + f"  generator:\n    type: file\n    file: {name}.csv\n"
              + text[generator.end():])
    open(f"{out}/{name}.yaml", "w").write(config)
print(half)
PY
)

for rep in $(seq 1 "$REPEATS"); do
  for input in lattice shuffled; do
    for order in gid spatial auto; do
      dir="$OUT/${input}_${order}_r${rep}"
      echo "== $input input, body_order $order, repeat $rep" >&2
      "$BUILD/grains" run "$OUT/$input.yaml" --output "$dir" --overwrite --steps "$STEPS" -q \
        --set output.log_every=0 --set parallel.body_order="$order" \
        --set "walls.0.min=[-$half,-$half,0.0]" --set "walls.0.max=[$half,$half,40.0]"
    done
  done
done

/usr/bin/python3 - "$OUT" "$REPEATS" <<'PY'
import csv, statistics, sys
out, repeats = sys.argv[1], int(sys.argv[2])
def measures(path):
    rows = list(csv.DictReader(open(path + "/metrics.csv")))[2:]
    wall = sum(float(r["wall_s"]) for r in rows) / len(rows)
    solve = sum(float(r["time_solve_s"]) for r in rows)
    iterations = sum(int(r["iterations"]) for r in rows)
    return wall, solve / max(iterations, 1), rows[-1]["contacts"]
print("%-9s %-8s %12s %12s %14s %9s" % ("input", "order", "ms/step med", "ms/step min",
                                       "ms/iteration", "contacts"))
medians = {}
for input_ in ("lattice", "shuffled"):
    for order in ("gid", "spatial", "auto"):
        runs = [measures(f"{out}/{input_}_{order}_r{r}") for r in range(1, repeats + 1)]
        walls = [1000 * w for w, _, _ in runs]
        medians[input_, order] = statistics.median(walls)
        print("%-9s %-8s %12.1f %12.1f %14.2f %9s" % (
            input_, order, statistics.median(walls), min(walls),
            1000 * statistics.median(s for _, s, _ in runs), runs[0][2]))
for input_ in ("lattice", "shuffled"):
    print("%s input: gid / spatial time per step = %.2f, gid / auto = %.2f" % (
        input_, medians[input_, "gid"] / medians[input_, "spatial"],
        medians[input_, "gid"] / medians[input_, "auto"]))
PY
