#!/usr/bin/env python3
"""A real HTTP server on 127.0.0.1 for gstplay's network tests, with faults on command.
`--bind ADDR` listens on ADDR instead (0.0.0.0: every address, e.g. for a renderer in a
network namespace; RendererLab).

Started by the tests (Tests/TestSupport/HTTPTestServer.swift); prints "PORT <n>" once listening and exits when
its stdin closes, so it never outlives the test process. Paths:

  /file/<name>?rate=B&chunk=C&norange=1   a Fixtures/ file (or one in the --media DIR given at
                                          start), Range-capable unless norange,
                                          throttled to B bytes/s when rate is given; with
                                          ETag and Last-Modified from the file's mtime and size;
                                          mime=1: the Content-Type guessed from the name
                                          (video/mp4) instead of application/octet-stream
                                          (a DLNA renderer such as Rygel refuses the latter);
                                          cc=V adds "Cache-Control: V" (no-store, max-age=60);
                                          a matching If-None-Match (else an If-Modified-Since
                                          not older than the file) gets 304 with no body. A
                                          test replaces a --media file between requests by
                                          writing it (the ETag follows mtime and size)
  /status/<code>                          an empty response with that status (404, 500, ...)
  /reset/<name>?after=N&key=K             the first request for key K gets a TCP reset at file
                                          offset N; later ones (Range resumes) are served
  /stall/<name>?after=N                   every request goes silent at file offset N
  /flaky/<name>?after=N&key=K             the first request for key K goes silent at offset N,
                                          later ones are served normally (retry tests)
  /redirect-loop                          302 to itself, forever
  /redirect/<n>/<name>                    302 to /redirect/<n-1>/<name>, and from n=0 to /file/<name>
  /redirect-to?location=L                 302 with "Location: L" exactly as given (file:///…, data:…:
                                          a hostile server's redirect to a local scheme)
  /hits?key=K                             how many requests /flaky got for K
  /raw/<case>/<name>                      an answer that is not valid HTTP, or lies about its body,
                                          written as bytes (endless-header, nul-header, http09,
                                          long-location, negative-length, short-body, short-body-close, gzip:
                                          see serve_raw)

Control (not logged):
  /control/throttle?path=P&rate=B         from now on, requests for path P (e.g. /file/x.webm, no
                                          query) are sent at B bytes/s, transfers under way too;
                                          rate=0 lifts it. Overrides the rate= of the URL.
  /log[?clear=1]                          the requests so far as a JSON array of
                                          {"method", "path", "range", "status"} (then cleared);
                                          /hls responses add "start" (monotonic s, on arrival),
                                          "bytes" and "end" (when the response ends)

Adaptive streaming, over the ladder `Fixtures/make-fixtures.sh --hls DIR` makes; start
the server with `--hls DIR/hls`:

  /hls/<mode>/master.m3u8                 the master playlist (variant URIs stay relative)
  /hls/<mode>/<variant>/playlist.m3u8     a media playlist synthesised from the VOD one:
                                            mode `vod`     all segments, #EXT-X-ENDLIST
                                            mode `vod-N`   the first N segments, #EXT-X-ENDLIST
                                            mode `live-K`  a sliding window of LIVE_WINDOW segments
                                                           that advances one segment per segment
                                                           duration from K's first request (wraps
                                                           with #EXT-X-DISCONTINUITY), no ENDLIST
  /hls/<mode>/<variant>/<segment>.ts      the segment (live: seg-<sequence>.ts)
  /hls/<mode>/manifest.mpd                the same ladder as an MPEG-DASH manifest (VOD modes only;
                                          `vod-N` shortens mediaPresentationDuration to N segments)
  /control/throttle?match=S&rate=B        /hls responses whose path contains S are paced to B bytes/s
                                          from the next chunk on (also mid-transfer); rate=0 lifts it
  /control/fail?match=S&status=C&count=N  the next N (default: all) /hls requests whose path contains
                                          S get status C; count=0 lifts it
  /control/clear                          lifts every match throttle and failure

Trace-driven network (http_trace.py):
  /control/trace?steps=S:K,S:K,...&rtt=MS every /file and /hls response body from now on goes
                                          through one shared link following the trace (S seconds
                                          at K kbit/s each, repeating; its clock starts now), each
                                          response waiting MS ms before its headers; steps= empty
                                          lifts it; &start=T starts the trace T s in. Answers
                                          {"origin": the monotonic time of the trace's 0 s, as
                                          in /log}; a bad trace gets 400; &oversleep=MS makes
                                          every wait for the link end MS ms late (a loaded
                                          machine's scheduler, on purpose)
"""
import gzip
import json
import mimetypes
import os
import re
import socket
import struct
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

