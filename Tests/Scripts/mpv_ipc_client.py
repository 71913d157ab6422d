#!/usr/bin/env python3
"""An existing mpv IPC client library (python-mpv-jsonipc, from PyPI) driving a running gstplay.

Usage: mpv_ipc_client.py SOCKET. Prints one JSON object per step on stdout; exits 0 when every
step held, 1 (with the failing step) otherwise. Run by Tests/gstplayTests/MpvClientTests.swift
with the venv `make test` makes (.build/test-venv).
"""
import json
import sys
import threading
import time

from python_mpv_jsonipc import MPV

from mpv_client_steps import report, wait_until


def main(path):
    mpv = MPV(start_mpv=False, ipc_socket=path)   # asks for property-list and command-list first
    try:
        positions = []
        lock = threading.Lock()

        @mpv.property_observer("time-pos")
        def on_time_pos(_name, value):
            if value is not None:
                with lock:
                    positions.append(value)

        if not wait_until(lambda: len(set(positions)) >= 3):
            return report("observe", ok=False, positions=positions)
        with lock:
            seen = list(positions)
        report("observe", ok=seen == sorted(seen) and seen[-1] > seen[0], positions=seen)

        report("get", ok=isinstance(mpv.duration, float) and abs(mpv.duration - 10.0) < 0.2,
               duration=mpv.duration, filename=mpv.filename, idle=mpv.idle_active, count=mpv.playlist_count)

        mpv.pause = True

        def still():                                       # playing moves time-pos 0.25 s per 250 ms
            before = mpv.time_pos
            time.sleep(0.3)
            return mpv.pause is True and mpv.time_pos == before

        paused = wait_until(still)
        first = mpv.time_pos
        time.sleep(0.6)
        second = mpv.time_pos
        report("pause", ok=paused and abs(second - first) < 0.001, first=first, second=second)

        mpv.seek(2)                                        # mpv's relative seek (a JSON number)
        landed = wait_until(lambda: abs(mpv.time_pos - (second + 2)) < 0.3, timeout=3)
        report("seek-relative", ok=landed, before=second, after=mpv.time_pos)

        mpv.command("seek", 1.5, "absolute")
        landed = wait_until(lambda: abs(mpv.time_pos - 1.5) < 0.3, timeout=3)
        absolute = mpv.time_pos
        report("seek-absolute", ok=landed, position=absolute)

        mpv.volume = 50
        report("volume", ok=abs(mpv.volume - 50) < 0.5, volume=mpv.volume)   # as asked, at once (as mpv)

        mpv.pause = False
        report("resume", ok=wait_until(lambda: mpv.time_pos > absolute + 0.3), position=mpv.time_pos)
    finally:
        mpv.terminate()


if __name__ == "__main__":
    main(sys.argv[1])
