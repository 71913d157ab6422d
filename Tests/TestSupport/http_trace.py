"""The trace-driven link of http_test_server.py (issue 26).

One shared link whose rate follows a bandwidth trace: a list of (seconds, kbit/s) steps that
repeats after its period, its clock starting when the trace is set. Every shaped response body
goes through the link chunk by chunk: a chunk of n bytes occupies the link from when it is free
(or now, if it has been idle) until the trace has carried n*8 bits, and the sender writes the
chunk when its transmission ends, so concurrent responses share the bandwidth. An optional RTT
is waited before each response's headers. The Swift side is Tests/TestSupport/HTTPTestServer+Trace.swift;
the same arithmetic is StreamingQoE.BandwidthTrace.
"""
import threading
import time

# A link that was busy until at most this long ago is treated as still busy (the sender was
# late waking up, not idle): no capacity is lost to scheduling jitter.
SLACK = 0.1


class TraceLink:
    def __init__(self):
        self.lock = threading.Lock()
        self.steps = None      # [(seconds, bits/s)] or None: no shaping
        self.origin = 0.0      # monotonic time of the trace's 0 s
        self.free_at = 0.0     # monotonic time the link finishes what it was given
        self.rtt = 0.0         # seconds

    def set(self, steps_text, rtt_ms, start=0):
        """steps_text: "seconds:kbps,..." (empty: lift the shaping); start: the trace's time now,
        in seconds. Returns the monotonic time of the trace's 0 s. Raises ValueError when bad."""
        steps = None
        if steps_text:
            steps = [(float(s), float(k) * 1000) for s, k in (p.split(":") for p in steps_text.split(","))]
            if any(s <= 0 or r < 0 for s, r in steps) or not any(r > 0 for _, r in steps):
                raise ValueError("bad trace")
        with self.lock:
            self.steps = steps
            self.free_at = time.monotonic()
            self.origin = self.free_at - float(start or 0)
            self.rtt = max(0.0, float(rtt_ms or 0)) / 1000 if steps else 0.0
            return self.origin

    def active(self):
        with self.lock:
            return self.steps is not None

    def round_trip(self, stop):
        """Waits the added RTT (before a response's headers)."""
        with self.lock:
            rtt = self.rtt
        if rtt > 0:
            stop.wait(rtt)

    def send(self, write, piece, stop):
        """Writes `piece` through the link: waits for its transmission to end, then writes it."""
        with self.lock:
            if self.steps is None:
                finish = None
            else:
                now = time.monotonic()
                start = self.free_at if self.free_at >= now - SLACK else now
                finish = self._finish(start, len(piece) * 8.0)
                self.free_at = finish
        while finish is not None and not stop.is_set():
            delay = finish - time.monotonic()
            if delay <= 0:
                break
            stop.wait(min(delay, 0.25))
        write(piece)

    def _finish(self, start, bits):
        """The monotonic time the trace has carried `bits` from `start` on (under self.lock)."""
        period = sum(s for s, _ in self.steps)
        offset = (start - self.origin) % period
        t = start
        i, into = 0, offset
        while into >= self.steps[i][0]:
            into -= self.steps[i][0]
            i = (i + 1) % len(self.steps)
        while True:
            seconds, rate = self.steps[i]
            left = seconds - into
            if rate > 0 and rate * left >= bits:
                return t + bits / rate
            bits -= rate * left
            t += left
            i, into = (i + 1) % len(self.steps), 0.0


LINK = TraceLink()
