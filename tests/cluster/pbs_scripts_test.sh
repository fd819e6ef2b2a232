#!/usr/bin/env bash
# The PBS templates without a PBS server: scripts/pbs/grains.pbs runs as PBS
# would run it (PBS_O_WORKDIR, PBS_JOBID, PBS_JOBNAME and a PBS_NODEFILE
# with one line per MPI process), twice: the first job stops at step 10, the
# second continues from its checkpoint to step 20 and must equal a direct run;
# a third finds the run complete (exit 0). scripts/pbs/submit-chain.sh runs
# against a stand-in qsub that records its arguments: each job must depend on
# the previous one (afterany). Also checks the shell syntax of every batch script.
# Usage: pbs_scripts_test.sh SOURCE_DIR GRAINS_BINARY
set -uo pipefail
SOURCE=$1
BINARY=$2
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
# The jobs run one thread per rank; so does the direct run they are compared with.
export OMP_NUM_THREADS=1
work=$(mktemp -d /tmp/grains_pbs.XXXXXX)
trap 'rm -rf "$work"' EXIT
failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}
for script in "$SOURCE"/scripts/slurm/* "$SOURCE"/scripts/pbs/* "$SOURCE"/scripts/cluster/*; do
  bash -n "$script" || fail "syntax error in $script"
done

cat >"$work/pile.yaml" <<'YAML'
simulation: {dt: 0.005, steps: 20}
bodies:
  radius: 0.1
  mass: 1.0
  generator: {type: lattice, count: 27, spacing: 0.2,
              region: {type: box, min: [0, 0, 0], max: [0.6, 0.6, 0.6]}}
walls: [{type: plane, point: [0, 0, 0], normal: [0, 0, 1]}]
solver: {name: apgd, tolerance: 1.0e-8, max_iterations: 500}
output: {log_every: 5, checkpoint_every: 5}
YAML
printf '%s\n' localhost localhost >"$work/nodefile"
mkdir -p "$work/jobs"
pbs_job() {  # $1 = job id; remaining: extra environment
  local id=$1
  shift
  (cd "$work" && env PBS_O_WORKDIR="$work/jobs" PBS_JOBID="$id.server" PBS_JOBNAME=pile \
    PBS_NODEFILE="$work/nodefile" OMP_NUM_THREADS=1 GRAINS_HOME="$SOURCE" GRAINS="$BINARY" \
    GRAINS_CONFIG="$work/pile.yaml" GRAINS_OUTPUT="$work/run" "$@" \
    bash "$SOURCE/scripts/pbs/grains.pbs" >"$work/jobs/$id.log" 2>&1)
}
pbs_job 1 GRAINS_ARGS="--steps 10" || fail "job 1: $(tail -5 "$work/jobs/1.log")"
grep -q "2 ranks x 1 threads" "$work/jobs/1.log" || fail "job 1 did not run 2 ranks x 1 thread"
pbs_job 2 || fail "job 2: $(tail -5 "$work/jobs/2.log")"
grep -q "continuing from the newest checkpoint" "$work/jobs/2.log" || fail "job 2 did not restart"
pbs_job 3 || fail "job 3: $(tail -5 "$work/jobs/3.log")"
grep -q "already complete" "$work/jobs/3.log" || fail "job 3 did not find the run complete"
echo "PBS jobs: $(grep -h "^grains.pbs:" "$work/jobs/1.log")"

mpirun -np 2 "$BINARY" run "$work/pile.yaml" --output "$work/direct" >"$work/direct.log" 2>&1 ||
  fail "direct run failed: $(tail -3 "$work/direct.log")"
/usr/bin/python3 "$SOURCE/tests/support/same_metrics.py" "$work/direct/metrics.csv" \
  "$work/run/metrics.csv" --rows 20 || fail "the chained PBS run differs from the direct one"

# submit-chain.sh against a stand-in qsub.
mkdir -p "$work/bin"
cat >"$work/bin/qsub" <<'QSUB'
#!/usr/bin/env bash
n=$(($(wc -l <"$QSUB_LOG" 2>/dev/null || echo 0) + 1))
echo "$*" >>"$QSUB_LOG"
echo "$((100 + n)).pbsserver"
QSUB
chmod +x "$work/bin/qsub"
: >"$work/qsub.log"
ids=$(PATH="$work/bin:$PATH" QSUB_LOG="$work/qsub.log" \
  "$SOURCE/scripts/pbs/submit-chain.sh" 3 "$SOURCE/scripts/pbs/grains.pbs" -q batch)
expected="-q batch $SOURCE/scripts/pbs/grains.pbs
-W depend=afterany:101.pbsserver -q batch $SOURCE/scripts/pbs/grains.pbs
-W depend=afterany:102.pbsserver -q batch $SOURCE/scripts/pbs/grains.pbs"
[[ $(cat "$work/qsub.log") == "$expected" ]] ||
  fail "qsub calls:"$'\n'"$(cat "$work/qsub.log")"$'\n'"expected:"$'\n'"$expected"
[[ $(echo "$ids" | paste -sd' ') == "101.pbsserver 102.pbsserver 103.pbsserver" ]] ||
  fail "printed ids: $ids"
"$SOURCE/scripts/pbs/submit-chain.sh" 0 x >/dev/null 2>&1 && fail "submit-chain accepted N = 0"

if ((failures > 0)); then
  echo "$failures failure(s)"
  exit 1
fi
echo "PBS template, chaining and completion detection work"
