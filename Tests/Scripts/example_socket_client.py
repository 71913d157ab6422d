#!/usr/bin/env python3
"""python-mpv-jsonipc (from PyPI) driving Sources/ExampleSocketPlayer, an app that embeds the
Backend and serves the mpv socket with BackendControl (not the gstplay CLI).

Usage: example_socket_client.py SOCKET. Prints one JSON object per step on stdout; exits 0 when
every step held, 1 otherwise. Run by Tests/gstplayTests/ExampleSocketPlayerTests.swift with the
venv `make test` makes (.build/test-venv).
"""
import sys
import threading
import time

from python_mpv_jsonipc import MPV

from mpv_client_steps import report, wait_until


def main(path):
    mpv = MPV(start_mpv=False, ipc_socket=path)   # asks for property-list and command-list first
    results = []

    def step(name, ok, **fields):
        results.append(ok)
        report(name, ok=ok, **fields)

    try:
        positions = []
        lock = threading.Lock()

        @mpv.property_observer("time-pos")
        def on_time_pos(_name, value):
            if value is not None:
                with lock:
                    positions.append(value)

        advanced = wait_until(lambda: len(set(positions)) >= 3)
        with lock:
            seen = list(positions)
        step("observe", advanced and seen == sorted(seen) and seen[-1] > seen[0], positions=seen)

        before = mpv.volume
        mpv.volume = 40
        step("volume", abs(before - 100) < 0.5 and abs(mpv.volume - 40) < 0.5,
             before=before, after=mpv.volume)

        mpv.pause = True

        def still():                                       # playing moves time-pos 0.25 s per 250 ms
            first = mpv.time_pos
            time.sleep(0.3)
            return mpv.pause is True and mpv.time_pos == first

        step("pause", wait_until(still), paused=mpv.pause, position=mpv.time_pos)

        mpv.pause = False
        at = mpv.time_pos
        step("resume", wait_until(lambda: mpv.time_pos > at + 0.3), before=at, after=mpv.time_pos)

        try:                                               # the reply may or may not beat the close
            mpv.command("quit", 3)
            answered = True
        except BrokenPipeError:
            answered = False
        step("quit", True, answered=answered)
    finally:
        mpv.terminate()
    return 0 if results and all(results) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
