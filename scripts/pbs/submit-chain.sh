#!/usr/bin/env bash
# Submits N copies of a grains PBS script, each starting when the previous
# one has ended for any reason (afterany), so a run continues from the newest
# checkpoint across wall-time limits.
# Usage: scripts/pbs/submit-chain.sh N SCRIPT [qsub options...]
# Prints the job ids, one per line.
set -euo pipefail
if (($# < 2)) || ! [[ $1 =~ ^[1-9][0-9]*$ ]]; then
  echo "usage: $0 N SCRIPT [qsub options...]  (N >= 1 jobs)" >&2
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
  [[ -n $previous ]] && dependency=(-W "depend=afterany:$previous")
  previous=$(qsub "${dependency[@]}" "$@" "$script")
  echo "$previous"
done
