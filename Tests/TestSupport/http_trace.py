"""The trace-driven link of http_test_server.py.

One shared link whose rate follows a bandwidth trace: a list of (seconds, kbit/s) steps that
repeats after its period, its clock starting when the trace is set. Every shaped response body
goes through the link chunk by chunk: a chunk of n bytes occupies the link from when it is free
(or now, if it has been idle) until the trace has carried n*8 bits, and the sender writes the
chunk when its transmission ends, so concurrent responses share the bandwidth. An optional RTT
is waited before each response's headers.

A sender woken late (a loaded machine) does not lose the link's capacity: a response under way
is owed the time between its previous chunk's end and its next chunk, less the time its write
blocked (a reader that does not read idles a real link too), up to BURST, so it catches up
like a kernel's socket buffer would have drained on its own. A response's first chunk is owed
only SLACK: a link idle between requests gives no burst (the ABR's measurements see the trace).

The Swift side is Tests/TestSupport/HTTPTestServer+Trace.swift; the same arithmetic is
StreamingQoE.BandwidthTrace.
"""
import threading
import time

# A link that was busy until at most this long ago is treated as still busy (the sender was
# late waking up, not idle): no capacity is lost to scheduling jitter.
SLACK = 0.1
# The most link time a response under way is credited for its sender's lateness (seconds).
BURST = 1.0


class TraceLink:
    def __init__(self):
        self.lock = threading.Lock()
        self.steps = None      # [(seconds, bits/s)] or None: no shaping
        self.origin = 0.0      # monotonic time of the trace's 0 s
        self.free_at = 0.0     # monotonic time the link finishes what it was given
        self.rtt = 0.0         # seconds
        self.oversleep = 0.0   # seconds every wait of a sender ends late (tests of a loaded machine)

    def set(self, steps_text, rtt_ms, start=0, oversleep_ms=0):
        """steps_text: "seconds:kbps,..." (empty: lift the shaping); start: the trace's time now,
        in seconds; oversleep_ms: every wait for a chunk's transmission ends this much later (a
        late scheduler, made on purpose). Returns the monotonic time of the trace's 0 s. Raises
        ValueError when bad."""
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
            self.oversleep = max(0.0, float(oversleep_ms or 0)) / 1000 if steps else 0.0
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

    def pacer(self):
        """The way one response body goes through the link, chunk after chunk (`Pacer.send`)."""
        return Pacer(self)

    def schedule(self, bits, owed):
        """Books `bits` on the link: returns the monotonic time their transmission ends, or None
        when nothing is shaped. `owed`: how late the sender of a response under way is (seconds,
        claimed back up to BURST); None for a response's first chunk. A link busy until at most
        SLACK ago is taken as busy either way."""
        with self.lock:
            if self.steps is None:
                return None
            now = time.monotonic()
            if self.free_at >= now - SLACK:
                start = self.free_at
            else:
                start = max(self.free_at, now - min(owed or 0.0, BURST))
            self.free_at = self._finish(start, bits)
            return self.free_at

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


class Pacer:
    """One response body's sender: writes each chunk when the link has carried it, and keeps what
    its lateness is owed (the module's docstring)."""

    def __init__(self, link):
        self.link = link
        self.due = None       # when this response's previous chunk ended on the link
        self.blocked = 0.0    # seconds its write took (the reader's pace, not the sender's)

    def send(self, write, piece, stop):
        """Writes `piece` through the link: waits for its transmission to end, then writes it."""
        owed = None
        if self.due is not None:
            owed = max(0.0, time.monotonic() - self.due - self.blocked)
        finish = self.link.schedule(len(piece) * 8.0, owed)
        waited = False
        while finish is not None and not stop.is_set():
            delay = finish - time.monotonic()
            if delay <= 0:
                break
            waited = True
            stop.wait(min(delay, 0.25))
        if waited and self.link.oversleep > 0:
            stop.wait(self.link.oversleep)
        began = time.monotonic()
        write(piece)
        self.blocked = time.monotonic() - began
        self.due = finish


LINK = TraceLink()
