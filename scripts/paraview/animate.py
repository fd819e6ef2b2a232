"""A movie of a grains run with ParaView: every output step rendered to a PNG
frame with one view (camera and colour range fixed over the whole run), then,
when ffmpeg is on PATH, an MP4 of the frames (H.264, plays in browsers).

Usage: scripts/paraview/pvbatch.sh [-n RANKS] scripts/paraview/animate.py RUN_DIR
           [--field FIELD] [--view iso|top|front|side] [--size WxH] [--every K]
           [--fps N] [--end T] [--no-walls] [--no-network] [--output-dir DIR]
Frames go to DIR/frame_0000.png ... (default DIR: RUN_DIR/movie), the movie
to DIR/grains.mp4.
"""
import argparse
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import grains_view  # noqa: E402 (beside this script)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("run_dir")
    parser.add_argument("--field", default="velocity")
    parser.add_argument("--view", default="iso", choices=sorted(grains_view.VIEWS))
    parser.add_argument("--size", default="1280x720")
    parser.add_argument("--every", type=int, default=1, help="render every K-th output step")
    parser.add_argument("--fps", type=int, default=10)
    parser.add_argument("--end", type=float, help="last physical time to render (default: all)")
    parser.add_argument("--no-walls", action="store_true")
    parser.add_argument("--no-network", action="store_true")
    parser.add_argument("--output-dir")
    args = parser.parse_args()
    width, height = (int(v) for v in args.size.lower().split("x"))
    out_dir = args.output_dir or os.path.join(args.run_dir, "movie")
    os.makedirs(out_dir, exist_ok=True)

    grains = grains_view.GrainsView(args.run_dir, field=args.field, walls=not args.no_walls,
                                    network=not args.no_network, size=(width, height))
    times = [t for t in grains.times if args.end is None or t <= args.end]
    times = times[::args.every] if args.every > 0 else times
    grains.colour_range_over(times)
    grains.frame(args.view, times)
    for index, t in enumerate(times):
        grains.show_time(t)
        grains.save(os.path.join(out_dir, f"frame_{index:04d}.png"))
    print(f"wrote {len(times)} frames to {out_dir} (t = {times[0]:g} .. {times[-1]:g} s)")

    ffmpeg = shutil.which("ffmpeg")
    if ffmpeg is None:
        print("no ffmpeg on PATH: frames only (Debian: apt-get install ffmpeg)")
        return
    movie = os.path.join(out_dir, "grains.mp4")
    subprocess.run([ffmpeg, "-y", "-loglevel", "error", "-framerate", str(args.fps),
                    "-i", os.path.join(out_dir, "frame_%04d.png"), "-c:v", "libx264",
                    "-pix_fmt", "yuv420p", "-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2", movie],
                   check=True)
    print(f"wrote {movie}")


main()
