#!/usr/bin/env bash
# scripts/bench/swap_sweep.sh on a small settle run: a base continued with its
# own settings must give the uninterrupted run's trajectory step by step (the
# restart is exact and the script joins the base's and the continuation's
# metrics without a gap or a repeated step), and a continuation with other
# settings must leave the base's steps as they were and change the rest.
# usage: swap_sweep_test.sh SOURCE_DIR GRAINS
set -euo pipefail
src="$1"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export GRAINS="$2" SIZES=120 SEEDS=1 MUS=0.5 TEND=0.6 JOBS=2
BENCH_OUT="$work/swap" SWITCH=0.3 "$src/scripts/bench/swap_sweep.sh" deck -- same \
  "loose=--set solver.tolerance=1e-2" > "$work/swap.log"
BENCH_OUT="$work/whole" "$src/scripts/bench/seed_sweep.sh" deck > "$work/whole.log"
run=grains_n120_mu0.5_p1_r1
/usr/bin/python3 - "$work/whole/deck/$run/metrics.csv" "$work/swap/deck-same/$run/metrics.csv" \
  "$work/swap/deck-loose/$run/metrics.csv" <<'EOF'
import csv
import sys

whole, same, loose = ([r for r in csv.DictReader(open(p))] for p in sys.argv[1:])
columns = ["step", "time", "contacts", "iterations", "kinetic_energy", "max_overlap"]
assert len(whole) == 30, f"the uninterrupted run has {len(whole)} steps, expected 30"
assert [int(r["step"]) for r in same] == list(range(1, 31)), "joined steps are not 1..30"
for a, b in zip(whole, same):
    for c in columns:
        assert a[c] == b[c], f"step {a['step']}: {c} {a[c]} (whole) != {b[c]} (continued)"
assert [int(r["step"]) for r in loose] == list(range(1, 31)), "joined steps are not 1..30"
for a, b in zip(whole[:15], loose[:15]):
    assert a["kinetic_energy"] == b["kinetic_energy"], f"base step {a['step']} changed"
changed = sum(a["iterations"] != b["iterations"] for a, b in zip(whole[15:], loose[15:]))
assert changed > 0, "a continuation with another tolerance iterated as the base did"
print(f"swap_sweep: 30 joined steps as the whole run; loose continuation differs on {changed} steps")
EOF
for name in deck-same deck-loose; do
  grep -q "^| 120 | 0.5 | 1 | grains |" "$work/swap/$name/summary.md" ||
    { echo "FAIL: no summary row for $name"; exit 1; }
done
