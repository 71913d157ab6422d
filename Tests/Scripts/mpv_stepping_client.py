#!/usr/bin/env python3
"""python-mpv-jsonipc (PyPI) driving a running gstplay's A-B loop and frame steps with mpv's names.

Usage: mpv_stepping_client.py SOCKET. Prints one JSON object per step on stdout; always exits 0
(the Swift test, Tests/gstplayTests/MpvSteppingTests.swift, checks each step's "ok"). The socket's
media is the 30 fps h264-aac-10s.mp4 fixture.
"""
import json
import sys
import time

from python_mpv_jsonipc import MPV

from mpv_client_steps import report, wait_until as shared_wait_until


def wait_until(predicate, timeout=10.0):
    return shared_wait_until(predicate, timeout)   # this client waits longer by default


def frame(seconds):
    return round(seconds * 30)


def main(path):
    mpv = MPV(start_mpv=False, ipc_socket=path)
    try:
        wait_until(lambda: (mpv.time_pos or 0) > 0.3)

        # frame-step while playing pauses; then, paused, frame-step / frame-back-step move the shown
        # frame by one each. (Counted from a paused start: the step that pauses a playing player
        # lands where playback was when it arrived, a frame or ten after the seek under load.)
        mpv.command("frame-step")
        paused_by_step = wait_until(lambda: mpv.pause is True)
        mpv.command("seek", 1.0, "absolute+exact")
        wait_until(lambda: frame(mpv.time_pos or 0) == 30)
        frames = []
        for _ in range(10):
            mpv.command("frame-step")
            frames.append(frame(mpv.time_pos))
        for _ in range(10):
            mpv.command("frame-back-step")
            frames.append(frame(mpv.time_pos))
        moves = [b - a for a, b in zip(frames, frames[1:])]
        report("frame-steps", ok=paused_by_step and moves == [1] * 9 + [-1] * 10 and mpv.pause is True,
               frames=frames, paused=mpv.pause, paused_by_step=paused_by_step)

        # ab-loop-a / ab-loop-b / ab-loop-count: loops twice, then plays on past B.
        # The count first: a pass the demuxer already queued under the previous count (inf) when the
        # count is set later is one more loop (seen under load: 3 loop-backs for a count of 2).
        mpv.command("seek", 1.0, "absolute+exact")
        mpv.ab_loop_count = 2
        mpv.ab_loop_a = 1.0
        mpv.ab_loop_b = 1.6
        values = [mpv.ab_loop_a, mpv.ab_loop_b, mpv.ab_loop_count]
        # The count goes down when the demuxer starts the next pass, which may be before the
        # playhead reaches B (in PAUSED the whole span is read ahead at once).
        report("ab-loop-set", ok=values[:2] == [1.0, 1.6] and values[2] in (1, 2), values=values)
        counts = []

        @mpv.property_observer("ab-loop-count")
        def on_count(_name, value):
            counts.append(value)

        positions = []

        @mpv.property_observer("time-pos")
        def on_time_pos(_name, value):
            if value is not None:
                positions.append(value)

        mpv.pause = False
        looped = wait_until(lambda: mpv.ab_loop_count == 0, timeout=15)
        went_on = wait_until(lambda: (mpv.time_pos or 0) > 2.0, timeout=10)
        # The loop's jumps: from near B back to near A. A position from before the seek to A that
        # the observer delivers late (seen under load) is no jump of the loop.
        jumps = sum(1 for a, b in zip(positions, positions[1:]) if b < a - 0.2 and 1.3 <= a <= 1.8 and 0.9 <= b <= 1.3)
        report("ab-loop-plays", ok=looped and went_on and jumps == 2 and counts[-1:] == [0],
               counts=counts, jumps=jumps, position=mpv.time_pos, positions=[round(p, 3) for p in positions[:60]])

        # ab-loop command: A here, then B here (back to A), then clear.
        mpv.ab_loop_count = "inf"
        mpv.ab_loop_a = "no"
        mpv.ab_loop_b = "no"
        mpv.command("ab-loop")
        after_a = [mpv.ab_loop_a, mpv.ab_loop_b]
        time.sleep(0.4)
        mpv.command("ab-loop")
        after_b = [mpv.ab_loop_a, mpv.ab_loop_b]
        back = wait_until(lambda: (mpv.time_pos or 0) < after_b[1] - 0.2, timeout=5)
        mpv.command("ab-loop")
        cleared = [mpv.ab_loop_a, mpv.ab_loop_b, mpv.ab_loop_count]
        report("ab-loop-command", ok=isinstance(after_a[0], float) and after_a[1] == "no"
               and isinstance(after_b[1], float) and after_b[1] > after_b[0] and back and cleared == ["no", "no", "inf"],
               after_a=after_a, after_b=after_b, cleared=cleared)
    finally:
        mpv.terminate()


if __name__ == "__main__":
    main(sys.argv[1])
