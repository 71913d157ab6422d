"""What the mpv IPC client scripts share: one JSON line per step, and a wait on a condition."""
import json
import time


def report(step, **fields):
    print(json.dumps(dict(step=step, **fields)), flush=True)


def wait_until(predicate, timeout=8.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return predicate()
