import Foundation
import TestSupport
import XCTest

/// Runs the built `gstplay` binary with piped stdin/stdout/stderr and lets a test wait for
/// specific output with a deadline. Output is collected by one reader thread per pipe under an
/// `NSCondition`; waiting threads are woken on every chunk.
final class GstplayProcess: @unchecked Sendable {
    /// Where the package lives.
    static let packageRoot = TestMedia.root

    /// A fixture file path (absolute).
    static func fixture(_ name: String) -> String { TestMedia.path(name) }

    /// The `gstplay` executable: next to the test bundle (the products directory), else in the
    /// usual build directories.
    static let binary: URL = {
        var candidates: [URL] = []
        if let executable = Bundle.main.executableURL { candidates.append(executable.deletingLastPathComponent()) }
        candidates.append(Bundle.main.bundleURL)
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent())
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            candidates.append(bundle.bundleURL.deletingLastPathComponent())
        }
        for scratch in [".build-cli", ".build"] {
            candidates.append(packageRoot.appendingPathComponent("\(scratch)/debug"))
        }
        for directory in candidates {
            let url = directory.appendingPathComponent("gstplay")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return packageRoot.appendingPathComponent(".build-cli/debug/gstplay")
    }()

    enum Input { case pipe, devNull }

    /// True when the tests run under `swift test --sanitize=address` (`make test-asan`); the
    /// gstplay binary next to them is then built with ASan too.
    static let underAddressSanitizer = dlsym(nil, "__asan_init") != nil

    /// The environment for a gstplay child: `environment` (default: this process's), and under
    /// ASan the child's options. `make test-asan` records full (DWARF) stacks on every malloc
    /// so that Tests/lsan.supp can tell GLib-internal leaks from ours; that makes a real-time
    /// gstplay too slow to keep up with its console, so children use fast stacks and no leak
    /// check, except those started with `checkLeaks` (Tests/gstplayTests/LeakCheckTests.swift),
    /// which keep full stacks and LeakSanitizer.
    /// Children get this test process's own media cache (its `XDG_CACHE_HOME`, see `TestProcess`)
    /// also when `environment` sets none: http tests never touch the user's.
    static func childEnvironment(_ environment: [String: String]? = nil, checkLeaks: Bool = false) -> [String: String]? {
        var result = environment ?? ProcessInfo.processInfo.environment
        if result["XDG_CACHE_HOME"] == nil { result["XDG_CACHE_HOME"] = ProcessInfo.processInfo.environment["XDG_CACHE_HOME"] }
        guard underAddressSanitizer else { return result }
        let options = checkLeaks ? "fast_unwind_on_malloc=0:malloc_context_size=16:detect_leaks=1:leak_check_at_exit=1"
                                 : "fast_unwind_on_malloc=1:detect_leaks=0"
        result["ASAN_OPTIONS"] = (result["ASAN_OPTIONS"].map { $0 + ":" } ?? "") + options
        return result
    }

    /// A child that dies early closes its stdin pipe: writing to it must give EPIPE here, not
    /// kill the whole test process with SIGPIPE.
    private static let ignoreSIGPIPE: Void = { _ = signal(SIGPIPE, SIG_IGN) }()

    let process = Process()
    private let stdinPipe = Pipe()
    private let stdoutPipe = Pipe()
    private let stderrPipe = Pipe()
    private let condition = NSCondition()
    private var outData = Data()
    private var errData = Data()
    private var outClosed = false
    private var errClosed = false
    private let exited = DispatchSemaphore(value: 0)

    /// `directory`: the working directory (default: the package root).
    init(_ arguments: [String], input: Input = .pipe, environment: [String: String]? = nil, checkLeaks: Bool = false,
         directory: String? = nil) {
        _ = Self.ignoreSIGPIPE
        process.executableURL = Self.binary
        process.arguments = arguments
        process.currentDirectoryURL = directory.map { URL(fileURLWithPath: $0) } ?? Self.packageRoot
        if let environment = Self.childEnvironment(environment, checkLeaks: checkLeaks) { process.environment = environment }
        switch input {
        case .pipe: process.standardInput = stdinPipe
        case .devNull: process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        }
        process.standardOutput = stdoutPipe
        process.terminationHandler = { [exited] _ in exited.signal() }
        process.standardError = stderrPipe
    }

    /// Reads `pipe` on a thread of its own with blocking `read(2)` until EOF (Foundation's
    /// `readabilityHandler` sometimes misses the EOF on Linux, which cost seconds per run).
    private func startReading(_ pipe: Pipe, error: Bool) {
        let fd = pipe.fileHandleForReading.fileDescriptor
        let thread = Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                self.append(Data(buffer[0..<count]), error: error)
            }
            self.append(Data(), error: error)
        }
        thread.start()
    }

    private func append(_ data: Data, error: Bool) {
        condition.lock()
        if data.isEmpty {
            if error { errClosed = true } else { outClosed = true }
        } else if error {
            errData.append(data)
        } else {
            outData.append(data)
        }
        condition.broadcast()
        condition.unlock()
    }

    func start() throws {
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: Self.binary.path), "gstplay binary not found at \(Self.binary.path)")
        try process.run()
        startReading(stdoutPipe, error: false)
        startReading(stderrPipe, error: true)
    }

    /// Writes a line (newline added) to the child's stdin.
    func send(_ line: String) { send(Data((line + "\n").utf8)) }

    func send(_ data: Data) {
        try? stdinPipe.fileHandleForWriting.write(contentsOf: data)
    }

    func closeInput() { try? stdinPipe.fileHandleForWriting.close() }

    var stdout: String { condition.lock(); defer { condition.unlock() }; return String(decoding: outData, as: UTF8.self) }
    var stderr: String { condition.lock(); defer { condition.unlock() }; return String(decoding: errData, as: UTF8.self) }

    /// The raw bytes so far (for checks the UTF-8 decoding above would hide: invalid sequences).
    var stdoutBytes: Data { condition.lock(); defer { condition.unlock() }; return outData }
    var stderrBytes: Data { condition.lock(); defer { condition.unlock() }; return errData }

    /// Complete stdout lines so far.
    var stdoutLines: [String] { Self.completeLines(stdout) }
    var stderrLines: [String] { Self.completeLines(stderr) }

    static func completeLines(_ text: String) -> [String] {
        var lines = text.components(separatedBy: "\n")
        lines.removeLast() // the unterminated rest (empty when the text ends with a newline)
        return lines
    }

    /// Waits until `predicate` holds for (stdout, stderr) or `timeout` passes; returns whether it held.
    @discardableResult
    func waitFor(timeout: TimeInterval = 20, _ predicate: (_ stdout: String, _ stderr: String) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            let out = String(decoding: outData, as: UTF8.self), err = String(decoding: errData, as: UTF8.self)
            if predicate(out, err) { return true }
            if (outClosed && errClosed) || Date() >= deadline { return predicate(out, err) }
            _ = condition.wait(until: min(deadline, Date().addingTimeInterval(0.5)))
        }
    }

    /// Waits for a complete stdout line that contains `text`.
    @discardableResult
    func waitForLine(containing text: String, timeout: TimeInterval = 20) -> Bool {
        waitFor(timeout: timeout) { out, _ in Self.completeLines(out).contains { $0.contains(text) } }
    }

    /// Waits for the process to end (killing it after `timeout`) and for its output to be
    /// read; returns the exit status, or nil when it had to be killed or died from a signal.
    func waitForExit(timeout: TimeInterval = 20) -> Int32? {
        if exited.wait(timeout: .now() + timeout) == .timedOut {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            XCTFail("gstplay did not exit within \(timeout) s; killed. stdout:\n\(stdout)\nstderr:\n\(stderr)")
            return nil
        }
        process.waitUntilExit()
        waitFor(timeout: 5) { _, _ in false } // until both pipes hit EOF (returns at once then)
        return process.terminationReason == .exit ? process.terminationStatus : nil
    }

    /// Runs to completion with `lines` written to stdin first (then closed); returns the status.
    /// `environment` and `directory` as for ``init(_:input:environment:checkLeaks:directory:)``.
    static func run(_ arguments: [String], input lines: [String]? = nil, timeout: TimeInterval = 20,
                    environment: [String: String]? = nil, directory: String? = nil) throws
        -> (status: Int32?, stdout: String, stderr: String) {
        let child = GstplayProcess(arguments, input: lines == nil ? .devNull : .pipe, environment: environment, directory: directory)
        try child.start()
        if let lines {
            for line in lines { child.send(line) }
            child.closeInput()
        }
        let status = child.waitForExit(timeout: timeout)
        return (status, child.stdout, child.stderr)
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}

/// Parses one JSON Lines line into a dictionary (nil when it is not a JSON object).
func jsonObject(_ line: String) -> [String: Any]? {
    (try? JSONSerialization.jsonObject(with: Data(line.utf8), options: [])) as? [String: Any]
}
