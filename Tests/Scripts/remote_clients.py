#!/usr/bin/env python3
"""Real clients of gstplay's web remote (issue 25) for Tests/gstplayTests/Remote*Tests.swift.

HTTP through urllib, WebSocket through the websocket-client package (the test venv,
PY_TEST_PACKAGES). Each subcommand prints one JSON object on stdout.

  http METHOD URL [--token T] [--body TEXT] [--range A-B] -> {"status": N, "body": "...", "type": "...", "length": N, "sum": N}
  upgrade BASE [--token T] [--origin O]            -> {"status": N} (101 when accepted)
  big BASE --token T                               -> {"close": code} after a 70 KiB message
  crowd BASE --token T [--clients 20] [--seconds 5] -> readers' counts, the stalled client's fate
  many BASE --token T [--count 33]                 -> {"statuses": [101, …]} for clients held open at once
"""
import argparse, json, socket, sys, threading, time, urllib.request, urllib.error
import websocket  # websocket-client


def http(args):
    request = urllib.request.Request(args.url, method=args.method,
                                     data=args.body.encode() if args.body is not None else None)
    if args.token:
        request.add_header("Authorization", "Bearer " + args.token)
    if args.range:
        request.add_header("Range", "bytes=" + args.range)
    try:
        with urllib.request.urlopen(request, timeout=15) as response:
            body, status, ctype = response.read(), response.status, response.headers.get("Content-Type", "")
    except urllib.error.HTTPError as error:
        body, status, ctype = error.read(), error.code, error.headers.get("Content-Type", "")
    out = {"status": status, "type": ctype, "length": len(body), "sum": sum(body) % 65536}
    if ctype.startswith("image/") and args.save:
        open(args.save, "wb").write(body)
    elif not ctype.startswith("image/"):
        out["body"] = body.decode("utf-8", "replace")
    return out


def ws_url(base, token):
    return base.replace("http://", "ws://") + "/ws" + ("?token=" + token if token else "")


def upgrade(args):
    headers = {}
    kwargs = {"timeout": 10}
    if args.origin:
        kwargs["origin"] = args.origin
    else:
        kwargs["suppress_origin"] = True
    try:
        ws = websocket.create_connection(ws_url(args.base, args.token), **kwargs)
    except websocket.WebSocketBadStatusException as error:
        return {"status": error.status_code}
    hello = ws.recv()
    ws.close()
    return {"status": 101, "hello": json.loads(hello)}


def big(args):
    ws = websocket.create_connection(ws_url(args.base, args.token), timeout=10, suppress_origin=True)
    ws.recv()  # hello
    ws.send('{"command":"status","pad":"' + "x" * (70 * 1024) + '"}')
    try:
        while True:
            opcode, data = ws.recv_data(control_frame=True)
            if opcode == websocket.ABNF.OPCODE_CLOSE:
                return {"close": int.from_bytes(data[:2], "big") if len(data) >= 2 else None}
    except Exception as error:  # the server closed the connection
        return {"close": None, "error": type(error).__name__}


def crowd(args):
    url = ws_url(args.base, args.token)
    stop = threading.Event()
    counts, arrivals = [0] * (args.clients - 1), []
    connected = threading.Barrier(args.clients)

    def reader(index):
        ws = websocket.create_connection(url, timeout=10, suppress_origin=True)
        connected.wait()
        ws.settimeout(0.5)
        while not stop.is_set():
            try:
                line = ws.recv()
            except websocket.WebSocketTimeoutException:
                continue
            except Exception:
                break
            counts[index] += 1
            if index == 0 and '"event":"position"' in line:
                arrivals.append(time.monotonic())
        ws.close()

    threads = [threading.Thread(target=reader, args=(i,)) for i in range(args.clients - 1)]
    for t in threads:
        t.start()
    # The stalled client: a tiny receive buffer, a burst of requests whose replies it never reads.
    stalled = websocket.create_connection(url, timeout=10, suppress_origin=True,
                                          sockopt=[(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)])
    connected.wait()
    # In batches of 32 (the dispatcher refuses a client's 65th request in flight with a short
    # error reply: an unpaced burst would mostly earn those, too little to fill its backlog).
    closed_while_sending = False
    try:
        for sent in range(args.requests):
            stalled.send('{"command":"help"}')
            if sent % 32 == 31:
                time.sleep(0.05)
    except Exception:
        closed_while_sending = True  # the server dropped it mid-burst (EPIPE/reset): dropped
    time.sleep(args.seconds)  # the measuring window: the readers read, the stalled one does not
    stop.set()
    for t in threads:
        t.join()
    # Now drain the stalled client: the server must have closed it (EOF or a close frame).
    stalled.settimeout(2)
    ended, deadline = closed_while_sending, time.monotonic() + (0 if closed_while_sending else 10)
    try:
        while time.monotonic() < deadline:
            opcode, _ = stalled.recv_data(control_frame=True)
            if opcode == websocket.ABNF.OPCODE_CLOSE:
                ended = True
                break
    except websocket.WebSocketTimeoutException:
        pass  # still open and silent: not dropped
    except Exception:
        ended = True  # EOF or reset: the server closed it
    gaps = [b - a for a, b in zip(arrivals, arrivals[1:])]
    return {"counts": counts, "position_arrivals": len(arrivals),
            "arrival_gaps_ms": [round(g * 1000, 2) for g in gaps], "stalled_ended": ended}


def many(args):
    """Opens --count clients at once and keeps them open; the status of each upgrade, in order."""
    held, statuses = [], []
    for _ in range(args.count):
        try:
            held.append(websocket.create_connection(ws_url(args.base, args.token), timeout=10, suppress_origin=True))
            statuses.append(101)
        except websocket.WebSocketBadStatusException as error:
            statuses.append(error.status_code)
    for ws in held:
        ws.close()
    return {"statuses": statuses}


def main():
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="what", required=True)
    p = sub.add_parser("http"); p.add_argument("method"); p.add_argument("url")
    p.add_argument("--token"); p.add_argument("--body"); p.add_argument("--save")
    p.add_argument("--range")
    p = sub.add_parser("upgrade"); p.add_argument("base"); p.add_argument("--token"); p.add_argument("--origin")
    p = sub.add_parser("big"); p.add_argument("base"); p.add_argument("--token", required=True)
    p = sub.add_parser("many"); p.add_argument("base"); p.add_argument("--token", required=True)
    p.add_argument("--count", type=int, default=33)
    p = sub.add_parser("crowd"); p.add_argument("base"); p.add_argument("--token", required=True)
    p.add_argument("--clients", type=int, default=20); p.add_argument("--seconds", type=float, default=5)
    p.add_argument("--requests", type=int, default=800)
    args = parser.parse_args()
    print(json.dumps({"http": http, "upgrade": upgrade, "big": big, "crowd": crowd, "many": many}[args.what](args)))


if __name__ == "__main__":
    main()
