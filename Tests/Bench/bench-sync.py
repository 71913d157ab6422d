#!/usr/bin/env python3
"""Playing in sync across machines, measured (`make bench-sync`, as root).

Usage: Tests/Bench/bench-sync.py --self-test   (the offset arithmetic on synthetic logs)
       Tests/Bench/bench-sync.py --gstplay BIN --relay BIN --clip CLIP [--followers 2,4,8] [--seconds 20]
                                 [--mode auto|sync|dry] [--out docs/BENCHMARKS.md] [--png docs/sync-offsets.png]
                                 [--work DIR] [--cases clean,relay,late,restart]

Each "machine" is a network namespace joined to a hub namespace's bridge by a veth pair, on
10.77.0.0/24 (leader 10.77.0.1, followers 10.77.0.11…, the hub's bridge 10.77.0.254). The
leader plays CLIP (`gstplay --sync-serve=10.77.0.1:PORT CLIP`), each follower joins it
(`gstplay --sync-to 10.77.0.1:PORT`), all headless (fakevideosink/fakeaudiosink) and with
`--render-log`. All namespaces share one kernel, so one CLOCK_REALTIME: for a video pts both
rendered, offset = realtime_A(pts) - realtime_B(pts) is how far apart A and B showed that frame.

Cases (each with 2, 4 and 8 followers):
  clean    the bridge as it is (sub-millisecond)
  relay    the followers' clock packets (`--sync-clock`) go through udp-relay in the hub,
           5 ms ± 2 ms each way and 1 % loss (this kernel has no netem)
  late     one more follower starts 5 s after the others: time to lock = from its start to its
           first rendered frame within 1 ms of the leader's
  restart  the leader is stopped at 8 s and started again 1 s later: time to re-lock = from the
           new leader's first frame to each follower's first frame within 1 ms of it

`--mode dry` (also `auto` when gstplay has no `--sync-serve`): the same namespaces, logs and
arithmetic with every player playing CLIP on its own from the same start (no sync): it proves
the harness; its offsets are only how far apart independent starts land.

Offsets are taken after a settling time (2 s after each player's first frame) and reported as
p50 / p95 / max of |offset| in ms over every matched frame of every follower (vs the leader) and
of every pair of followers. Writes the section between the sync-bench markers of --out and the
picture --png (offset vs the leader over time, one line per follower; matplotlib when importable).
Namespaces, the bridge and every child are removed at exit, also on errors and signals.
"""
import argparse, atexit, datetime, itertools, os, platform, signal, socket, statistics, subprocess, sys, tempfile, time

PREFIX = "gsync"
HUB = PREFIX + "-hub"
SUBNET = "10.77.0."
HUB_IP = SUBNET + "254"
LEADER_IP = SUBNET + "1"
PORT = 8554
SETTLE_NS = 2_000_000_000
LOCK_NS = 1_000_000

children = []


def sh(*args, check=True):
    done = subprocess.run(list(args), capture_output=True, text=True)
    if check and done.returncode != 0:
        raise RuntimeError("%s: %s" % (" ".join(args), done.stderr.strip()))
    return done.stdout


def cleanup():
    """Kills our children, deletes every namespace of ours (their veths go with them) and the hub."""
    for child in children:
        if child.poll() is None:
            child.kill()
    for child in children:
        try:
            child.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
    children.clear()
    for name in sh("ip", "netns", "list", check=False).split("\n"):
        name = name.split(" ")[0]
        if name.startswith(PREFIX + "-"):
            for pid in sh("ip", "netns", "pids", name, check=False).split():
                try:
                    os.kill(int(pid), signal.SIGKILL)
                except (ProcessLookupError, ValueError):
                    pass
            sh("ip", "netns", "del", name, check=False)


