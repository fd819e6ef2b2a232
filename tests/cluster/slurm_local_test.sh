#!/usr/bin/env bash
# The SLURM templates for real: starts a single-node SLURM (slurmctld +
# slurmd of Debian's slurm-wlm, config in a temporary directory, no munge:
# auth/none), then runs grains through scripts/slurm/grains.sbatch:
#   job A (srun, 2 ranks): the first 10 steps of a 20-step pile, checkpointing;
#   a chain of 2 (scripts/slurm/submit-chain.sh, mpirun launcher): the first
#   continues from A's checkpoint to step 20, the second finds the run complete.
# The chained run must equal a direct 20-step run (metrics.csv, all columns
# but wall times). Exit 77 (skipped) only if SLURM cannot start here, saying why.
# Usage: slurm_local_test.sh SOURCE_DIR GRAINS_BINARY
set -uo pipefail
SOURCE=$1
BINARY=$2
skip() {
  echo "SKIPPED: $*"
  exit 77
}
for tool in slurmctld slurmd sbatch scontrol sinfo; do
  command -v "$tool" >/dev/null || skip "$tool not found (Debian package slurm-wlm)"
done
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
# The jobs run one thread per rank; so does the direct run they are compared with.
export OMP_NUM_THREADS=1
work=$(mktemp -d /tmp/grains_slurm.XXXXXX)
node=$(hostname -s)
port=$((20000 + RANDOM % 20000))
export SLURM_CONF=$work/slurm.conf
cleanup() {
  for daemon in slurmd slurmctld; do
    [[ -f $work/$daemon.pid ]] && kill "$(cat "$work/$daemon.pid")" 2>/dev/null
  done
  sleep 1
  rm -rf "$work"
}
trap cleanup EXIT
mkdir -p "$work/state" "$work/spool" "$work/jobs"
hardware=$(slurmd -C 2>/dev/null | head -1 | sed 's/^NodeName=[^ ]* //')
[[ -n $hardware ]] || skip "slurmd -C could not describe this node"
cat >"$SLURM_CONF" <<CONF
ClusterName=grainstest
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/none
CredType=cred/none
SlurmUser=$(id -un)
SlurmdUser=root
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
NodeName=$node NodeAddr=127.0.0.1 $hardware State=UNKNOWN
PartitionName=test Nodes=$node Default=YES MaxTime=INFINITE State=UP
CONF
slurmctld -f "$SLURM_CONF" -i >"$work/slurmctld.out" 2>&1 ||
  skip "slurmctld did not start: $(tail -3 "$work/slurmctld.out" "$work/slurmctld.log" 2>/dev/null)"
slurmd -f "$SLURM_CONF" >"$work/slurmd.out" 2>&1 ||
  skip "slurmd did not start: $(tail -3 "$work/slurmd.out" "$work/slurmd.log" 2>/dev/null)"
for ((i = 0; i < 30; i++)); do
  [[ $(sinfo -h -n "$node" -o %T 2>/dev/null) == idle ]] && break
  sleep 1
done
[[ $(sinfo -h -n "$node" -o %T 2>/dev/null) == idle ]] ||
  skip "the node did not become idle in 30 s: sinfo says '$(sinfo -h -o %T 2>&1)';" \
    "slurmctld.log: $(tail -3 "$work/slurmctld.log" 2>/dev/null); slurmd.log: $(tail -3 "$work/slurmd.log" 2>/dev/null)"
echo "SLURM is up: node $node idle, controller port $port"

failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}
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
export GRAINS_HOME=$SOURCE GRAINS=$BINARY GRAINS_CONFIG=$work/pile.yaml
export GRAINS_OUTPUT=$work/run
template=$SOURCE/scripts/slurm/grains.sbatch

# Waits for job $1 to end; prints its state and exit code.
wait_job() {
  local state=""
  for ((i = 0; i < 300; i++)); do
    state=$(scontrol show job "$1" 2>/dev/null | grep -o 'JobState=[A-Z_]*' | cut -d= -f2)
    case $state in PENDING | RUNNING | CONFIGURING | COMPLETING | "") sleep 1 ;; *) break ;; esac
  done
  echo "$state $(scontrol show job "$1" | grep -o ' ExitCode=[0-9:]*' | cut -d= -f2)"
}

job_a=$(cd "$work/jobs" && GRAINS_ARGS="--steps 10" sbatch --parsable --ntasks=2 \
  --cpus-per-task=1 --export=ALL "$template")
result=$(wait_job "$job_a")
echo "job A ($job_a, srun, --steps 10): $result"
[[ $result == "COMPLETED 0:0" ]] || fail "job A: $result; log: $(cat "$work/jobs/grains-$job_a.log")"

mapfile -t chain < <(cd "$work/jobs" && GRAINS_LAUNCHER=mpirun \
  "$SOURCE/scripts/slurm/submit-chain.sh" 2 "$template" --ntasks=2 --export=ALL)
((${#chain[@]} == 2)) || fail "submit-chain printed ${#chain[@]} job ids: ${chain[*]}"
dependency=$(scontrol show job "${chain[1]}" 2>/dev/null | grep -o 'Dependency=[^ ]*')
for job in "${chain[@]}"; do
  result=$(wait_job "$job")
  echo "chained job $job (mpirun): $result"
  [[ $result == "COMPLETED 0:0" ]] || fail "job $job: $result; log: $(cat "$work/jobs/grains-$job.log")"
done
echo "second chained job had $dependency"
[[ $dependency == *"afterany:${chain[0]}"* ]] || fail "second job's dependency: '$dependency'"
grep -q "continuing from the newest checkpoint" "$work/jobs/grains-${chain[0]}.log" ||
  fail "the first chained job did not restart"
grep -q "already complete" "$work/jobs/grains-${chain[1]}.log" ||
  fail "the second chained job did not find the run complete"

# The same 20 steps directly, on the same 2 ranks.
mpirun -np 2 "$BINARY" run "$work/pile.yaml" --output "$work/direct" >"$work/direct.log" 2>&1 ||
  fail "direct run failed: $(tail -3 "$work/direct.log")"
/usr/bin/python3 "$SOURCE/tests/support/same_metrics.py" "$work/direct/metrics.csv" \
  "$work/run/metrics.csv" --rows 20 || fail "the chained run differs from the direct one"
if ((failures > 0)); then
  echo "$failures failure(s)"
  exit 1
fi
echo "SLURM template, restart chaining and completion detection work"
