import Foundation
import XCTest
import TestSupport

/// A private X server for one test: `Xvfb -displayfd` picks a free display number and writes it
/// to our pipe once the server accepts connections, so there is nothing to guess and no sleep.
/// `-noreset` keeps the server from resetting (and refusing connections for a moment) whenever
/// its last client disconnects. Stopped (SIGTERM, then waited for) by ``stop()`` or deinit.
final class XvfbServer: @unchecked Sendable {
    /// The value for `DISPLAY`, e.g. ":3".
    let display: String
    /// Screen size in pixels.
    let width: Int
    let height: Int
    private let process = Process()

    /// Starts the server; throws (making the test fail with the reason) when Xvfb is missing or
    /// does not come up within `timeout` seconds. `make test` installs it (TEST_PACKAGES).
    /// `resetsWhenIdle`: leave out `-noreset`, as a launcher's bare X server may run: the server
    /// then resets (refusing connections for a moment) whenever its last client disconnects.
    init(width: Int = 1280, height: Int = 1024, timeout: TimeInterval = 20, resetsWhenIdle: Bool = false) throws {
        self.width = width
        self.height = height
        guard let xvfb = XvfbServer.which("Xvfb") else {
            throw XvfbError("Xvfb not found: `make test` installs it (apt package xvfb)")
        }
        let pipe = Pipe()
        process.executableURL = URL(fileURLWithPath: xvfb)
        process.arguments = ["-displayfd", "1", "-screen", "0", "\(width)x\(height)x24", "-nolisten", "tcp"] + (resetsWhenIdle ? [] : ["-noreset"])
        process.standardOutput = pipe
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        // Read the display number on a helper thread so a hung Xvfb cannot hang the test.
        let ready = DispatchSemaphore(value: 0)
        let box = LineBox()
        Thread.detachNewThread {
            var data = Data()
            while !data.contains(UInt8(ascii: "\n")) {
                let chunk = pipe.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                data.append(chunk)
            }
            box.set(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
            ready.signal()
        }
        guard ready.wait(timeout: .now() + timeout) == .success, let number = Int(box.get()) else {
            process.terminate()
            throw XvfbError("Xvfb did not report a display within \(timeout) s")
        }
        display = ":\(number)"
    }

    /// The environment of this process with `DISPLAY` set to this server and no Wayland.
    func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = display
        environment.removeValue(forKey: "WAYLAND_DISPLAY")
        for (key, value) in extra { environment[key] = value }
        return environment
    }

    /// Stops the server and waits for it; idempotent.
    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    deinit { stop() }

    /// The full path of a program of Tests/tools.list where its package puts it, or nil.
    static func which(_ program: String) -> String? { ExternalTools.path(program) }

    private final class LineBox: @unchecked Sendable {
        private let lock = NSLock()
        private var value = ""
        func set(_ text: String) { lock.withLock { value = text } }
        func get() -> String { lock.withLock { value } }
    }
}

/// A failure to set up the display for a test.
struct XvfbError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
