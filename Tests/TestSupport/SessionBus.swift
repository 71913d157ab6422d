import Foundation
import XCTest

/// A private D-Bus session bus for one test: `dbus-daemon --session --nofork --print-address`,
/// stopped (SIGTERM, then waited for) by ``stop()`` or `deinit`. Clients and gstplay children
/// reach it through ``environment(_:)`` (`DBUS_SESSION_BUS_ADDRESS`); nothing touches a bus of
/// the machine's. Real clients (`playerctl`, `gdbus`) run on it with ``run(_:_:timeout:)``.
public final class SessionBus: @unchecked Sendable {
    /// The bus address (`unix:…`), as the daemon printed it.
    public let address: String
    private let daemon = Process()

    /// Starts the daemon and reads its address (throws when `dbus-daemon` is missing or fails).
    public init() throws {
        daemon.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        daemon.arguments = ["--session", "--nofork", "--nopidfile", "--print-address=1"]
        let output = Pipe()
        daemon.standardOutput = output
        daemon.standardError = FileHandle.nullDevice
        daemon.standardInput = FileHandle.nullDevice
        try daemon.run()
        var line = Data()
        let handle = output.fileHandleForReading
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = handle.availableData   // the daemon prints its address at once, or exits (EOF)
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        address = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !address.isEmpty else {
            daemon.terminate()
            throw NSError(domain: "SessionBus", code: 1, userInfo: [NSLocalizedDescriptionKey: "dbus-daemon printed no address"])
        }
    }

    /// `base` (default: this process's environment) with `DBUS_SESSION_BUS_ADDRESS` set to this bus.
    /// A private bus for the MPRIS tests, which drive it with `playerctl`: throws (the test fails,
    /// it is not skipped) when `playerctl` is missing — `make test` installs it (TEST_PACKAGES).
    public static func withPlayerctl() throws -> SessionBus {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/playerctl") else {
            throw NSError(domain: "SessionBus", code: 2, userInfo: [NSLocalizedDescriptionKey:
                "playerctl is not installed: run the tests through `make test`, which installs it (TEST_PACKAGES)"])
        }
        return try SessionBus()
    }

    public func environment(_ base: [String: String]? = nil) -> [String: String] {
        var environment = base ?? ProcessInfo.processInfo.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = address
        return environment
    }

    /// Runs the client `tool` (a path, or a name looked up in /usr/bin) with `arguments` on this
    /// bus to its end (killed after `timeout`); its exit status (nil when killed) and output.
    @discardableResult
    public func run(_ tool: String, _ arguments: [String], timeout: TimeInterval = 10)
        -> (status: Int32?, stdout: String, stderr: String) {
        let child = GstplayProcess.tool(tool, arguments, environment: environment(), input: .devNull)
        guard (try? child.start()) != nil else { return (nil, "", "could not start \(tool)") }
        let status = child.waitForExit(timeout: timeout)
        return (status, child.stdout, child.stderr)
    }

    /// `playerctl ARGS` on this bus; its stdout without the trailing newline ("" on failure).
    public func playerctl(_ arguments: String...) -> String {
        run("playerctl", arguments).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `gdbus monitor --session --dest NAME` on this bus, once it is surely subscribed (gdbus
    /// adds its match rule asynchronously and says nothing when it is in place): `poke(attempt)`
    /// makes the watched player emit a signal and returns a text that signal's line contains;
    /// poked again (a new attempt number) every 300 ms until such a line arrives. Stop the monitor
    /// with SIGTERM. Lines up to ``GstplayProcess/stdoutLines``' count at return are the pokes'.
    public func monitor(_ name: String, timeout: TimeInterval = 10, poke: (Int) -> String) throws -> GstplayProcess {
        let monitor = try GstplayProcess.tool("gdbus", ["monitor", "--session", "--dest", name], environment: environment()).started()
        let deadline = Date().addingTimeInterval(timeout)
        for attempt in 0... {
            let marker = poke(attempt)
            if monitor.waitForLine(containing: marker, timeout: 0.3) { return monitor }
            if Date() >= deadline { break }
        }
        kill(monitor.process.processIdentifier, SIGTERM)
        XCTFail("gdbus monitor saw no poke within \(timeout) s: \(monitor.stdout)\n\(monitor.stderr)")
        return monitor
    }

    /// Stops the daemon (SIGTERM) and waits for it. Idempotent.
    public func stop() {
        guard daemon.isRunning else { return }
        daemon.terminate()
        daemon.waitUntilExit()
    }

    deinit { stop() }
}

public extension GstplayProcess {
    /// A child running the system tool `tool` (a path, or a program of Tests/tools.list) rather
    /// than a product of this package, with the same pipes and waits (`gdbus monitor`, `playerctl`).
    /// A program that is not on the list, or not installed, fails the running test with why.
    static func tool(_ tool: String, _ arguments: [String], environment: [String: String]? = nil,
                     input: Input = .pipe) -> GstplayProcess {
        let child = GstplayProcess(arguments, input: input, environment: environment)
        child.process.executableURL = URL(fileURLWithPath: ExternalTools.checkedPath(tool))
        return child
    }
}
