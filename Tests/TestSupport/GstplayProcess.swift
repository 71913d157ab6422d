import Foundation
import XCTest

/// The tests' one child-process runner: a built executable of this package (`gstplay` by
/// default, or another product such as `ExampleX11Player`) with piped stdin/stdout/stderr, so a
/// test can send lines and wait for specific output with a deadline. Output is collected by one
/// reader thread per pipe under an `NSCondition`; waiting threads are woken on every chunk.
public final class GstplayProcess: @unchecked Sendable {
    /// Where the package lives.
    public static let packageRoot = TestMedia.root

    /// A fixture file path (absolute).
    public static func fixture(_ name: String) -> String { TestMedia.path(name) }

    /// The `gstplay` executable (``product(_:)``).
    public static let binary = product("gstplay")

    /// The executable of product `name`: next to the test bundle (the products directory), else
    /// in the usual build directories.
    public static func product(_ name: String) -> URL {
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
            let url = directory.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return packageRoot.appendingPathComponent(".build-cli/debug/\(name)")
    }

    /// The child's stdin: a pipe (``send(_:)``) or `/dev/null`.
    public enum Input: Sendable { case pipe, devNull }

    /// True when the tests run under `swift test --sanitize=address` (`make test-asan`); the
    /// gstplay binary next to them is then built with ASan too.
    public static let underAddressSanitizer = dlsym(nil, "__asan_init") != nil

    /// The environment for a gstplay child: `environment` (default: this process's), and under
    /// ASan the child's options. `make test-asan` records full (DWARF) stacks on every malloc
    /// so that Tests/lsan.supp can tell GLib-internal leaks from ours; that makes a real-time
    /// gstplay too slow to keep up with its console, so children use fast stacks and no leak
    /// check, except those started with `checkLeaks` (Tests/gstplayTests/LeakCheckTests.swift),
    /// which keep full stacks and LeakSanitizer.
    /// Children get this test process's own media cache (its `XDG_CACHE_HOME`, see `TestProcess`)
    /// also when `environment` sets none: http tests never touch the user's.
    public static func childEnvironment(_ environment: [String: String]? = nil, checkLeaks: Bool = false) -> [String: String]? {
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

    /// The child (its pid, termination status and reason).
    public let process = Process()
    private let stdinPipe = Pipe()
    private let stdoutPipe = Pipe()
    private let stderrPipe = Pipe()
    private let condition = NSCondition()
    private var outData = Data()
    private var errData = Data()
    private var outClosed = false
    private var errClosed = false
    private let exited = DispatchSemaphore(value: 0)

    /// A child of `product` (default `gstplay`) with `arguments`, not started yet (``start()``).
    /// `environment`: see ``childEnvironment(_:checkLeaks:)``; `directory`: the working directory
    /// (default: the package root).
    public init(_ arguments: [String], product: String = "gstplay", input: Input = .pipe, environment: [String: String]? = nil,
                checkLeaks: Bool = false, directory: String? = nil) {
        _ = Self.ignoreSIGPIPE
        process.executableURL = product == "gstplay" ? Self.binary : Self.product(product)
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

    /// Starts the child and its two pipe readers.
    public func start() throws {
        let path = process.executableURL?.path ?? ""
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: path), "executable not found at \(path)")
        try process.run()
        startReading(stdoutPipe, error: false)
        startReading(stderrPipe, error: true)
    }

    /// ``start()``, then this child (`let child = try GstplayProcess([...]).started()`).
    public func started() throws -> GstplayProcess {
        try start()
        return self
    }

    /// Writes a line (newline added) to the child's stdin.
    public func send(_ line: String) { send(Data((line + "\n").utf8)) }

    /// Writes raw bytes to the child's stdin.
    public func send(_ data: Data) {
        try? stdinPipe.fileHandleForWriting.write(contentsOf: data)
    }

    /// Closes the child's stdin (end of input).
    public func closeInput() { try? stdinPipe.fileHandleForWriting.close() }

