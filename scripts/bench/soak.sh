#!/usr/bin/env bash
# Soak benchmark (docs/reliability.md): a settled pile run for 10,000 steps.
#   1. settle: 400 frictional spheres poured into a box, SETTLE steps, checkpoint;
#   2. soak: restart from it for STEPS more steps, checkpoint in the middle and
#      at the end, sampling the resident memory (VmRSS) of every rank each second;
#   3. replay: restart from the middle checkpoint to the end.
# (The soak checkpoints every MID steps: at MID and at the end.)
# Checks: kinetic energy stays bounded (never above 1e-4 of N m g r, the
# energy that lifts every body by one radius, and its last-quarter mean no
# more than twice its first-quarter mean: no drift), the max overlap stays
# below 1 % of the radius,
# resident memory does not grow (last quarter's median within 2 % + 2 MiB of
# the first quarter's), and the replayed second half equals the soak's
# (metrics.csv but wall times, and the final checkpoint byte for byte).
# Usage: scripts/bench/soak.sh [STEPS=10000] [RANKS=1] [SETTLE=1500] [OUT=/tmp/grains_soak]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
STEPS=${1:-10000}
RANKS=${2:-1}
SETTLE=${3:-1500}
OUT=${4:-/tmp/grains_soak}
GRAINS="${GRAINS_BUILD_DIR:-$ROOT/build}/grains"
source "$ROOT/scripts/env.sh"
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}
rm -rf "$OUT"
mkdir -p "$OUT"
END=$((SETTLE + STEPS))
MID=$((SETTLE + STEPS / 2))
cat >"$OUT/pile.yaml" <<YAML
simulation: {dt: 0.005, steps: $END, seed: 11}
bodies:
  radius: 0.05
  mass: 0.5
  generator: {type: lattice, count: 400, spacing: 0.12, jitter: 0.5,
              region: {type: box, min: [0, 0, 0.0], max: [0.6, 0.6, 2.0]}}
walls: [{type: box, min: [0, 0, 0], max: [0.6, 0.6, 10]}]
contact: {friction: coulomb, mu: 0.4}
solver: {name: apgd, tolerance: 1.0e-6, max_iterations: 2000}
output: {log_every: 1000, metrics_every: 1, checkpoint_every: $MID, checkpoint_keep: 10}
YAML
run() {  # output dir, steps, restart file or "", extra args...
  local out=$1 steps=$2 restart=$3
  shift 3
  local args=(run "$OUT/pile.yaml" --output "$out" --steps "$steps" -q "$@")
  [[ -n $restart ]] && args+=(--restart "$restart")
  mpirun -np "$RANKS" --oversubscribe "$GRAINS" "${args[@]}"
}
checkpoint() { printf '%s/checkpoint_%08d.h5' "$1" "$2"; }

echo "soak: settling $SETTLE steps"
run "$OUT/settle" "$SETTLE" "" --set output.checkpoint_every="$SETTLE" 2>"$OUT/settle.log"
echo "soak: $STEPS steps from the settled pile on $RANKS rank(s), sampling memory"
mkdir -p "$OUT/soak"
cp "$(checkpoint "$OUT/settle" "$SETTLE")" "$OUT/soak/"
start=$(date +%s)
run "$OUT/soak" "$END" "$(checkpoint "$OUT/soak" "$SETTLE")" &
launcher=$!
: >"$OUT/rss.csv"
while kill -0 "$launcher" 2>/dev/null; do
  total=0
  for pid in $(pgrep -f "$GRAINS run $OUT/pile.yaml --output $OUT/soak" || true); do
    kb=$(awk '/VmRSS/ {print $2}' "/proc/$pid/status" 2>/dev/null || echo 0)
    total=$((total + ${kb:-0}))
  done
  ((total > 0)) && echo "$(($(date +%s) - start)),$total" >>"$OUT/rss.csv"
  sleep 1
