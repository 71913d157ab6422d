#!/usr/bin/env python3
"""python-mpv-jsonipc (from PyPI) reading a running gstplay's subtitle tracks with mpv's names.

Usage: mpv_sub_auto_client.py SOCKET. Waits for `track-list` to list the item's tracks, then
prints one JSON object: the `sub` entries of `track-list` (id, external, codec) and `sid`. Run by
Tests/gstplayTests/MpvHabitsCLITests.swift with the venv `make test` makes (.build/test-venv).
"""
import json
import sys
import time

from python_mpv_jsonipc import MPV


def main(path):
    mpv = MPV(start_mpv=False, ipc_socket=path)
    try:
        deadline = time.monotonic() + 15
        subs = []
        while time.monotonic() < deadline:
            tracks = mpv.command("get_property", "track-list") or []
            subs = [t for t in tracks if t.get("type") == "sub"]
            if any(t.get("selected") for t in subs):
                break
            time.sleep(0.1)
        print(json.dumps({"subs": [{k: t.get(k) for k in ("id", "external", "codec", "selected")} for t in subs],
                          "sid": mpv.command("get_property", "sid")}), flush=True)
        return 0
    finally:
        mpv.terminate()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
