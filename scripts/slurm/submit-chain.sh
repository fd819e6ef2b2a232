#!/usr/bin/env bash
# Submits N copies of a grains batch script, each starting when the previous
# one has ended (for any reason: a job killed at its time limit is exactly
# what the next one continues from the newest checkpoint).
# Usage: scripts/slurm/submit-chain.sh N SCRIPT [sbatch options...]
# Prints the job ids, one per line. Extra options go to every sbatch call
# (e.g. --export=ALL,GRAINS_CONFIG=my.yaml,GRAINS_OUTPUT=out/run1).
set -euo pipefail
if (($# < 2)) || ! [[ $1 =~ ^[1-9][0-9]*$ ]]; then
  echo "usage: $0 N SCRIPT [sbatch options...]  (N >= 1 jobs)" >&2
  exit 2
fi
count=$1
script=$2
shift 2
[[ -f $script ]] || {
  echo "$0: no batch script $script" >&2
  exit 2
}
previous=""
for ((i = 1; i <= count; i++)); do
  dependency=()
  [[ -n $previous ]] && dependency=(--dependency="afterany:$previous")
  previous=$(sbatch --parsable "${dependency[@]}" "$@" "$script")
  previous=${previous%%;*}  # --parsable prints "id" or "id;cluster"
  echo "$previous"
done
