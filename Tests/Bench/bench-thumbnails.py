#!/usr/bin/env python3
"""Times `gstplay thumbnails CLIP --count 12` against gst-launch-1.0 baselines.

Usage: Tests/Bench/bench-thumbnails.py GSTPLAY CLIP [CLIP...] [--runs N]

Per clip, interleaved rounds (every command once per round, warm-up round untimed):
  gstplay key-unit   gstplay thumbnails CLIP --count 12 -q -o OUT.png
  gstplay accurate   the same with --accurate
  gst-launch decode  the clip's video decoded once, whole (filesrc ! qtdemux ! h264parse !
                     avdec_h264 ! fakesink sync=false): what decoding the clip costs
  gst-launch 12 PNGs the same decode plus videorate to 12 frames over the duration,
                     videoscale to 240 wide, videoconvert and pngenc into 12 files: the closest gst-launch
                     can get to 12 thumbnails, since it cannot seek
Prints a Markdown table: wall and CPU (user+sys of the child) medians with min-max, and the
ratio of each median to the "gst-launch decode" median. Clips must be H.264 in MP4, 4:3 or 16:9.
"""
import os, resource, shutil, statistics, subprocess, sys, tempfile, time

def discover(clip):
    out = subprocess.run(["gst-discoverer-1.0", clip], capture_output=True, text=True).stdout
    dur = w = h = None
    for line in out.splitlines():
        line = line.strip()
        if line.startswith("Duration:"):
            hh, mm, ss = line.split()[1].split(":")
            dur = int(hh) * 3600 + int(mm) * 60 + float(ss)
        elif line.startswith("Width:") and w is None: w = int(line.split()[1])
        elif line.startswith("Height:") and h is None: h = int(line.split()[1])
    return dur, w, h

def timed(cmd):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit("failed (%d): %s\n%s" % (done.returncode, " ".join(cmd), done.stderr.decode()))
    return wall * 1000, ((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)) * 1000

def main():
    args = sys.argv[1:]
    runs = 9
    if "--runs" in args:
        i = args.index("--runs"); runs = int(args[i + 1]); del args[i:i + 2]
    gstplay, clips = args[0], args[1:]
    scratch = tempfile.mkdtemp(prefix="bench-thumbs-")
    print("| clip | program | wall ms, median (min–max) | CPU ms, median (min–max) | wall × gst-launch decode |")
    print("| --- | --- | --- | --- | --- |")
    for clip in clips:
        dur, w, h = discover(clip)
        th = round(240 * h / w)
        decode = ["gst-launch-1.0", "-q", "filesrc", "location=" + clip, "!", "qtdemux", "name=d", "d.video_0", "!",
                  "queue", "!", "h264parse", "!", "avdec_h264", "!", "fakesink", "sync=false"]
        pngs = decode[:-3] + ["!", "videorate", "drop-only=true", "!", "video/x-raw,framerate=%d/%d" % (12 * 1000, round(dur * 1000)),
                              "!", "videoscale", "!", "video/x-raw,width=240,height=%d" % th, "!", "videoconvert", "!", "pngenc", "!",
                              "multifilesink", "location=" + os.path.join(scratch, "f%02d.png")]
        commands = [
            ("gstplay thumbnails --count 12", [gstplay, "thumbnails", clip, "--count", "12", "-q", "-o", os.path.join(scratch, "k.png")]),
            ("gstplay thumbnails --count 12 --accurate", [gstplay, "thumbnails", clip, "--count", "12", "--accurate", "-q", "-o", os.path.join(scratch, "a.png")]),
            ("gst-launch-1.0: decode the whole clip", decode),
            ("gst-launch-1.0: decode + 12 PNGs (videorate)", pngs),
        ]
        results = {name: [] for name, _ in commands}
        for _, cmd in commands: timed(cmd)  # warm-up
        for r in range(runs):
            for k in range(len(commands)):
                name, cmd = commands[(k + r) % len(commands)]
                results[name].append(timed(cmd))
        base = statistics.median(x[0] for x in results[commands[2][0]])
        for name, _ in commands:
            walls = [x[0] for x in results[name]]; cpus = [x[1] for x in results[name]]
            print("| %s | %s | %.0f (%.0f–%.0f) | %.0f (%.0f–%.0f) | %.2f |" % (
                os.path.basename(clip), name, statistics.median(walls), min(walls), max(walls),
                statistics.median(cpus), min(cpus), max(cpus), statistics.median(walls) / base))
    shutil.rmtree(scratch)
    load = os.getloadavg()
    print("\n%d timed runs per program and clip; load average at the end %.2f %.2f %.2f." % (runs, *load))

main()
