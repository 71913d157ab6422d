import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Runs `http_test_server.py` (a real HTTP server on 127.0.0.1 with faults on command) for the
/// duration of a test. The server exits when its stdin closes, so it cannot outlive the tests.
final class HTTPTestServer: @unchecked Sendable {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    /// The port it listens on.
    let port: Int

    init() throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("http_test_server.py")
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path]
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        // First line: "PORT <n>".
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
    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// Requests `/flaky` got for `key` so far.
    func hits(_ key: String) -> Int {
        guard let data = try? Data(contentsOf: URL(string: url("/hits?key=\(key)"))!) else { return -1 }
        return Int(String(decoding: data, as: UTF8.self)) ?? -1
    }

    /// Stops the server (closing stdin) and waits for it.
    func stop() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    deinit { if process.isRunning { stop() } }
}
