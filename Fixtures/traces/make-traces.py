#!/usr/bin/env python3
"""Writes the bandwidth traces of the ABR tests and benchmark (issue 26) into DIR (default: this
script's directory). Generated, not downloaded; a fixed seed, so every run writes the same bytes
(TraceShapingTests checks the committed files against a fresh run).

Format: one step per line, "<seconds> <kbit/s>"; '#' starts a comment. The test HTTP server
(Tests/TestSupport/http_trace.py) repeats a trace after its end.

The rates are set against the HLS ladder of Fixtures/make-fixtures.sh --hls (peak BANDWIDTH:
240p 364, 480p 1037, 720p 2503 kbit/s).

  steady-high          90 s at 6000 kbit/s: every variant fits, 720p with room to spare
  steady-under-middle  90 s at 900 kbit/s: just under 480p, so only 240p is sustainable
  step-down            30 s at 3000, then 60 s at 600 kbit/s (720p fits, then only 240p)
  step-up              30 s at 600, then 60 s at 3000 kbit/s
  oscillating          3000 and 600 kbit/s alternating, each for 5-10 s (random), ~90 s
  up-down-up           30 s at 2000, 20 s at 300, 40 s at 2000 kbit/s (issue 26's up-switch-then-
                       stall case: 720p does not fit 2000, 480p does; then only 240p)
  mobile-walk          120 one-second steps of a random walk in log-rate (150-5000 kbit/s,
                       mean-reverting towards 1.2 Mb/s) with a 10 s outage (0 kbit/s) at 60-70 s
"""
import math
import os
import random
import sys

SEED = 26


def write(directory, name, description, steps):
    lines = ["# %s (Fixtures/traces/make-traces.py, seed %d)" % (description, SEED), "# seconds kbit/s"]
    lines += ["%g %g" % (seconds, kbps) for seconds, kbps in steps]
    with open(os.path.join(directory, name + ".txt"), "w") as out:
        out.write("\n".join(lines) + "\n")


def oscillating(rng):
    steps, total, high = [], 0, True
    while total < 90:
        seconds = rng.randint(5, 10)
        steps.append((seconds, 3000 if high else 600))
        total += seconds
        high = not high
    return steps


def mobile_walk(rng):
    steps, level, target = [], math.log(1200), math.log(1200)
    for second in range(120):
        if 60 <= second < 70:
            steps.append((1, 0))
            continue
        level += 0.25 * (target - level) + rng.gauss(0, 0.35)
        level = min(max(level, math.log(150)), math.log(5000))
        steps.append((1, int(round(math.exp(level), -1))))
    return steps


def main():
    directory = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    os.makedirs(directory, exist_ok=True)
    rng = random.Random(SEED)
    write(directory, "steady-high", "steady high: 6000 kbit/s", [(90, 6000)])
    write(directory, "steady-under-middle", "steady just under the 480p variant: 900 kbit/s", [(90, 900)])
    write(directory, "step-down", "a step down: 3000 then 600 kbit/s", [(30, 3000), (60, 600)])
    write(directory, "step-up", "a step up: 600 then 3000 kbit/s", [(30, 600), (60, 3000)])
    write(directory, "oscillating", "3000/600 kbit/s alternating every 5-10 s", oscillating(rng))
    write(directory, "mobile-walk", "a mobile-like random walk with a 10 s outage at 60-70 s", mobile_walk(rng))
    write(directory, "up-down-up", "2000, 300, then 2000 kbit/s", [(30, 2000), (20, 300), (40, 2000)])


if __name__ == "__main__":
    main()
