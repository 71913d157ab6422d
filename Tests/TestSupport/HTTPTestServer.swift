import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Runs `http_test_server.py` (next to this file): a real HTTP server on 127.0.0.1 with faults
/// on command — Range or no Range, throttling (also changed at runtime, per path), a TCP reset
/// or a stall at a byte offset, any status code, a redirect loop — and a log of the requests.
/// The URL scheme is documented at the top of the script. The server exits when its stdin
/// closes, so it cannot outlive the test process. Any thread.
public final class HTTPTestServer: @unchecked Sendable {
    /// `<root>/Tests/TestSupport/http_test_server.py`.
    public static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("http_test_server.py")

    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    /// The port it listens on.
    public let port: Int

    /// Starts the server and waits for its `PORT <n>` line (EOF when it dies first: no hang).
    /// `hls`: the HLS ladder directory served under `/hls` (see `HLSFixture`); `media`: a
    /// directory of extra files served under `/file/` (after `Fixtures/`), e.g. media a test made.
    /// `bind`: the address to listen on (default 127.0.0.1; `"0.0.0.0"` also serves a renderer in a
    /// ``RendererLab`` namespace at ``url(_:host:)``, while ``url(_:)`` and the controls keep working).
    public init(hls: String? = nil, media: String? = nil, bind: String? = nil) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.script.path] + (hls.map { ["--hls", $0] } ?? []) + (media.map { ["--media", $0] } ?? [])
            + (bind.map { ["--bind", $0] } ?? [])
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        var line = Data()
        let handle = output.fileHandleForReading
        while !line.contains(UInt8(ascii: "\n")) {
            let byte = handle.readData(ofLength: 1)
            if byte.isEmpty { break }
            line.append(byte)
        }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.hasPrefix("PORT "), let port = Int(text.dropFirst(5)) else {
            process.terminate()
            throw NSError(domain: "HTTPTestServer", code: 1, userInfo: [NSLocalizedDescriptionKey: "server did not start: '\(text)'"])
        }
        self.port = port
    }

    /// `http://127.0.0.1:<port><path>`.
    public func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// `http://<host>:<port><path>`: for a server started with `bind: "0.0.0.0"`, reached at
    /// another of this machine's addresses (a ``RendererLab``'s ``RendererLab/clientAddress``).
    public func url(_ path: String, host: String) -> String { "http://\(host):\(port)\(path)" }

    /// `https://127.0.0.1:<port><path>`: TLS against this plain-HTTP server (a handshake failure).
    public func httpsURL(_ path: String) -> String { "https://127.0.0.1:\(port)\(path)" }

    /// Requests `/flaky` or `/reset` got for `key` so far (-1 when the server does not answer).
    public func hits(_ key: String) -> Int {
        control("/hits?key=\(key)").flatMap { Int(String(decoding: $0, as: UTF8.self)) } ?? -1
    }

    /// From now on sends `path` (e.g. `/file/x.webm`, without a query) at `bytesPerSecond`,
    /// transfers under way included; nil lifts the limit. Returns whether the server confirmed.
    @discardableResult
    public func throttle(_ path: String, bytesPerSecond: Int?) -> Bool {
        let encoded = path.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? path
        return control("/control/throttle?path=\(encoded)&rate=\(bytesPerSecond ?? 0)") != nil
    }

    /// One request the server received (`/control`, `/log` and `/hits` are not logged).
    public struct Request: Decodable, Sendable, Equatable {
        /// `GET` or `HEAD`.
        public var method: String
        /// The request target with its query, e.g. `/file/x.webm?rate=1000`.
        public var path: String
        /// The `Range` header, if any (`bytes=100-`).
        public var range: String?
        /// The status sent, nil while the response has not started.
        public var status: Int?
        /// The `If-None-Match` header, if any (a conditional request).
        public var ifNoneMatch: String?
        /// The `If-Modified-Since` header, if any (a conditional request).
        public var ifModifiedSince: String?
    }

    /// The requests so far, in arrival order; `clear` empties the log after reading it.
    public func requests(clear: Bool = false) -> [Request] {
        guard let data = control(clear ? "/log?clear=1" : "/log") else { return [] }
        return (try? JSONDecoder().decode([Request].self, from: data)) ?? []
    }

    /// Stops the server (closes its stdin) and waits for it.
    public func stop() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    private func control(_ path: String) -> Data? { try? Data(contentsOf: URL(string: url(path))!) }

    deinit { if process.isRunning { stop() } }
}
