import Foundation

/// Runs the Backend tests' HTTP fault server (`Tests/BackendTests/Support/http_test_server.py`:
/// a real server on 127.0.0.1 with 404/500, resets, stalls, throttling and a redirect loop on
/// command) for the CLI tests. The script stays where it is; it exits when its stdin closes, so it
/// cannot outlive the test process.
final class FaultServer: @unchecked Sendable {
    /// `<root>/Tests/BackendTests/Support/http_test_server.py`, found from this file's path.
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("BackendTests/Support/http_test_server.py")

    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    /// The port it listens on.
    let port: Int

    init() throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.script.path]
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        // The first line is "PORT <n>"; a server that dies first gives EOF (no hang).
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
            throw NSError(domain: "FaultServer", code: 1, userInfo: [NSLocalizedDescriptionKey: "server did not start: '\(text)'"])
        }
        self.port = port
    }

    /// `http://127.0.0.1:<port><path>`.
    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// Stops the server (closes its stdin) and waits for it.
    func stop() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    deinit { if process.isRunning { stop() } }
}