class Network:
    """The hub namespace with bridge br0 (10.77.0.254) and one namespace per node."""

    def __init__(self):
        cleanup()   # a previous run killed hard may have left some behind
        sh("ip", "netns", "add", HUB)
        self.ns(HUB, "ip", "link", "set", "lo", "up")
        self.ns(HUB, "ip", "link", "add", "br0", "type", "bridge")
        self.ns(HUB, "ip", "addr", "add", HUB_IP + "/24", "dev", "br0")
        self.ns(HUB, "ip", "link", "set", "br0", "up")
        self.nodes = {}

    @staticmethod
    def ns(name, *args):
        return sh("ip", "netns", "exec", name, *args)

    def node(self, index):
        """Namespace gsync-n<index> with eth0 = 10.77.0.<index> on the hub's bridge."""
        if index in self.nodes:
            return self.nodes[index]
        name = "%s-n%d" % (PREFIX, index)
        sh("ip", "netns", "add", name)
        outer, inner = "gs%dh" % index, "gs%dn" % index
        sh("ip", "link", "add", outer, "type", "veth", "peer", "name", inner)
        sh("ip", "link", "set", outer, "netns", HUB)
        sh("ip", "link", "set", inner, "netns", name)
        self.ns(HUB, "ip", "link", "set", outer, "master", "br0")
        self.ns(HUB, "ip", "link", "set", outer, "up")
        self.ns(name, "ip", "link", "set", inner, "name", "eth0")
        self.ns(name, "ip", "addr", "add", SUBNET + str(index) + "/24", "dev", "eth0")
        self.ns(name, "ip", "link", "set", "eth0", "up")
        self.ns(name, "ip", "link", "set", "lo", "up")
        self.nodes[index] = name
        return name


def spawn(namespace, argv, log_path):
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "PULSE_SERVER")}
    out = open(log_path, "w")
    child = subprocess.Popen(["ip", "netns", "exec", namespace] + argv, stdin=subprocess.PIPE, stdout=out,
                             stderr=subprocess.STDOUT, env=env)
    children.append(child)
    return child


def stop(child, grace=5):
    if child.poll() is None:
        child.send_signal(signal.SIGINT)
        try:
            child.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()


ECHO = r"""
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind((sys.argv[1], int(sys.argv[2])))
while True:
    data, peer = s.recvfrom(2048); s.sendto(data, peer)
"""
PROBE = r"""
import socket, sys, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.settimeout(0.5)
rtts = []
for i in range(200):
    t = time.monotonic_ns(); s.sendto(t.to_bytes(8, "little"), (sys.argv[1], int(sys.argv[2])))
    try:
        data, _ = s.recvfrom(64); rtts.append((time.monotonic_ns() - int.from_bytes(data[:8], "little")) / 1e6)
    except socket.timeout:
        pass
    time.sleep(0.005)
rtts.sort()
print("%d %.2f %.2f" % (len(rtts), rtts[len(rtts) // 2] if rtts else -1, rtts[0] if rtts else -1))
"""


def relay_check(follower_ns, leader_ns, logs):
    """200 datagrams from a follower's namespace through the relay to an echo in the leader's:
    (answered, RTT p50 ms, RTT min ms). Proves the relay's path between namespaces (two shaped legs
    each way: expect about 2 × 5 ms and 2 % loss)."""
    echo = spawn(leader_ns, [sys.executable, "-c", ECHO, LEADER_IP, str(PORT + 1)], os.path.join(logs, "echo.out"))
    time.sleep(0.3)
    out = subprocess.run(["ip", "netns", "exec", follower_ns, sys.executable, "-c", PROBE, HUB_IP, str(PORT + 1)],
                         capture_output=True, text=True).stdout.split()
    stop(echo)
    return (int(out[0]), float(out[1]), float(out[2])) if len(out) == 3 else None


def read_log(path):
    """[(pts, realtime)] of the video lines, in file order."""
    rows = []
    try:
        with open(path) as f:
            for line in f:
                parts = line.split()
                if len(parts) == 4 and parts[0] == "video":
                    rows.append((int(parts[1]), int(parts[3])))
    except FileNotFoundError:
        pass
    return rows