done
wait "$launcher"
soak_seconds=$(($(date +%s) - start))
echo "soak: replaying steps $MID..$END from the middle checkpoint"
mkdir -p "$OUT/replay"
cp "$(checkpoint "$OUT/soak" "$MID")" "$OUT/replay/"
run "$OUT/replay" "$END" "$(checkpoint "$OUT/replay" "$MID")"
same_checkpoint=no
cmp -s "$(checkpoint "$OUT/soak" "$END")" "$(checkpoint "$OUT/replay" "$END")" && same_checkpoint=yes

/usr/bin/python3 - "$OUT" "$SETTLE" "$MID" "$END" "$soak_seconds" "$same_checkpoint" "$RANKS" <<'PY'
import csv, statistics, sys
out, settle, mid, end, seconds, same_checkpoint, ranks = sys.argv[1:]
settle, mid, end = int(settle), int(mid), int(end)
def rows(path):
    with open(path) as f:
        return list(csv.DictReader(f))
soak = [r for r in rows(f"{out}/soak/metrics.csv") if int(r["step"]) > settle]
replay = [r for r in rows(f"{out}/replay/metrics.csv") if int(r["step"]) > mid]
n = len(soak)
quarter = max(1, n // 4)
ke = [float(r["kinetic_energy"]) for r in soak]
overlap = max(float(r["max_overlap"]) for r in soak)
unconverged = sum(1 for r in soak if r["converged"] == "0")
ke_first, ke_last = statistics.mean(ke[:quarter]), statistics.mean(ke[-quarter:])
bodies, mass, radius = 400, 0.5, 0.05  # as in pile.yaml above
ke_bound = 1e-4 * bodies * mass * 9.81 * radius
ke_peak = max(ke)
ke_peak_step = soak[ke.index(ke_peak)]["step"]
rss = [int(line.split(",")[1]) for line in open(f"{out}/rss.csv") if line.strip()]
rq = max(1, len(rss) // 4)
rss_first, rss_last = statistics.median(rss[:rq]), statistics.median(rss[-rq:])
keep = [k for k in soak[0] if k != "wall_s" and not (k.startswith("time_") and k.endswith("_s"))]
second_half = [[r[k] for k in keep] for r in soak if int(r["step"]) > mid]
replayed = [[r[k] for k in keep] for r in replay]
checks = {
    f"kinetic energy bounded (max < {ke_bound:.3g} J = 1e-4 N m g r)": ke_peak < ke_bound,
    "kinetic energy does not drift (last-quarter mean <= 2 x first-quarter mean)": ke_last <= 2 * ke_first,
    "max overlap < 1 % of the radius (5e-4 m)": overlap < 5e-4,
    "resident memory flat (last quarter median <= first + 2 % + 2 MiB)": rss_last <= rss_first * 1.02 + 2048,
    "replayed second half equals the soak (metrics)": second_half == replayed and len(replayed) == end - mid,
    "replayed final checkpoint identical byte for byte": same_checkpoint == "yes",
}
print(f"\nsoak of {n} steps after {settle} settling steps, {ranks} rank(s), {seconds} s wall "
      f"({1000 * int(seconds) / max(n, 1):.2f} ms/step)")
print(f"  kinetic energy [J]: mean first quarter {ke_first:.3e}, mean last quarter {ke_last:.3e}, "
      f"max {ke_peak:.3e} (step {ke_peak_step}), final {ke[-1]:.3e}")
print(f"  max overlap over the soak: {overlap:.3e} m; unconverged steps: {unconverged}")
print(f"  resident memory (sum over ranks, {len(rss)} samples): median first quarter {rss_first / 1024:.1f} MiB, "
      f"last quarter {rss_last / 1024:.1f} MiB, max {max(rss) / 1024:.1f} MiB")
print(f"  replay from step {mid}: {len(replayed)} rows compared")
failed = [name for name, ok in checks.items() if not ok]
for name, ok in checks.items():
    print(f"  {'ok  ' if ok else 'FAIL'} {name}")
sys.exit(1 if failed else 0)
PY