from http_trace import LINK

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Fixtures")
HITS = {}
HITS_LOCK = threading.Lock()
STOP = threading.Event()
THROTTLE = {}  # path -> bytes/s, set through /control/throttle
LOG = []  # one dict per request (under LOG_LOCK)
LOG_LOCK = threading.Lock()
HLS_ROOT = None            # --hls DIR
MEDIA_ROOT = None          # --media DIR: more files for /file/ (Fixtures/ first)
LIVE_WINDOW = 6            # segments in a live playlist
MATCH_THROTTLES = {}       # substring -> bytes/s (/control/throttle?match=)
FAILURES = {}              # substring -> [status, remaining or None]
LIVE_CLOCKS = {}           # live mode -> monotonic start


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):  # quiet
        pass

    def do_HEAD(self):
        self.do_GET(head=True)

    def send_response(self, code, message=None):
        entry = getattr(self, "log_entry", None)
        if entry is not None:
            with LOG_LOCK:
                entry["status"] = code
        super().send_response(code, message)

    def control(self, kind, name, query):
        """/control/... and /log: answers with a JSON body; True when the request was one."""
        if kind == "control" and name in ("throttle", "fail", "clear") and (name != "throttle" or "match" in query):
            self.hls_control(name, query)
            body = b"{}"
        elif kind == "control" and name == "trace":
            try:
                origin = LINK.set(query.get("steps", ""), query.get("rtt", 0), query.get("start", 0),
                                  query.get("oversleep", 0))
            except (ValueError, IndexError, ZeroDivisionError):
                self.send_error(400)
                return True
            body = json.dumps({"origin": round(origin, 4)}).encode()
        elif kind == "control" and name == "throttle":
            rate = float(query.get("rate", 0))
            with LOG_LOCK:
                if rate > 0:
                    THROTTLE[query.get("path", "")] = rate
                else:
                    THROTTLE.pop(query.get("path", ""), None)
            body = b"{}"
        elif kind == "log":
            with LOG_LOCK:
                body = json.dumps(LOG).encode()
                if "clear" in query:
                    LOG.clear()
        else:
            return False
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
        return True

    def do_GET(self, head=False):
        url = urlparse(self.path)
        query = {k: v[-1] for k, v in parse_qs(url.query).items()}
        parts = url.path.strip("/").split("/", 1)
        kind, name = parts[0], (parts[1] if len(parts) > 1 else "")
        self.log_entry = None
        if kind not in ("control", "log", "hits"):
            self.log_entry = {"method": "HEAD" if head else "GET", "path": self.path,
                              "range": self.headers.get("Range"), "status": None,
                              "ifNoneMatch": self.headers.get("If-None-Match"),
                              "ifModifiedSince": self.headers.get("If-Modified-Since")}
            with LOG_LOCK:
                LOG.append(self.log_entry)
        try:
            if self.control(kind, name, query):
                pass
            elif kind == "status":
                self.send_response(int(name))
                self.send_header("Content-Length", "0")
                self.end_headers()
            elif kind == "redirect" and "/" in name:
                hops, _, target = name.partition("/")
                location = "/redirect/%d/%s" % (int(hops) - 1, target) if int(hops) > 0 else "/file/" + target
                self.send_response(302)
                self.send_header("Location", location)
                self.send_header("Content-Length", "0")
                self.end_headers()
            elif kind == "redirect-to" and "location" in query:
                self.send_response(302)
                self.send_header("Location", query["location"])
                self.send_header("Content-Length", "0")
                self.end_headers()
            elif kind == "redirect-loop":
                self.send_response(302)
                self.send_header("Location", "/redirect-loop")
                self.send_header("Content-Length", "0")
                self.end_headers()
            elif kind == "raw":
                self.serve_raw(name)
            elif kind == "hits":
                body = str(HITS.get(query.get("key", ""), 0)).encode()
                self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            elif kind in ("file", "reset", "stall", "flaky"):
                LINK.round_trip(STOP)
                self.serve_file(kind, name, query, head)
            elif kind == "hls":
                LINK.round_trip(STOP)
                self.serve_hls(url.path, name, head)
            else:
                self.send_error(404)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def serve_raw(self, name):
        """/raw/<case>/<fixture>: an answer no HTTP library would write, sent as bytes, then the
        connection closed. endless-header: a header line that never ends (until the client
        leaves); nul-header: a NUL inside a header; http09: the body without any status line or
        headers; long-location: a 302 whose Location is 100 KB; negative-length:
        `Content-Length: -5`; short-body: a Content-Length 1000 more than the body, then the
        connection held silent for 30 s; short-body-close: the same, then the connection closed; gzip: the body gzip-encoded (`Content-Encoding: gzip`)
        although the client asked for identity."""
        case, _, fixture = name.partition("/")
        with open(os.path.join(FIXTURES, os.path.basename(fixture)), "rb") as f:
            body = f.read()
        self.close_connection = True
        head = b"HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\n"
        if case == "endless-header":
            self.wfile.write(head + b"X-Endless: ")
            for _ in range(4096):  # 16 MiB at most
                if STOP.is_set():
                    break
                self.wfile.write(b"a" * 4096)
        elif case == "nul-header":
            self.wfile.write(head + b"X-Bad: a\0b\r\nContent-Length: %d\r\n\r\n" % len(body) + body)
        elif case == "http09":
            self.wfile.write(body)
        elif case == "long-location":
            self.wfile.write(b"HTTP/1.1 302 Found\r\nLocation: /" + b"a" * 100000 + b"\r\nContent-Length: 0\r\n\r\n")
        elif case == "negative-length":
            self.wfile.write(head + b"Content-Length: -5\r\n\r\n" + body)
        elif case == "short-body":
            self.wfile.write(head + b"Content-Length: %d\r\n\r\n" % (len(body) + 1000) + body)
            self.wfile.flush()
            STOP.wait(30)
        elif case == "short-body-close":
            self.wfile.write(head + b"Content-Length: %d\r\n\r\n" % (len(body) + 1000) + body)
        elif case == "gzip":
            packed = gzip.compress(body)
            self.wfile.write(head + b"Content-Encoding: gzip\r\nContent-Length: %d\r\n\r\n" % len(packed) + packed)
        else:
            self.send_error(404)
            return
        self.wfile.flush()

    def serve_file(self, kind, name, query, head):
        path = os.path.join(FIXTURES, os.path.basename(name))
        if not os.path.isfile(path) and MEDIA_ROOT:
            path = os.path.join(MEDIA_ROOT, os.path.basename(name))
        if not os.path.isfile(path):
            self.send_error(404)
            return
        data = open(path, "rb").read()
        stat = os.stat(path)
        etag = '"%x-%x"' % (int(stat.st_mtime), stat.st_size)
        if self.not_modified(etag, int(stat.st_mtime)):
            self.send_response(304)
            self.send_header("ETag", etag)
            if "cc" in query:
                self.send_header("Cache-Control", query["cc"])
            self.end_headers()
            return
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
        guessed = mimetypes.guess_type(path)[0] if "mime" in query else None
        self.send_header("Content-Type", guessed or "application/octet-stream")
        self.send_header("Content-Length", str(len(body)))
        if "norange" not in query:
            self.send_header("Accept-Ranges", "bytes")
        self.send_header("ETag", etag)
        self.send_header("Last-Modified", self.date_time_string(int(stat.st_mtime)))
        if "cc" in query:
            self.send_header("Cache-Control", query["cc"])
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
        path = urlparse(self.path).path
        chunk = int(query.get("chunk", 4096))
        sent = 0
        began, paced, current = time.monotonic(), 0, None
        pacer = LINK.pacer()
        while sent < len(body) and not STOP.is_set():
            piece = body[sent:sent + chunk]
            pacer.send(self.wfile.write, piece, STOP)
            sent += len(piece)
            # The rate may change while the transfer runs (/control/throttle): pace from then on,
            # looking again at least every 50 ms.
            while not STOP.is_set():
                rate = THROTTLE.get(path, float(query.get("rate", 0)))
                if rate != current:
                    began, paced, current = time.monotonic(), sent - len(piece), rate
                delay = began + (sent - paced) / rate - time.monotonic() if rate > 0 else 0
                if delay <= 0:
                    break
                time.sleep(min(delay, 0.05))

    def not_modified(self, etag, mtime):
        """RFC 9110 §13.1: If-None-Match decides when present, else If-Modified-Since."""
        match = self.headers.get("If-None-Match")
        if match is not None:
            return match.strip() == "*" or etag in [tag.strip() for tag in match.split(",")]
        since = self.headers.get("If-Modified-Since")
        if since is None:
            return False
        try:
            from email.utils import parsedate_to_datetime
            return mtime <= parsedate_to_datetime(since).timestamp()
        except (TypeError, ValueError):
            return False

    # --- adaptive streaming -------------------------------------------------

    @staticmethod
    def hls_control(name, query):
        match = query.get("match", "")
        with LOG_LOCK:
            if name == "throttle":
                rate = float(query.get("rate", 0))
                if rate > 0:
                    MATCH_THROTTLES[match] = rate
                else:
                    MATCH_THROTTLES.pop(match, None)
            elif name == "fail":
                count = query.get("count")
                if count == "0":
                    FAILURES.pop(match, None)
                else:
                    FAILURES[match] = [int(query.get("status", 404)), int(count) if count else None]
            else:
                MATCH_THROTTLES.clear()
                FAILURES.clear()

    @staticmethod
    def hls_rate(path):
        with LOG_LOCK:
            rates = [r for m, r in MATCH_THROTTLES.items() if m in path]
        return min(rates) if rates else 0

    @staticmethod
    def take_failure(path):
        with LOG_LOCK:
            for m, entry in FAILURES.items():
                if m in path:
                    status, left = entry
                    if left is not None:
                        if left <= 1:
                            del FAILURES[m]
                        else:
                            entry[1] = left - 1
                    return status
        return None

    @staticmethod
    def vod_playlist(variant):
        text = open(os.path.join(HLS_ROOT, variant, "playlist.m3u8")).read()
        return re.findall(r"#EXTINF:([0-9.]+),\s*\n(\S+)", text)

    def dash_manifest(self, mode):
        text = open(os.path.join(HLS_ROOT, "manifest.mpd")).read()
        if mode.startswith("vod-"):
            first = sorted(d for d in os.listdir(HLS_ROOT) if os.path.isdir(os.path.join(HLS_ROOT, d)))[0]
            seconds = sum(float(d) for d, _ in self.vod_playlist(first)[:int(mode[4:])])
            text = re.sub(r'mediaPresentationDuration="[^"]*"', 'mediaPresentationDuration="PT%.3fS"' % seconds, text)
        return text.encode()

    def media_playlist(self, mode, variant):
        segments = self.vod_playlist(variant)
        lines = ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:2"]
        if mode.startswith("live"):
            with LOG_LOCK:
                began = LIVE_CLOCKS.setdefault(mode, time.monotonic())
            step = float(segments[0][0])
            edge = LIVE_WINDOW - 1 + int((time.monotonic() - began) / step)
            first = edge - LIVE_WINDOW + 1
            lines.append("#EXT-X-MEDIA-SEQUENCE:%d" % first)
            for seq in range(first, edge + 1):
                if seq > 0 and seq % len(segments) == 0:
                    lines.append("#EXT-X-DISCONTINUITY")
                lines.append("#EXTINF:%s," % segments[seq % len(segments)][0])
                lines.append("seg-%d.ts" % seq)
        else:
            count = int(mode[4:]) if mode.startswith("vod-") else len(segments)
            lines.append("#EXT-X-MEDIA-SEQUENCE:0")
            lines.append("#EXT-X-PLAYLIST-TYPE:VOD")
            for duration, name in segments[:count]:
                lines.append("#EXTINF:%s," % duration)
                lines.append(name)
            lines.append("#EXT-X-ENDLIST")
        return ("\n".join(lines) + "\n").encode()

    def serve_hls(self, path, name, head):
        began = time.monotonic()
        entry = getattr(self, "log_entry", None)
        if entry is not None:
            with LOG_LOCK:
                entry["start"] = round(began, 4)  # known on arrival; bytes and end when it ends
        parts = name.split("/")
        status = self.take_failure(path)
        body = None
        if status is None and HLS_ROOT:
            try:
                if len(parts) == 2 and parts[1] == "master.m3u8":
                    body = open(os.path.join(HLS_ROOT, "master.m3u8"), "rb").read()
                elif len(parts) == 2 and parts[1] == "manifest.mpd" and not parts[0].startswith("live"):
                    body = self.dash_manifest(parts[0])
                elif len(parts) == 3 and parts[2] == "playlist.m3u8":
                    body = self.media_playlist(parts[0], os.path.basename(parts[1]))
                elif len(parts) == 3 and parts[2].endswith(".ts"):
                    segment = parts[2]
                    live = re.fullmatch(r"seg-(\d+)\.ts", segment)
                    variant = os.path.basename(parts[1])
                    if live:
                        segments = self.vod_playlist(variant)
                        segment = segments[int(live.group(1)) % len(segments)][1]
                    body = open(os.path.join(HLS_ROOT, variant, os.path.basename(segment)), "rb").read()
            except (OSError, ValueError, IndexError):
                body = None
            status = 200 if body is not None else 404
        if status != 200:
            self.send_response(status)
            self.send_header("Content-Length", "0")
            self.end_headers()
            self.note_transfer(0, began)
            return
        kind = ("application/vnd.apple.mpegurl" if path.endswith(".m3u8")
                else "application/dash+xml" if path.endswith(".mpd") else "video/mp2t")
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        sent = 0
        if not head:
            # Paced chunk by chunk against the rate in force at each chunk, so a throttle
            # set during a transfer slows the rest of it.
            # Each chunk waits its size / rate, in slices of at most 0.25 s that re-read the rate.
            chunk = 4096
            pacer = LINK.pacer()
            while sent < len(body) and not STOP.is_set():
                piece = body[sent:sent + chunk]
                pacer.send(self.wfile.write, piece, STOP)
                sent += len(piece)
                owed = float(len(piece))
                while owed > 0 and not STOP.is_set():
                    rate = self.hls_rate(path)
                    if rate <= 0:
                        break
                    step = min(0.25, owed / rate)
                    STOP.wait(step)
                    owed -= step * rate
        self.note_transfer(sent, began)

    def note_transfer(self, sent, began):
        entry = getattr(self, "log_entry", None)
        if entry is not None:
            with LOG_LOCK:
                entry.update({"bytes": sent, "start": round(began, 4), "end": round(time.monotonic(), 4)})


def main():
    global HLS_ROOT, MEDIA_ROOT
    args = sys.argv[1:]
    bind = "127.0.0.1"
    while len(args) >= 2 and args[0] in ("--hls", "--media", "--bind"):
        if args[0] == "--hls":
            HLS_ROOT = args[1]
        elif args[0] == "--bind":
            bind = args[1]
        else:
            MEDIA_ROOT = args[1]
        args = args[2:]
    server = ThreadingHTTPServer((bind, 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print("PORT %d" % server.server_address[1], flush=True)
    sys.stdin.read()  # returns when the test closes our stdin or exits
    STOP.set()
    server.shutdown()


if __name__ == "__main__":
    main()
