#!/usr/bin/env python3
"""One picture per trace of the adaptive-streaming QoE benchmark (`make bench-abr`).

    plot-abr.py RESULTS.json OUT_DIR

RESULTS.json is what `gstplay-bench abr-qoe` writes (QoEResultsFile in
Sources/gstplay-bench/ABRQoE/QoEBench.swift). For each trace, OUT_DIR/<trace>.png has one column
per protocol (HLS, DASH): on top the trace's bandwidth (grey) and the bitrate each player
requested, over the seconds of the trace; below, each player's buffer level (media downloaded
minus position) and its stalls (shaded spans from the axis). The run drawn is the one whose buffer-aware QoE was the median of its runs.
Needs matplotlib (the Makefile's bench venv installs it).
"""
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

ORDER = ["gstplay-buffer", "gstplay-throughput", "playbin"]
COLOURS = {"gstplay-buffer": "#1f77b4", "gstplay-throughput": "#2ca02c", "playbin": "#d62728"}
LABELS = {"gstplay-buffer": "gstplay buffer-aware", "gstplay-throughput": "gstplay throughput rule",
          "playbin": "playbin default"}


def trace_steps(trace):
    """(times, kbps) of the trace as a step line over [0, seconds] (the run starts `start` s in)."""
    period = sum(s for s, _ in trace["steps"])
    times, rates = [], []
    t = 0.0
    while t < trace["seconds"] + 1e-9:
        offset = (t + trace["start"]) % period
        for seconds, kbps in trace["steps"]:
            if offset < seconds:
                left = seconds - offset
                break
            offset -= seconds
        times.append(t)
        rates.append(kbps / 1000)
        t += left
    times.append(trace["seconds"])
    rates.append(rates[-1])
    return times, rates


def median_job(jobs):
    def qoe(job):
        for p in job["players"]:
            if p["player"] == "gstplay-buffer" and p.get("failure") is None:
                return p["score"]["qoe"]
        return float("-inf")
    ordered = sorted(jobs, key=qoe)
    return ordered[(len(ordered) - 1) // 2] if ordered else None


def draw(trace, jobs_by_proto, ladder, path):
    protos = [p for p in ("hls", "dash") if jobs_by_proto.get(p)]
    fig, axes = plt.subplots(2, len(protos), figsize=(6.4 * len(protos), 6.4), sharex=True, squeeze=False,
                             gridspec_kw={"height_ratios": [3, 2]})
    top_rate = max(max(k for _, k in trace["steps"]) / 1000, max(ladder.values()) / 1000) * 1.1
    for column, proto in enumerate(protos):
        job = median_job(jobs_by_proto[proto])
        rate_ax, buffer_ax = axes[0][column], axes[1][column]
        times, rates = trace_steps(trace)
        rate_ax.fill_between(times, rates, step="post", color="#cccccc", label="trace bandwidth")
        for kbps in ladder.values():
            rate_ax.axhline(kbps / 1000, color="#999999", linewidth=0.5, linestyle=":")
        order = {name: index for index, name in enumerate(ORDER)}
        for player in job["players"]:
            if player.get("failure") is not None:
                continue
            name, line = player["player"], player["timeline"]
            start = trace["start"]
            requests = [(r["time"] - start, r["position"] / 1000) for r in line["requests"]]
            if requests:
                xs = [t for t, _ in requests] + [line["endTime"] - start]
                ys = [k for _, k in requests] + [requests[-1][1]]
                rate_ax.step(xs, ys, where="post", color=COLOURS.get(name), linewidth=1.6, label=LABELS.get(name, name))
            for stall in line.get("stalls", []):  # a bar under the axis per stall
                buffer_ax.axvspan(stall["start"] - start, stall["end"] - start, ymin=0.05 * order[name], ymax=0.05 * (order[name] + 1),
                                  color=COLOURS.get(name), alpha=0.6, linewidth=0)
            buffer = [(b["time"] - start, b["position"]) for b in line["buffer"]]
            if buffer:
                buffer_ax.plot([t for t, _ in buffer], [s for _, s in buffer], color=COLOURS.get(name), linewidth=1.2,
                               label=LABELS.get(name, name))
        rate_ax.set_ylim(0, top_rate)
        rate_ax.set_ylabel("Mb/s")
        rate_ax.set_title("%s — %s, run %d (median buffer-aware QoE)" % (trace["name"], proto.upper(), job["run"]), fontsize=10)
        buffer_ax.set_ylabel("buffer, s")
        buffer_ax.set_xlabel("seconds into the run")
        buffer_ax.set_xlim(0, trace["seconds"])
        buffer_ax.set_ylim(bottom=0)
        rate_ax.grid(alpha=0.3)
        buffer_ax.grid(alpha=0.3)
    axes[0][0].legend(loc="upper right", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=80)
    plt.close(fig)


def main():
    if len(sys.argv) != 3:
        sys.stderr.write("usage: plot-abr.py RESULTS.json OUT_DIR\n")
        return 2
    results = json.load(open(sys.argv[1]))
    os.makedirs(sys.argv[2], exist_ok=True)
    for trace in results["traces"]:
        jobs = {}
        for job in results["jobs"]:
            if job["trace"] == trace["name"]:
                jobs.setdefault(job["proto"], []).append(job)
        if not jobs:
            continue
        path = os.path.join(sys.argv[2], trace["name"] + ".png")
        draw(trace, jobs, results["ladder"], path)
        print("wrote", path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
