#!/usr/bin/env python3
"""A real HTTP server on 127.0.0.1 for gstplay's network tests, with faults on command.

Started by the tests (HTTPTestServer.swift); prints "PORT <n>" once listening and exits when
its stdin closes, so it never outlives the test process. Paths:

  /file/<name>?rate=B&chunk=C&norange=1   a Fixtures/ file, Range-capable unless norange,
                                          throttled to B bytes/s when rate is given
  /status/<code>                          an empty response with that status (404, 500, ...)
  /reset/<name>?after=N&key=K             the first request for key K gets a TCP reset at file
                                          offset N; later ones (Range resumes) are served
  /stall/<name>?after=N                   every request goes silent at file offset N
  /flaky/<name>?after=N&key=K             the first request for key K goes silent at offset N,
                                          later ones are served normally (retry tests)
  /redirect-loop                          302 to itself, forever
  /hits?key=K                             how many requests /flaky got for K
"""
import os
import socket
import struct
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "Fixtures")
HITS = {}
HITS_LOCK = threading.Lock()
STOP = threading.Event()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):  # quiet
        pass

    def do_HEAD(self):
        self.do_GET(head=True)

    def do_GET(self, head=False):
        url = urlparse(self.path)
        query = {k: v[-1] for k, v in parse_qs(url.query).items()}
        parts = url.path.strip("/").split("/", 1)
        kind, name = parts[0], (parts[1] if len(parts) > 1 else "")
        try:
            if kind == "status":
                self.send_response(int(name))
                self.send_header("Content-Length", "0")
                self.end_headers()
            elif kind == "redirect-loop":
                self.send_response(302)
                self.send_header("Location", "/redirect-loop")
                self.send_header("Content-Length", "0")
                self.end_headers()
            elif kind == "hits":
                body = str(HITS.get(query.get("key", ""), 0)).encode()
                self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            elif kind in ("file", "reset", "stall", "flaky"):
                self.serve_file(kind, name, query, head)
            else:
                self.send_error(404)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def serve_file(self, kind, name, query, head):
        path = os.path.join(FIXTURES, os.path.basename(name))
        if not os.path.isfile(path):
            self.send_error(404)
            return
        data = open(path, "rb").read()
        start, end = 0, len(data) - 1
        ranged = False
        if "norange" not in query and self.headers.get("Range", "").startswith("bytes="):
            first, _, last = self.headers["Range"][6:].partition("-")
            start = int(first or 0)
            end = int(last) if last else len(data) - 1
            ranged = True
        if start >= len(data):
            self.send_response(416)
            self.send_header("Content-Range", "bytes */%d" % len(data))
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        body = data[start:end + 1]
        self.send_response(206 if ranged else 200)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(len(body)))
        if "norange" not in query:
            self.send_header("Accept-Ranges", "bytes")
        if ranged:
            self.send_header("Content-Range", "bytes %d-%d/%d" % (start, end, len(data)))
        self.end_headers()
        if head:
            return
        fault = kind
        if kind in ("flaky", "reset"):
            key = query.get("key", "")
            with HITS_LOCK:
                HITS[key] = HITS.get(key, 0) + 1
                first = HITS[key] == 1
            fault = ("stall" if kind == "flaky" else "reset") if first else "file"
        # The fault strikes at an absolute file offset, whatever range was asked for.
        after = max(0, int(query.get("after", len(data))) - start)
        if fault in ("reset", "stall") and after < len(body):
            self.wfile.write(body[:after])
            self.wfile.flush()
            if fault == "reset":
                # SO_LINGER with zero timeout: close() sends RST instead of FIN.
                self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                self.connection.close()
                self.close_connection = True
            else:
                STOP.wait(120)
                self.close_connection = True
            return
        rate = float(query.get("rate", 0))
        chunk = int(query.get("chunk", 4096))
        sent = 0
        began = time.monotonic()
        while sent < len(body) and not STOP.is_set():
            piece = body[sent:sent + chunk]
            self.wfile.write(piece)
            sent += len(piece)
            if rate > 0:
                due = began + sent / rate
                delay = due - time.monotonic()
                if delay > 0:
                    time.sleep(delay)


def main():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print("PORT %d" % server.server_address[1], flush=True)
    sys.stdin.read()  # returns when the test closes our stdin or exits
    STOP.set()
    server.shutdown()


if __name__ == "__main__":
    main()
