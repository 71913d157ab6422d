#!/usr/bin/env python3
"""The seek preview's frame-drop cost (docs/BENCHMARKS.md, "Seek preview: frames dropped").

Makes a 40 s 1280x720 30 fps H.264 clip (videotestsrc, openh264enc, a key frame every 2 s) unless
one is given, then, under a private Xvfb, plays it with gstplay (`--json`, ximagesink) with
`--osd-seek-preview=yes` and `=no` in alternating rounds: once 1 s has played, 12 seeks (fixed
targets all over the clip, 2 s apart, playing between them: each jump shows the preview and, from
the first, the background thumbnail track is made). Before each seek and at the end, `stats`: the video sink's
dropped and rendered frames since the last seek (`stats::dropped`/`rendered`, the player's
statistics; basesink starts them again at each flush), added up over the run. Prints one JSON line per run and a
summary per mode.

Needs Xvfb, gst-launch-1.0 with openh264enc, and a built gstplay (default .build/debug/gstplay;
GSTPLAY=... for another). Usage: Tests/Scripts/seek_preview_drops.py [rounds] [clip]
"""
import json
import os
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GSTPLAY = os.environ.get("GSTPLAY", os.path.join(ROOT, ".build/debug/gstplay"))
TARGETS = [31, 5, 22, 12, 36, 2, 27, 17, 8, 33, 14, 25]
GAP = 2.0


def make_clip(path):
    subprocess.run(["gst-launch-1.0", "-q", "videotestsrc", "num-buffers=1200", "pattern=smpte", "!",
                    "video/x-raw,width=1280,height=720,framerate=30/1", "!", "timeoverlay", "font-desc=Sans 48", "!",
                    "videoconvert", "!", "openh264enc", "gop-size=60", "bitrate=4000000", "!", "h264parse", "!",
                    "mp4mux", "faststart=true", "!", "filesink", f"location={path}"], check=True)


def start_xvfb():
    read, write = os.pipe()
    xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "1600x900x24", "-nolisten", "tcp", "-noreset"],
                            pass_fds=(write,), stderr=subprocess.DEVNULL)
    os.close(write)
    display = b""
    while not display.endswith(b"\n"):   # the number, then a newline: a closed pipe before it kills Xvfb (SIGPIPE)
        chunk = os.read(read, 16)
        if not chunk:
            break
        display += chunk
    os.close(read)
    return xvfb, ":" + display.decode().strip()


class Player:
    def __init__(self, clip, preview, display):
        env = dict(os.environ, DISPLAY=display)
        self.process = subprocess.Popen([GSTPLAY, "--json", "--keep-open", "--video-sink", "ximagesink",
                                         f"--osd-seek-preview={preview}", clip],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                        env=env, text=True, bufsize=1)
        self.lines = []
        self.lock = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.process.stdout:
            try:
                message = json.loads(line)
            except ValueError:
                continue
            with self.lock:
                self.lines.append(message)
                self.lock.notify_all()

    def send(self, command):
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()

    def wait(self, predicate, after=0, timeout=60):
        deadline = time.monotonic() + timeout
        with self.lock:
            while True:
                for message in self.lines[after:]:
                    if predicate(message):
                        return message
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError("no matching message")
                self.lock.wait(left)

    def quit(self):
        try:
            self.send("quit")
            self.process.wait(timeout=20)
        except Exception:
            self.process.kill()


def run(clip, preview, display):
    player = Player(clip, preview, display)
    try:
        player.wait(lambda m: m.get("event") == "position" and (m.get("position") or 0) >= 1)
        dropped = rendered = 0
        per_seek = []
        for target in TARGETS + [None]:
            # The sink's counts start again at every flushing seek (basesink resets its QoS
            # statistics on FLUSH_STOP): read them just before each seek and add them up.
            mark = len(player.lines)
            player.send("stats")
            stats = player.wait(lambda m: isinstance(m.get("data"), dict) and "dropped_frames" in m["data"], after=mark)["data"]
            dropped += stats["dropped_frames"]
            rendered += stats["rendered_frames"]
            per_seek.append(stats["dropped_frames"])
            if target is not None:
                player.send(f"seek {target}")
                time.sleep(GAP)
        return {"preview": preview, "dropped_frames": dropped, "rendered_frames": rendered, "dropped_per_span": per_seek}
    finally:
        player.quit()


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    work = tempfile.mkdtemp(prefix="seek-preview-drops-")
    clip = sys.argv[2] if len(sys.argv) > 2 else os.path.join(work, "720p-40s.mp4")
    if not os.path.exists(clip):
        make_clip(clip)
    xvfb, display = start_xvfb()
    results = {"yes": [], "no": []}
    try:
        for index in range(rounds):
            for preview in (["yes", "no"] if index % 2 == 0 else ["no", "yes"]):
                result = run(clip, preview, display)
                results[preview].append(result)
                print(json.dumps(result), flush=True)
    finally:
        xvfb.terminate()
    for preview, runs in results.items():
        dropped = [r["dropped_frames"] for r in runs]
        rendered = [r["rendered_frames"] for r in runs]
        print(json.dumps({"summary": preview, "dropped": dropped, "rendered": rendered,
                          "mean_dropped": sum(dropped) / len(dropped), "mean_rendered": sum(rendered) / len(rendered)}))


if __name__ == "__main__":
    main()
