#!/usr/bin/env python3
"""Real clients of gstplay's web remote for Tests/gstplayTests/Remote*Tests.swift.

HTTP through urllib, WebSocket through the websocket-client package (the test venv,
PY_TEST_PACKAGES). Each subcommand prints one JSON object on stdout.

  http METHOD URL [--token T] [--body TEXT] [--range A-B] [--host H] -> {"status": N, "body": "...", "type": "...", "length": N, "sum": N}
  upgrade BASE [--token T] [--origin O]            -> {"status": N} (101 when accepted)
  big BASE --token T [--fragments N]               -> {"close": code} after a 70 KiB message (80 KiB in N
                                                      frames of under 64 KiB each with --fragments)
  crowd BASE --token T [--clients 20] [--seconds 5] -> readers' counts, the stalled client's fate
  many BASE --token T [--count 33]                 -> {"statuses": [101, …]} for clients held open at once
  upgrade BASE … [--host H]                        -> the same with the Host header H (a DNS rebinding's)
  post-big BASE [--token T] [--length N] [--expect] [--send MiB]
                                                   -> the first answer to a POST /api/command announcing
                                                      N body bytes, sent with --send MiB of it at most:
                                                      {"status", "first_line", "continue", "sent"}
  half BASE [--wait S]                             -> a request whose headers never end: {"status",
                                                      "closed", "waited"} once the server answers or closes
  idle BASE --token T [--wait S]                   -> {"status", "closed", "after"}: what a kept-alive
                                                      connection gets after one answer, until closed
  quiet-ws BASE --token T [--seconds S]            -> {"answered"}: a WebSocket silent for S s still served
  parallel URL --token T [--count 20]              -> {"statuses": […], "retry_after": […]} of N GETs at once
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
    if args.host:
        request.add_header("Host", args.host)
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
    if args.host:
        kwargs["host"] = args.host
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
    if args.fragments:
        text = '{"command":"status","pad":"' + "x" * (80 * 1024) + '"}'
        step = len(text) // args.fragments + 1
        parts = [text[i:i + step] for i in range(0, len(text), step)]
        ws.send_frame(websocket.ABNF.create_frame(parts[0], websocket.ABNF.OPCODE_TEXT, fin=0))
        for index, part in enumerate(parts[1:], 1):
            ws.send_frame(websocket.ABNF.create_frame(part, websocket.ABNF.OPCODE_CONT, fin=int(index == len(parts) - 1)))
    else:
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


def read_head(sock, timeout):
    """The response's status line and headers (up to the blank line), or what came before EOF."""
    sock.settimeout(timeout)
    data = b""
    try:
        while b"\r\n\r\n" not in data:
            chunk = sock.recv(4096)
            if not chunk:
                break
            data += chunk
    except (socket.timeout, ConnectionResetError):
        pass
    return data


def status_of(head):
    first = head.split(b"\r\n", 1)[0].decode("latin-1")
    parts = first.split(" ")
    return (int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else None), first


def post_big(args):
    host = args.base.replace("http://", "")
    name, port = host.rsplit(":", 1)
    sock = socket.create_connection((name, int(port)), timeout=10)
    head = "POST /api/command HTTP/1.1\r\nHost: %s\r\nContent-Type: text/plain\r\nContent-Length: %d\r\n" % (host, args.length)
    if args.token:
        head += "Authorization: Bearer %s\r\n" % args.token
    if args.expect:
        head += "Expect: 100-continue\r\n"
    sock.sendall((head + "\r\n").encode())
    sent, answer = 0, b""
    if not args.expect:
        # Send the body in 64 KiB pieces while looking for an early answer between them.
        block = b"p" * 65536
        sock.setblocking(False)
        deadline = time.monotonic() + 30
        while sent < args.send * 1048576 and time.monotonic() < deadline and b"\r\n\r\n" not in answer:
            try:
                sent += sock.send(block)
            except BlockingIOError:
                time.sleep(0.01)
            except (BrokenPipeError, ConnectionResetError):
                break
            try:
                chunk = sock.recv(4096)
                if not chunk:
                    break
                answer += chunk
            except BlockingIOError:
                pass
            except ConnectionResetError:
                break
        sock.setblocking(True)
    answer += read_head(sock, 20) if b"\r\n\r\n" not in answer else b""
    status, first = status_of(answer)
    sock.close()
    return {"status": status, "first_line": first, "continue": status == 100, "sent": sent}


