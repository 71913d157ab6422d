import Foundation
import Glibc
import ProcessProbe

/// Time to first frame: from the harness's `posix_spawn` of a player to the first decoded video
/// frame rendered, for a local file, the same file over HTTP and the HLS ladder.
///
/// GStreamer players (gstplay, gst-play-1.0) get the same video sink, `filesink` on a FIFO the
/// harness reads (`sync=true`: basesink renders a buffer when its running time comes, not at
/// preroll; unbuffered, so the first frame reaches the FIFO at once); the first byte read is the
/// first frame. mpv (FFmpeg; `--vo=null`) logs `first video frame after restart shown` when its
/// video output takes the first frame; its log goes to a pipe the harness reads, the line's arrival
/// is the first frame. Both are taken on the harness's monotonic clock from just before the spawn,
/// so they include the exec and dynamic loading; the program is killed at the first frame.
enum FirstFrameCase {
    /// One played source.
    struct Source {
        let id: String
        let label: String
        let uri: String
    }

    /// One player: builds its command for a URI and the FIFO or pipe its first frame arrives on.
    struct Player {
        enum Signal { case fifoByte, mpvLogLine }
        let id: String
        let label: String
        let signal: Signal
        let unavailable: String?
        let command: @Sendable (_ uri: String, _ fifo: String) -> ProcessSpec
    }

    static func run(_ context: BenchContext) -> CaseOutcome {
        let title = "Time to first frame"
        let rounds = context.smoke ? 2 : max(context.options.startupRuns, 10)
        let clip = context.tenSecondClip
        let hls = ProcessInfo.processInfo.environment["GSTPLAY_HLS_DIR"] ?? ".build-fixtures/hls"
        let script = "Tests/TestSupport/http_test_server.py"
        var sources = [Source(id: "local", label: "local file", uri: URL(fileURLWithPath: clip).absoluteString)]
        var notes: [String] = []
        var serverArguments = ["--media", URL(fileURLWithPath: clip).deletingLastPathComponent().path]
        let haveHLS = FileManager.default.fileExists(atPath: "\(hls)/master.m3u8")
        if haveHLS { serverArguments = ["--hls", hls] + serverArguments } else { notes.append("HLS not run: no ladder at `\(hls)` (`make hls-fixtures`).") }
        let server = FileManager.default.fileExists(atPath: script) ? try? BenchServer(script: script, arguments: serverArguments) : nil
        defer { server?.stop() }
        if let server {
            sources.append(Source(id: "http", label: "HTTP file", uri: server.url("/file/\(URL(fileURLWithPath: clip).lastPathComponent)")))
            if haveHLS { sources.append(Source(id: "hls", label: "HLS (3-variant ladder)", uri: server.url("/hls/vod/master.m3u8"))) }
        } else {
            notes.append("HTTP and HLS not run: `\(script)` did not start (run from the repository root).")
        }
        let players = players(context)

        var seconds: [String: [Double]] = [:]
        var failures: [String: String] = [:]
        for round in 0..<rounds {
            context.log("first-frame: round \(round + 1)/\(rounds)")
            for source in sources {
                for step in players.indices {
                    let player = players[(step + round) % players.count]
                    guard player.unavailable == nil else { continue }
                    let key = "\(source.id).\(player.id)"
                    switch measure(player, uri: source.uri, runner: context.runner) {
                    case .success(let value): seconds[key, default: []].append(value)
                    case .failure(let error): failures[key] = error.description
                    }
                }
            }
        }

        var body = """
            From the harness's spawn of the player to its first rendered video frame (ms, \(rounds) interleaved rounds; \
            `\(URL(fileURLWithPath: clip).lastPathComponent)`, over HTTP from `\(script)` on 127.0.0.1, and its HLS ladder). \
            gstplay and gst-play-1.0 render video into `filesink location=FIFO sync=true buffer-mode=unbuffered` \
            (audio: `fakesink sync=true`) and the first byte on the FIFO is the frame; mpv (`--vo=null --ao=null`) logs \
            `first video frame after restart shown`, read from a pipe as it comes. The program is killed at the first frame.

            """ + "\n"
        var rows: [[String]] = []
        for source in sources {
            for player in players {
                let key = "\(source.id).\(player.id)"
                if let why = player.unavailable { rows.append([source.label, player.label, "not run: \(why)", "—", "—", "—"]); continue }
                guard let summary = Summary(seconds[key] ?? []) else {
                    rows.append([source.label, player.label, "0/\(rounds)", "failed: \(failures[key] ?? "?")", "—", "—"]); continue
                }
                let reference = Summary(seconds["\(source.id).gst-play"] ?? [])
                rows.append([source.label, player.label, "\(summary.count)/\(rounds)", Markdown.number(summary.median * 1000, 1),
                             Markdown.number(summary.p95 * 1000, 1), Markdown.ratio(reference.map { summary.median / $0.median })])
                context.evidence.record("firstframe.\(key).p50", summary.median * 1000)
            }
        }
        body += Markdown.table(["source", "player", "runs ok", "p50 ms", "p95 ms", "p50 × gst-play-1.0"], rows)
        for (key, why) in failures.sorted(by: { $0.key < $1.key }) where seconds[key] != nil {
            body += "\n- \(key): some runs failed — \(why)\n"
        }
        if !notes.isEmpty { body += "\n" + notes.joined(separator: " ") + "\n" }
        body += "\nCommand lines (local file): " + players.filter { $0.unavailable == nil }
            .map { "`\($0.command(sources[0].uri, "FIFO").commandLine)`" }.joined(separator: "; ") + ".\n"
        return CaseOutcome(sections: [ReportSection(title: title, body: body)], targets: [])
    }

