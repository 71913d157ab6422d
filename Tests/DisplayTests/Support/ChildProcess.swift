import Foundation
import XCTest

/// A built executable of this package (`gstplay`, `ExampleX11Player`) run as a child with its
/// output collected line by line, so a test can wait for a line with a deadline.
final class ChildProcess: @unchecked Sendable {
    /// The package root: `#filePath` is `<root>/Tests/DisplayTests/Support/ChildProcess.swift`.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A product next to the test bundle (the products directory), else in `.build/debug`.
    static func product(_ name: String) -> URL {
        var directories: [URL] = []
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            directories.append(bundle.bundleURL.deletingLastPathComponent())
        }
        if let executable = Bundle.main.executableURL { directories.append(executable.deletingLastPathComponent()) }
        directories.append(packageRoot.appendingPathComponent(".build/debug"))
        for directory in directories {
            let url = directory.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return packageRoot.appendingPathComponent(".build/debug/\(name)")
    }

    let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let errors = Pipe()
    private let condition = NSCondition()
    private var stdoutText = ""
    private var stderrText = ""
    private var outputClosed = false

    /// Starts `product` with `arguments` and `environment`, from the package root.
    init(_ product: String, _ arguments: [String], environment: [String: String]) throws {
        _ = Self.ignoreSIGPIPE
        process.executableURL = Self.product(product)
        process.arguments = arguments
        process.environment = environment
        process.currentDirectoryURL = Self.packageRoot
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        output.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            self?.append(data, toErrors: false)
        }
        errors.fileHandleForReading.readabilityHandler = { [weak self] handle in
            self?.append(handle.availableData, toErrors: true)
        }
        try process.run()
    }

    private static let ignoreSIGPIPE: Void = { _ = signal(SIGPIPE, SIG_IGN) }()

    private func append(_ data: Data, toErrors: Bool) {
        condition.lock()
        if data.isEmpty {
            if !toErrors { outputClosed = true }
        } else if toErrors {
            stderrText += String(decoding: data, as: UTF8.self)
        } else {
            stdoutText += String(decoding: data, as: UTF8.self)
        }
        condition.broadcast()
        condition.unlock()
    }

    /// Everything written to stdout so far.
    var stdout: String { condition.withLock { stdoutText } }
    /// Everything written to stderr so far.
    var stderr: String { condition.withLock { stderrText } }

    /// The stdout lines decoded as JSON objects (others skipped).
    var jsonLines: [[String: Any]] { Self.objects(in: stdout) }

    private static func objects(in text: String) -> [[String: Any]] {
        text.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
    }

    /// Waits until a JSON line satisfies `predicate`; returns it, or nil at the deadline or when
    /// stdout closed without one.
    func waitForJSON(timeout: TimeInterval, _ predicate: ([String: Any]) -> Bool) -> [String: Any]? {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        var checkedLength = -1
        while true {
            if stdoutText.utf8.count != checkedLength {
                checkedLength = stdoutText.utf8.count
                if let found = Self.objects(in: stdoutText).first(where: predicate) { return found }
            }
            if outputClosed { return nil }
            if !condition.wait(until: deadline) {
                return Self.objects(in: stdoutText).first(where: predicate)
            }
        }
    }

    /// Writes a line to the child's stdin.
    func send(_ line: String) {
        try? input.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8))
    }

    /// Waits for the child to exit; its status, or nil (after killing it) at the deadline.
    func waitForExit(timeout: TimeInterval) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        guard !process.isRunning else {
            process.interrupt()
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return nil
        }
        process.waitUntilExit()
        // Drain what is left in the pipes.
        output.fileHandleForReading.readabilityHandler = nil
        errors.fileHandleForReading.readabilityHandler = nil
        append(output.fileHandleForReading.readDataToEndOfFile(), toErrors: false)
        append(errors.fileHandleForReading.readDataToEndOfFile(), toErrors: true)
        return process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
}
