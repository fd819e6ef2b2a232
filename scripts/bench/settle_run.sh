#!/usr/bin/env bash
# Sourced by the settle benchmarks (vs_liggghts.sh, dt_sweep.sh, seed_sweep.sh,
# swap_sweep.sh, build_ab.sh): their initial states, and one run of the grains
# side with the sweep's step, tolerance and end time.
#
#   settle_initial_state N DIR [SEED]   # DIR/ gets N spheres and grains_tp2.yaml
#   settle_run "CONFIG<TAB>OUTPUT_DIR<TAB>MU<TAB>EXTRA_ARGS"
#
# Needs GRAINS, TEND, GRAINS_DT and GRAINS_TOL in the environment. The log goes
# to OUTPUT_DIR.log; a failed run says so and leaves OUTPUT_DIR/FAILED (the
# summaries skip it) and returns 1.
final_frame_only=1000000000  # one VTK frame at the end, for the final speeds
settle_deck="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/liggghts"
settle_initial_state() {
  /usr/bin/python3 "$settle_deck/make_tp2_initial.py" "$@"
  cp "$settle_deck/grains_tp2.yaml" "$2/"
}
settle_run() {
  local config dir mu args
  IFS=$'\t' read -r config dir mu args <<< "$1"
  # shellcheck disable=SC2086  # args is a list of arguments
  if "$GRAINS" run "$config" --output "$dir" --overwrite --set simulation.end_time="$TEND" \
    --set simulation.dt="$GRAINS_DT" --set solver.tolerance="$GRAINS_TOL" \
    --set contact.mu="$mu" --set output.vtk_every="$final_frame_only" $args > "$dir.log" 2>&1; then
    return 0
  fi
  echo "grains failed: $dir (see $dir.log)"
  mkdir -p "$dir"
  touch "$dir/FAILED"
  return 1
}
export final_frame_only settle_deck
export -f settle_initial_state
export -f settle_run