    static func players(_ context: BenchContext) -> [Player] {
        let gstplay = context.gstplay
        let videoSink: @Sendable (String) -> String = { "filesink location=\($0) sync=true buffer-mode=unbuffered" }
        return [
            Player(id: "gstplay", label: "gstplay", signal: .fifoByte, unavailable: context.gstplayCLI.unavailable) { uri, fifo in
                ProcessSpec(executable: gstplay, arguments: ["--quiet", "--video-sink", videoSink(fifo), "--audio-sink", "fakesink sync=true", uri],
                            timeoutSeconds: 30)
            },
            Player(id: "gst-play", label: "gst-play-1.0", signal: .fifoByte, unavailable: context.gstPlay.unavailable) { uri, fifo in
                ProcessSpec(executable: "gst-play-1.0", arguments: ["-q", "--videosink=\(videoSink(fifo))", "--audiosink=fakesink sync=true", uri],
                            timeoutSeconds: 30)
            },
            Player(id: "mpv", label: "mpv", signal: .mpvLogLine, unavailable: context.mpv.unavailable) { uri, _ in
                ProcessSpec(executable: "mpv", arguments: ["--no-config", "--vo=null", "--ao=null", "--msg-level=all=no,cplayer=v", uri],
                            timeoutSeconds: 30)
            },
        ]
    }

    /// One run of `player` on `uri`: seconds from the spawn to the first frame.
    static func measure(_ player: Player, uri: String, runner: ProcessRunner) -> Result<Double, BenchError> {
        let fifo = runner.workDirectory + "/first-frame-\(player.id).fifo"
        unlink(fifo)
        var readEnd: Int32 = -1, keepOpen: Int32 = -1
        switch player.signal {
        case .fifoByte:
            guard mkfifo(fifo, 0o600) == 0 else { return .failure(BenchError("mkfifo: \(String(cString: strerror(errno)))")) }
            // A writer of the harness's own keeps the FIFO from reading EOF before the player opens it.
            readEnd = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
            keepOpen = open(fifo, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        case .mpvLogLine:
            var ends: [Int32] = [-1, -1]
            guard closeOnExecPipe(&ends) else { return .failure(BenchError("pipe: \(String(cString: strerror(errno)))")) }
            readEnd = ends[0]
            keepOpen = ends[1]
            _ = fcntl(readEnd, F_SETFL, fcntl(readEnd, F_GETFL) | O_NONBLOCK)
        }
        defer {
            close(readEnd)
            if keepOpen >= 0 { close(keepOpen) }
            unlink(fifo)
        }
        var spec = player.command(uri, fifo)
        if player.signal == .mpvLogLine {
            spec.standardOutput = keepOpen
        }
        let spawned = runner.spawn(spec)
        if player.signal == .mpvLogLine { close(keepOpen); keepOpen = -1 }
        guard case .success(let process) = spawned else {
            if case .failure(let failure) = spawned { return .failure(BenchError(failure.result.failureReason ?? "could not start")) }
            return .failure(BenchError("could not start"))
        }
        let deadline = process.started + spec.timeoutSeconds
        var firstFrame: Double?
        var log = ""
        var buffer = [UInt8](repeating: 0, count: 65536)
        var descriptor = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
        waiting: while MonotonicClock.now() < deadline {
            guard poll(&descriptor, 1, 50) >= 0 || errno == EINTR else { break }
            if descriptor.revents & Int16(POLLIN) != 0 {
                let count = read(readEnd, &buffer, buffer.count)
                if count > 0 {
                    if player.signal == .fifoByte { firstFrame = MonotonicClock.now(); break waiting }
                    log += String(decoding: buffer[0..<count], as: UTF8.self)
                    if log.contains("first video frame after restart shown") { firstFrame = MonotonicClock.now(); break waiting }
                }
            }
            if descriptor.revents & Int16(POLLHUP) != 0 && player.signal == .mpvLogLine { break }
            if ProcessProbe(pid: process.pid).state == "Z" { break } // ended without a frame
        }
        process.send(SIGKILL)
        let result = process.wait()
        guard let firstFrame else {
            return .failure(BenchError("no frame: \(result.failureReason ?? "ended (exit status 0)")"))
        }
        return .success(firstFrame - process.started)
    }
}