def after_jump(rows, since):
    """The rows from the first one rendered at or after `since` whose pts went back (the player
    reloaded: a leader restart starts the media again); [] when none did."""
    for i in range(1, len(rows)):
        if rows[i][1] >= since and rows[i][0] < rows[i - 1][0]:
            return rows[i:]
    return []


def by_pts(rows, since=0, until=1 << 63):
    """pts -> realtime for rows rendered in [since, until); the first rendering of a pts wins."""
    table = {}
    for pts, real in rows:
        if since <= real < until and pts not in table:
            table[pts] = real
    return table


def offsets(a, b):
    """[(realtime of b, realtime_a - realtime_b)] over the pts both rendered."""
    return sorted((b[p], a[p] - b[p]) for p in a.keys() & b.keys())


def summary(values_ns):
    if not values_ns:
        return None
    ms = sorted(abs(v) / 1e6 for v in values_ns)
    return ms[len(ms) // 2], ms[min(len(ms) - 1, int(len(ms) * 0.95))], ms[-1], len(ms)


def first_lock(follower, leader, since):
    """Realtime of the follower's first frame at or after `since` within LOCK_NS of the leader's."""
    for pts, real in follower:
        if real >= since and pts in leader and abs(real - leader[pts]) <= LOCK_NS:
            return real
    return None


class Bench:
    def __init__(self, args):
        self.args = args
        self.work = args.work or tempfile.mkdtemp(prefix="bench-sync-")
        self.net = Network()
        self.results = []    # dicts: case, followers, vs_leader, between, extra
        self.curves = {}     # case -> [(label, [(t s, offset ms)])] for the largest follower count

    def player(self, role_args, log):
        return [self.args.gstplay, "--quiet", "--video-sink", "fakevideosink", "--audio-sink", "fakeaudiosink",
                "--render-log", log] + role_args

    def leader_args(self):
        if self.args.mode == "dry":
            return [self.args.clip]
        return ["--sync-serve=%s:%d" % (LEADER_IP, PORT), self.args.clip]

    def follower_args(self, via_relay):
        if self.args.mode == "dry":
            return [self.args.clip]
        extra = ["--sync-clock=%s:%d" % (HUB_IP, PORT)] if via_relay else []
        return ["--sync-to", "%s:%d" % (LEADER_IP, PORT)] + extra

    def run_case(self, case, count):
        tag = "%s-%d" % (case, count)
        logs = os.path.join(self.work, tag)
        os.makedirs(logs, exist_ok=True)
        leader_ns = self.net.node(1)
        follower_ns = [self.net.node(11 + i) for i in range(count + (1 if case == "late" else 0))]
        relay = None
        check = None
        if case == "relay" and self.args.mode == "dry":
            # Nothing uses the clock port without sync: prove the relay's path with an echo instead.
            probe_relay = spawn(HUB, [self.args.relay, "--listen", "%s:%d" % (HUB_IP, PORT + 1), "--to", "%s:%d" % (LEADER_IP, PORT + 1),
                                      "--delay-ms", "5", "--jitter-ms", "2", "--loss-percent", "1"], os.path.join(logs, "probe-relay.out"))
            time.sleep(0.3)
            check = relay_check(follower_ns[0], leader_ns, logs)
            stop(probe_relay)
        if case == "relay":
            relay = spawn(HUB, [self.args.relay, "--listen", "%s:%d" % (HUB_IP, PORT), "--to", "%s:%d" % (LEADER_IP, PORT),
                                "--delay-ms", "5", "--jitter-ms", "2", "--loss-percent", "1"], os.path.join(logs, "relay.out"))
            time.sleep(0.5)
        leader_log = os.path.join(logs, "leader.log")
        leader = spawn(leader_ns, self.player(self.leader_args(), leader_log), os.path.join(logs, "leader.out"))
        time.sleep(0.0 if self.args.mode == "dry" else 1.0)   # followers find the leader serving
        starts, followers = [], []
        for i, ns in enumerate(follower_ns[:count]):
            starts.append(time.time_ns())
            followers.append(spawn(ns, self.player(self.follower_args(case == "relay"), os.path.join(logs, "f%d.log" % i)),
                                   os.path.join(logs, "f%d.out" % i)))
        # The case's clock starts once every player rendered a frame (9 players take seconds to start here).
        wait_until = time.time_ns() + 60_000_000_000
        while time.time_ns() < wait_until and not all(read_log(p) for p in [leader_log] + [os.path.join(logs, "f%d.log" % i) for i in range(count)]):
            time.sleep(0.2)
        began = time.time_ns()
        restart_at = None
        new_leader_log = os.path.join(logs, "leader2.log")
        deadline = began + self.args.seconds * 1_000_000_000
        while time.time_ns() < deadline:
            elapsed = (time.time_ns() - began) / 1e9
            if case == "late" and len(followers) == count and elapsed >= 5:
                starts.append(time.time_ns())
                followers.append(spawn(follower_ns[count], self.player(self.follower_args(False), os.path.join(logs, "f%d.log" % count)),
                                       os.path.join(logs, "f%d.out" % count)))
            if case == "restart" and restart_at is None and elapsed >= 8:
                stop(leader)
                time.sleep(1)
                restart_at = time.time_ns()
                leader = spawn(leader_ns, self.player(self.leader_args(), new_leader_log), os.path.join(logs, "leader2.out"))
            time.sleep(0.1)
        for child in followers + [leader] + ([relay] if relay else []):
            stop(child)
        self.analyse(case, count, logs, starts, restart_at, check)

    def analyse(self, case, count, logs, starts, restart_at, check=None):
        leader_rows = read_log(os.path.join(logs, "leader.log"))
        follower_rows = [read_log(os.path.join(logs, "f%d.log" % i)) for i in range(len(starts))]
        windows = []
        if restart_at is None:
            windows.append((by_pts(leader_rows), 0, 1 << 63))
        else:
            # Before the restart against the first leader, after it against the second.
            windows.append((by_pts(leader_rows), 0, restart_at))
            windows.append((by_pts(read_log(os.path.join(logs, "leader2.log"))), restart_at, 1 << 63))
        vs_leader, between, curves = [], [], []
        if restart_at is not None:
            # After the restart only what the followers played once they started the media again.
            follower_rows = [[row for row in rows if row[1] < restart_at] + after_jump(rows, restart_at) for rows in follower_rows]
        settled = []
        for rows in follower_rows:
            since = (rows[0][1] + SETTLE_NS) if rows else 0
            settled.append([(p, r) for p, r in rows if r >= since])
        for i, rows in enumerate(settled):
            curve = []
            for leader_table, since, until in windows:
                curve += offsets(by_pts(rows, since, until), leader_table)
            vs_leader += [o for _, o in curve]
            t0 = starts[0]
            curves.append(("follower %d%s" % (i + 1, " (late)" if case == "late" and i == count else ""),
                           [((t - t0) / 1e9, o / 1e6) for t, o in curve]))
        for a, b in itertools.combinations(range(len(settled)), 2):
            for _, since, until in windows:
                between += [o for _, o in offsets(by_pts(settled[a], since, until), by_pts(settled[b], since, until))]
        extra = ""
        if case == "late" and len(follower_rows) > count:
            lock = first_lock(follower_rows[count], windows[0][0], 0)
            extra = "late joiner locked %s after its start" % ("%.2f s" % ((lock - starts[count]) / 1e9) if lock else "never")
        if case == "restart" and restart_at is not None:
            new_leader = windows[-1][0]
            first = min(new_leader.values()) if new_leader else None
            locks = [first_lock(after_jump(rows, restart_at), new_leader, restart_at) for rows in follower_rows]
            got = [(l - first) / 1e9 for l in locks if l and first]
            extra = ("re-locked after the new leader's first frame: %s" % ", ".join("%.2f s" % g for g in got) if got
                     else "no follower re-locked") + " (%d of %d)" % (len(got), len(follower_rows))
        if check:
            extra = "relay path check (echo, 200 datagrams): %d answered, RTT p50 %.1f ms, min %.1f ms" % check
        self.results.append(dict(case=case, followers=count, vs_leader=summary(vs_leader), between=summary(between), extra=extra))
        if count == max(self.args.followers):
            self.curves[case] = curves
        print("%-8s %d followers: vs leader %s, between %s %s" % (case, count, summary(vs_leader), summary(between), extra), flush=True)

    def markdown(self, load_before, load_after):
        cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), platform.machine())
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
        fmt = lambda s: "%.2f / %.2f / %.2f (%d)" % s if s else "— (no common frames)"
        lines = ["<!-- sync-bench:begin (make bench-sync writes this section) -->", "## Playing in sync", "",
                 "Generated by Tests/Bench/bench-sync.py (`make bench-sync` runs it) on %s UTC, gstplay %s (`%s`); machine: %s, %d cores, Linux %s; "
                 "load average %.2f before, %.2f after (other work was running)." % (
                     datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M"), commit or "?",
                     os.path.relpath(self.args.gstplay), cpu, os.cpu_count(),
                     platform.release(), load_before, load_after), ""]
        if self.args.mode == "dry":
            lines += ["**Dry run: no sync.** gstplay had no `--sync-serve` yet, so every player played the clip on its own from the "
                      "same start. This proves the harness (namespaces, render logs, offset arithmetic); the offsets are only how far "
                      "apart independent starts land, not the sync feature's.", ""]
        lines += ["Each player in its own network namespace on one bridge (10.77.0.0/24), headless, `--render-log`; clip `%s`, "
                  "%d s per case from the moment every player showed a frame. Offset in ms = realtime_A(pts) − realtime_B(pts), taken as an absolute value, over every video frame both rendered, "
                  "from 2 s after each player's first frame: p50 / p95 / max (frames matched). Cases: *clean* link; *relay*: the "
                  "clock packets through `udp-relay` (5 ms ± 2 ms each way, 1 %% loss) with `--sync-clock`; *late*: one more "
                  "follower 5 s later (time to lock: to its first frame within 1 ms of the leader's); *restart*: the leader "
                  "stopped at 8 s, started again 1 s later." % (os.path.basename(self.args.clip), self.args.seconds), "",
                  "| case | followers | vs leader: p50 / p95 / max ms (frames) | between followers: p50 / p95 / max ms (frames) | notes |",
                  "| --- | --- | --- | --- | --- |"]
        for r in self.results:
            lines.append("| %s | %d | %s | %s | %s |" % (r["case"], r["followers"], fmt(r["vs_leader"]), fmt(r["between"]), r["extra"]))
        lines += ["", "![Offset of each follower from the leader over time, per case](sync-offsets.png)", "",
                  "<!-- sync-bench:end -->"]
        return "\n".join(lines) + "\n"

    def write(self, text):
        path = self.args.out
        old = open(path).read() if os.path.exists(path) else ""
        begin, end = "<!-- sync-bench:begin", "<!-- sync-bench:end -->"
        if begin in old and end in old:
            head, rest = old.split(begin, 1)
            new = head + text + rest.split(end, 1)[1].lstrip("\n")
        else:
            new = old.rstrip("\n") + "\n\n" + text
        with open(path, "w") as f:
            f.write(new)

    def picture(self):
        try:
            import matplotlib
            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
        except ImportError:
            print("bench-sync: no matplotlib here (make bench-venv); no picture", file=sys.stderr)
            return
        cases = [c for c in self.args.cases if c in self.curves]
        if not cases:
            return
        fig, axes = plt.subplots(len(cases), 1, figsize=(9, 2.6 * len(cases)), squeeze=False)
        for ax, case in zip(axes[:, 0], cases):
            drawn = False
            for label, points in self.curves[case]:
                if points:
                    xs, ys = [], []
                    for t, o in points:   # a gap over 0.5 s (a restart) stays a gap, not a straight line
                        if xs and t - xs[-1] > 0.5:
                            xs.append(float("nan")); ys.append(float("nan"))
                        xs.append(t); ys.append(o)
                    ax.plot(xs, ys, linewidth=0.8, label=label)
                    drawn = True
            ax.set_title("%s, %d followers%s" % (case, max(self.args.followers), " (dry run: no sync)" if self.args.mode == "dry" else ""))
            ax.set_ylabel("offset vs leader, ms")
            ax.grid(alpha=0.3)
            if drawn:
                ax.legend(fontsize=6, ncol=3, loc="upper right")
            else:
                ax.text(0.5, 0.5, "no frames in common with the leader", ha="center", va="center", transform=ax.transAxes)
        axes[-1, 0].set_xlabel("time since the first follower started, s")
        fig.tight_layout()
        fig.savefig(self.args.png, dpi=110)
        print("bench-sync: wrote %s" % self.args.png)


