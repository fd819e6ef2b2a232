#!/usr/bin/env bash
# The ParaView scripts (scripts/paraview/) in real pvbatch, headless, on
# small grains runs holding all five shapes (docs/visualisation.md).
#   render:   every drawn vertex lies on its body's true surface
#             (check_shapes.py); render.py writes PNGs of the requested
#             size that show the bodies; an unknown field is refused;
#             moving walls are drawn at each frame's pose (check_moving_walls.py).
#   animate:  animate.py writes one frame per output step, all of one size
#             and different from each other, and an MP4 of them (ffmpeg).
#   parallel: a 2-rank run opened by pvbatch on 2 ranks: each ParaView rank
#             reads the pieces its grains rank wrote (check_parallel.py), and
#             the composited picture shows the bodies.
# Exits 77 (skipped) only when there is no pvbatch (scripts/install-deps.sh
# installs it) or no X server for Debian's ParaView.
# Usage: paraview_test.sh SOURCE_DIR GRAINS_BINARY render|animate|parallel
set -uo pipefail
SOURCE=$1
GRAINS=$2
MODE=$3
PV="$SOURCE/scripts/paraview/pvbatch.sh"
command -v "${PVBATCH:-pvbatch}" >/dev/null || {
  echo "SKIPPED: no pvbatch (Debian: scripts/install-deps.sh installs ParaView)"
  exit 77
}
[[ -n ${DISPLAY:-} ]] || command -v xvfb-run >/dev/null || {
  echo "SKIPPED: no X display and no xvfb-run (Debian packages xvfb, xauth)"
  exit 77
}
source "$SOURCE/scripts/env.sh"
export OMP_NUM_THREADS=1
# ParaView 5.11's parallel pvbatch now and then deadlocks at its first render
# (docs/visualisation.md); pvbatch.sh ends such an attempt and starts again.
# A run takes under 15 s here; three attempts fit in CTest's 300 s.
export PVBATCH_TIMEOUT=${PVBATCH_TIMEOUT:-75} PVBATCH_ATTEMPTS=${PVBATCH_ATTEMPTS:-3}
work=$(mktemp -d /tmp/grains_paraview.XXXXXX)
trap 'rm -rf "$work"' EXIT
ranks=1
[[ $MODE == parallel ]] && ranks=2
mpirun -n $ranks "$GRAINS" run "$SOURCE/tests/render/five_shapes.yaml" --output "$work/run" -q || {
  echo "FAIL: the grains run failed"
  exit 1
}
stats="$SOURCE/tests/paraview/png_stats.py"
scripts="$SOURCE/scripts/paraview"

case $MODE in
render)
  "$PV" "$SOURCE/tests/paraview/check_shapes.py" "$work/run" "$scripts" || exit 1
  "$PV" "$scripts/render.py" "$work/run" --output "$work/iso.png" --size 800x600 || exit 1
  "$PV" "$scripts/render.py" "$work/run" --step-index 1 --view top --field gid \
    --no-walls --no-network --output "$work/top.png" --size 640x640 || exit 1
  "$stats" 800x600 "$work/iso.png" && "$stats" 640x640 "$work/top.png" || exit 1
  if "$PV" "$scripts/render.py" "$work/run" --field no_such_field \
    --output "$work/x.png" >"$work/err.txt" 2>&1; then
    echo "FAIL: an unknown field was accepted"
    exit 1
  fi
  grep -q "no point field 'no_such_field'; the bodies have: .*velocity" "$work/err.txt" || {
    echo "FAIL: unknown field message: $(cat "$work/err.txt")"
    exit 1
  }
  # Moving walls are drawn where they are at the frame's time (walls.pvd).
  "$GRAINS" run "$SOURCE/tests/render/rising_lid.yaml" --output "$work/lid" -q || {
    echo "FAIL: the rising-lid run failed"
    exit 1
  }
  "$PV" "$SOURCE/tests/paraview/check_moving_walls.py" "$work/lid" "$scripts" || exit 1
  ;;
animate)
  "$PV" "$scripts/animate.py" "$work/run" --size 480x360 --output-dir "$work/movie" || exit 1
  frames=("$work"/movie/frame_*.png)
  [[ ${#frames[@]} == 3 ]] || {
    echo "FAIL: ${#frames[@]} frames for 3 output steps"
    exit 1
  }
  # Bodies at rest at t = 0 show one colour only.
  "$stats" 480x360 --min-colours 1 "${frames[@]}" || exit 1
  for k in 1 2; do
    if cmp -s "${frames[k - 1]}" "${frames[k]}"; then
      echo "FAIL: frames $((k - 1)) and $k are the same picture"
      exit 1
    fi
  done
  if command -v ffprobe >/dev/null; then
    count=$(ffprobe -v error -count_frames -select_streams v:0 -show_entries \
      stream=nb_read_frames,width,height -of csv=p=0 "$work/movie/grains.mp4")
    echo "grains.mp4: width,height,frames = $count"
    [[ $count == "480,360,3" ]] || {
      echo "FAIL: the MP4 should be 480x360 with 3 frames"
      exit 1
    }
  else
    echo "no ffprobe: the MP4 is not checked"
  fi
  ;;
parallel)
  "$PV" -n 2 "$SOURCE/tests/paraview/check_parallel.py" "$work/run" "$scripts" \
    "$work/ranks.png" >"$work/log.txt" 2>&1
  grep -v "Scalar range is zero" "$work/log.txt"
  grep -q "^parallel check: passed" "$work/log.txt" || exit 1
  "$stats" 800x600 "$work/ranks.png" || exit 1
  ;;
*)
  echo "unknown mode $MODE"
  exit 2
  ;;
esac
echo "PASS: paraview $MODE"