    /// Everything written to stdout so far (UTF-8, invalid sequences replaced).
    public var stdout: String { condition.lock(); defer { condition.unlock() }; return String(decoding: outData, as: UTF8.self) }
    /// Everything written to stderr so far.
    public var stderr: String { condition.lock(); defer { condition.unlock() }; return String(decoding: errData, as: UTF8.self) }

    /// The raw bytes so far (for checks the UTF-8 decoding above would hide: invalid sequences).
    public var stdoutBytes: Data { condition.lock(); defer { condition.unlock() }; return outData }
    /// The raw stderr bytes so far.
    public var stderrBytes: Data { condition.lock(); defer { condition.unlock() }; return errData }

    /// Complete stdout lines so far.
    public var stdoutLines: [String] { Self.completeLines(stdout) }
    /// Complete stderr lines so far.
    public var stderrLines: [String] { Self.completeLines(stderr) }

    /// The complete (newline-terminated) lines of `text`.
    public static func completeLines(_ text: String) -> [String] {
        var lines = text.components(separatedBy: "\n")
        lines.removeLast() // the unterminated rest (empty when the text ends with a newline)
        return lines
    }

    /// Waits until `predicate` holds for (stdout, stderr) or `timeout` passes; returns whether it held.
    @discardableResult
    public func waitFor(timeout: TimeInterval = 20, _ predicate: (_ stdout: String, _ stderr: String) -> Bool) -> Bool {
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
    public func waitForLine(containing text: String, timeout: TimeInterval = 20) -> Bool {
        waitFor(timeout: timeout) { out, _ in Self.completeLines(out).contains { $0.contains(text) } }
    }

    /// Waits for the process to end (killing it after `timeout`) and for its output to be
    /// read; returns the exit status, or nil when it had to be killed or died from a signal.
    public func waitForExit(timeout: TimeInterval = 20) -> Int32? {
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

    /// Sends `signal` to the child (`kill(2)`), e.g. SIGKILL to make it vanish as a crash would.
    public func send(signal: Int32) {
        if process.isRunning { kill(process.processIdentifier, signal) }
    }

    /// Runs to completion with `lines` written to stdin first (then closed); returns the status.
    /// `environment` and `directory` as for ``init(_:input:environment:checkLeaks:directory:)``.
    public static func run(_ arguments: [String], input lines: [String]? = nil, timeout: TimeInterval = 20,
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

    /// The stdout lines decoded as JSON objects (others skipped).
    public var jsonLines: [[String: Any]] { stdoutLines.compactMap(jsonObject) }

    /// Waits for a complete stdout line that is a JSON object satisfying `predicate`; returns it,
    /// or nil at the deadline or when the child's output ended without one.
    public func waitForJSON(timeout: TimeInterval = 20, _ predicate: ([String: Any]) -> Bool) -> [String: Any]? {
        var found: [String: Any]?
        waitFor(timeout: timeout) { out, _ in
            found = Self.completeLines(out).lazy.compactMap(jsonObject).first(where: predicate)
            return found != nil
        }
        return found
    }

    /// Like ``waitForJSON(timeout:_:)``, among the stdout lines after the first `index` ones
    /// (a mark taken with `stdoutLines.count`): what came after a command was sent.
    public func waitForJSON(after index: Int, timeout: TimeInterval = 20, _ predicate: ([String: Any]) -> Bool) -> [String: Any]? {
        var found: [String: Any]?
        waitFor(timeout: timeout) { out, _ in
            found = Self.completeLines(out).dropFirst(index).lazy.compactMap(jsonObject).first(where: predicate)
            return found != nil
        }
        return found
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}

/// Parses one JSON Lines line into a dictionary (nil when it is not a JSON object).
public func jsonObject(_ line: String) -> [String: Any]? {
    (try? JSONSerialization.jsonObject(with: Data(line.utf8), options: [])) as? [String: Any]
}
