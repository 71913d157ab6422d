import Foundation
import Glibc

/// A gstplay started with `--remote` and the real clients that test it: the URL it
/// printed, HTTP and WebSocket clients (Tests/Scripts/remote_clients.py, websocket-client from
/// the test venv), the TCP listeners the process holds (`/proc/PID/fd` matched against
/// `/proc/net/tcp` and `tcp6`). Any thread.
public final class RemoteSession: @unchecked Sendable {
    /// The venv's Python (`make test-venv`).
    public static let python = VenvScript.python

    /// The player.
    public let child: GstplayProcess
    /// `http://127.0.0.1:PORT/#token=…` as printed.
    public let url: String
    /// `http://127.0.0.1:PORT`.
    public let base: String
    /// The token from the URL.
    public let token: String

    /// Starts `gstplay --json ARGUMENTS` (in `environment`, the test's own when nil) and waits
    /// (20 s) for the remote's URL on stderr; throws when it never comes.
    public init(_ arguments: [String], environment: [String: String]? = nil) throws {
        child = try GstplayProcess(["--json"] + arguments, environment: environment).started()
        guard child.waitFor({ _, err in err.contains("#token=") }) else {
            child.process.terminate()
            throw RemoteSessionError(message: "no URL on stderr: \(child.stderr)")
        }
        let line = child.stderrLines.first { $0.contains("#token=") } ?? ""
        guard let start = line.range(of: "http://"), let mark = line.range(of: "/#token=") else {
            throw RemoteSessionError(message: "no URL in '\(line)'")
        }
        url = String(line[start.lowerBound...]).trimmingCharacters(in: .whitespaces)
        base = String(line[start.lowerBound..<mark.lowerBound])
        token = String(line[mark.upperBound...]).trimmingCharacters(in: .whitespaces)
    }

    /// The port in the URL.
    public var port: Int { Int(base.split(separator: ":").last ?? "") ?? 0 }

    /// Runs a venv Python script of Tests/Scripts with `arguments` (``VenvScript``); its last JSON
    /// line (or nil), its whole output and exit status. `timeout` seconds at most.
    public static func script(_ name: String, _ arguments: [String], timeout: TimeInterval = 60) -> (json: [String: Any]?, output: String, status: Int32) {
        let result = VenvScript.run(name, arguments, timeout: timeout)
        return (result.lastObject, result.transcript, result.status)
    }

    /// One client call of remote_clients.py (`http`, `upgrade`, `big`, `crowd`).
    public func client(_ arguments: [String], timeout: TimeInterval = 60) -> (json: [String: Any]?, output: String, status: Int32) {
        Self.script("remote_clients.py", arguments, timeout: timeout)
    }

    /// The addresses (`ADDR:PORT`, hex as in /proc) of every listening TCP socket the player
    /// holds.
    public func listeningAddresses() -> [String] {
        let pid = child.process.processIdentifier
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
        var inodes = Set<String>()
        for fd in fds {
            if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(fd)"),
               target.hasPrefix("socket:[") {
                inodes.insert(String(target.dropFirst(8).dropLast()))
            }
        }
        var addresses: [String] = []
        for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
            let text = (try? String(contentsOfFile: table, encoding: .utf8)) ?? ""
            for line in text.split(separator: "\n").dropFirst() {
                let fields = line.split(separator: " ")
                guard fields.count > 9, fields[3] == "0A", inodes.contains(String(fields[9])) else { continue }
                addresses.append(String(fields[1]))
            }
        }
        return addresses
    }

    /// Ends the player (SIGTERM) and waits for it.
    public func stop() {
        guard !stopped else { return }
        stopped = true
        if child.process.isRunning { child.process.terminate() }
        _ = child.waitForExit(timeout: 10)
    }
    private var stopped = false

    deinit { stop() }
}

/// A session that did not start. Any thread.
public struct RemoteSessionError: Error, CustomStringConvertible {
    /// What went wrong, with the player's stderr.
    public let message: String
    /// The message.
    public var description: String { message }
}