def half(args):
    host = args.base.replace("http://", "")
    name, port = host.rsplit(":", 1)
    sock = socket.create_connection((name, int(port)), timeout=10)
    sock.sendall(("GET /api/status HTTP/1.1\r\nHost: %s\r\nX-Slow: " % host).encode())
    started = time.monotonic()
    answer = read_head(sock, args.wait)
    closed = False
    if answer:
        try:
            sock.settimeout(5)
            while sock.recv(4096):
                pass
            closed = True
        except socket.timeout:
            pass
        except ConnectionResetError:
            closed = True
    status, first = status_of(answer)
    return {"status": status, "first_line": first, "closed": closed or bool(answer), "waited": round(time.monotonic() - started, 2)}


def idle(args):
    """One request on a kept-alive connection, then silence: what arrives after the answer."""
    host = args.base.replace("http://", "")
    name, port = host.rsplit(":", 1)
    sock = socket.create_connection((name, int(port)), timeout=10)
    sock.sendall(("GET /api/status HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\n\r\n" % (host, args.token)).encode())
    head = read_head(sock, 20)
    status, _ = status_of(head)
    header, _, body = head.partition(b"\r\n\r\n")
    length = 0
    for line in header.split(b"\r\n")[1:]:
        key, _, value = line.partition(b":")
        if key.strip().lower() == b"content-length":
            length = int(value.strip())
    sock.settimeout(20)
    while len(body) < length:
        body += sock.recv(65536)
    after, closed = b"", False
    sock.settimeout(args.wait)
    try:
        while True:
            chunk = sock.recv(4096)
            if not chunk:
                closed = True
                break
            after += chunk
    except socket.timeout:
        pass
    except ConnectionResetError:
        closed = True
    return {"status": status, "closed": closed, "after": after.decode("latin-1")}


def quiet_ws(args):
    """A WebSocket that sends nothing for --seconds, then asks for status: is it still served?"""
    ws = websocket.create_connection(ws_url(args.base, args.token), timeout=10, suppress_origin=True)
    ws.recv()  # hello
    time.sleep(args.seconds)
    try:
        ws.send('{"command":"status","request_id":"quiet"}')
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if '"request_id":"quiet"' in ws.recv():
                return {"answered": True}
    except Exception as error:
        return {"answered": False, "error": type(error).__name__}
    return {"answered": False}


def parallel(args):
    results = [None] * args.count
    start = threading.Barrier(args.count)

    def one(index):
        request = urllib.request.Request(args.url)
        request.add_header("Authorization", "Bearer " + args.token)
        start.wait()
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                response.read()
                results[index] = (response.status, response.headers.get("Retry-After"))
        except urllib.error.HTTPError as error:
            error.read()
            results[index] = (error.code, error.headers.get("Retry-After"))
        except Exception as error:
            results[index] = (None, type(error).__name__)

    threads = [threading.Thread(target=one, args=(i,)) for i in range(args.count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return {"statuses": [r[0] for r in results], "retry_after": [r[1] for r in results]}


def main():
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="what", required=True)
    p = sub.add_parser("http"); p.add_argument("method"); p.add_argument("url")
    p.add_argument("--token"); p.add_argument("--body"); p.add_argument("--save")
    p.add_argument("--range"); p.add_argument("--host")
    p = sub.add_parser("upgrade"); p.add_argument("base"); p.add_argument("--token"); p.add_argument("--origin")
    p.add_argument("--host")
    p = sub.add_parser("post-big"); p.add_argument("base"); p.add_argument("--token")
    p.add_argument("--length", type=int, default=1500000000); p.add_argument("--expect", action="store_true")
    p.add_argument("--send", type=int, default=64)
    p = sub.add_parser("half"); p.add_argument("base"); p.add_argument("--wait", type=float, default=40)
    p = sub.add_parser("idle"); p.add_argument("base"); p.add_argument("--token", required=True)
    p.add_argument("--wait", type=float, default=40)
    p = sub.add_parser("quiet-ws"); p.add_argument("base"); p.add_argument("--token", required=True)
    p.add_argument("--seconds", type=float, default=15)
    p = sub.add_parser("parallel"); p.add_argument("url"); p.add_argument("--token", required=True)
    p.add_argument("--count", type=int, default=20)
    p = sub.add_parser("big"); p.add_argument("base"); p.add_argument("--token", required=True)
    p.add_argument("--fragments", type=int, default=0)
    p = sub.add_parser("many"); p.add_argument("base"); p.add_argument("--token", required=True)
    p.add_argument("--count", type=int, default=33)
    p = sub.add_parser("crowd"); p.add_argument("base"); p.add_argument("--token", required=True)
    p.add_argument("--clients", type=int, default=20); p.add_argument("--seconds", type=float, default=5)
    p.add_argument("--requests", type=int, default=800)
    args = parser.parse_args()
    print(json.dumps({"http": http, "upgrade": upgrade, "big": big, "crowd": crowd, "many": many,
                      "post-big": post_big, "half": half, "idle": idle, "quiet-ws": quiet_ws, "parallel": parallel}[args.what](args)))


if __name__ == "__main__":
    main()