def self_test():
    """The arithmetic on synthetic logs (no root, no players): `bench-sync.py --self-test`."""
    frame = 33_333_333
    leader = [(i * frame, 10**18 + i * frame) for i in range(300)]
    ahead = [(p, r + 3_000_000) for p, r in leader[30:]]               # 3 ms late, joined at frame 30
    table = by_pts(leader)
    got = summary([o for _, o in offsets(by_pts(ahead), table)])
    assert got[:3] == (3.0, 3.0, 3.0) and got[3] == 270, got
    drifting = [(p, r + 1_000_000 * i // 100) for i, (p, r) in enumerate(leader)]  # 0 → 2.99 ms
    assert first_lock(drifting, table, 0) == leader[0][1]
    assert first_lock([(p, r + 5_000_000 * (i < 150)) for i, (p, r) in enumerate(leader)], table, 0) == leader[150][1]
    restarted = leader[:100] + [(p, r + 200 * frame) for p, r in leader[:50]]  # media started again after frame 100
    assert after_jump(restarted, leader[99][1]) == restarted[100:]
    assert after_jump(leader, 0) == []
    print("bench-sync: self-test passed")


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--gstplay", required=True)
    parser.add_argument("--relay", required=True)
    parser.add_argument("--clip", required=True)
    parser.add_argument("--followers", default="2,4,8", type=lambda s: [int(x) for x in s.split(",")])
    parser.add_argument("--seconds", default=15, type=int)
    parser.add_argument("--mode", default="auto", choices=["auto", "sync", "dry"])
    parser.add_argument("--cases", default="clean,relay,late,restart", type=lambda s: s.split(","))
    parser.add_argument("--out", default="docs/BENCHMARKS.md")
    parser.add_argument("--png", default="docs/sync-offsets.png")
    parser.add_argument("--work")
    args = parser.parse_args()
    if os.geteuid() != 0:
        sys.exit("bench-sync: needs root (network namespaces)")
    args.gstplay, args.relay, args.clip = (os.path.abspath(p) for p in (args.gstplay, args.relay, args.clip))
    if args.mode == "auto":
        hidden = subprocess.run([args.gstplay, "--help-hidden"], capture_output=True, text=True).stdout
        args.mode = "sync" if "--sync-serve" in hidden else "dry"
    print("bench-sync: %s mode, logs in %s" % (args.mode, args.work or "a temporary directory"), flush=True)
    atexit.register(cleanup)
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, lambda *_: sys.exit(130))
    load_before = os.getloadavg()[0]
    bench = Bench(args)
    print("bench-sync: logs in %s" % bench.work, flush=True)
    for case in args.cases:
        for count in args.followers:
            bench.run_case(case, count)
    load_after = os.getloadavg()[0]
    bench.write(bench.markdown(load_before, load_after))
    bench.picture()


if __name__ == "__main__":
    main()
