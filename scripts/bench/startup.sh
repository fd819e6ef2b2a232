#!/usr/bin/env bash
# Start-up of a grains process run without mpirun (docs/running.md, "Ranks
# and threads"): `grains --version` as shipped, which asks Open MPI for its
# ob1 transport, against Open MPI's own choice among all of its transports
# (OMPI_MCA_pml=^v: every layer but the unused "v" one, as when nothing is
# set; grains keeps a value the user set), interleaved.
# Prints the median and the minimum wall time of each, and their ratio.
# Usage: scripts/bench/startup.sh [REPEATS=20]
# Env: GRAINS_BUILD_DIR.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD="${GRAINS_BUILD_DIR:-$ROOT/build}"
REPEATS="${1:-20}"
source "$ROOT/scripts/env.sh"
[[ -x "$BUILD/grains" ]] || { echo "startup.sh: no $BUILD/grains; run scripts/build.sh" >&2; exit 1; }

times=$(mktemp)
trap 'rm -f "$times"' EXIT
for ((r = 0; r < REPEATS; r++)); do
  for setting in shipped all-transports; do
    if [[ $setting == shipped ]]; then
      env -u OMPI_MCA_pml /usr/bin/time -f "$setting %e" "$BUILD/grains" --version \
        2>>"$times" >/dev/null
    else
      OMPI_MCA_pml=^v /usr/bin/time -f "$setting %e" "$BUILD/grains" --version \
        2>>"$times" >/dev/null
    fi
  done
done
/usr/bin/python3 - "$times" <<'PY'
import statistics, sys
runs = {}
for line in open(sys.argv[1]):
    name, seconds = line.split()
    runs.setdefault(name, []).append(float(seconds))
for name, values in runs.items():
    print(f"{name:15s} median {statistics.median(values):.2f} s  min {min(values):.2f} s  ({len(values)} runs)")
print(f"all-transports / shipped, median: "
      f"{statistics.median(runs['all-transports']) / statistics.median(runs['shipped']):.2f}")
PY
