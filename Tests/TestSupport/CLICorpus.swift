import Foundation
import XCTest

/// What one run of gstplay did, in the CLI's bad-input corpus (docs/RELIABILITY.md).
public struct CorpusOutcome {
    public var name: String
    /// Exit status; nil when the process died from a signal or had to be killed.
    public var status: Int32?
    /// The signal that ended it, if one did.
    public var signal: Int32?
    public var stdout: String
    public var stderr: String
    public var seconds: Double

    public var stderrLines: [String] { GstplayProcess.completeLines(stderr) }
    /// `gstplay: error: …` lines: a failed item (`gstplay: error: <input>: …`) or a refused
    /// console command (`gstplay: error: <message>`).
    public var errorLines: [String] { stderrLines.filter { $0.hasPrefix("gstplay: error: ") } }
    public var warningLines: [String] { stderrLines.filter { $0.hasPrefix("gstplay: warning: ") } }
    public var json: [[String: Any]] { GstplayProcess.completeLines(stdout).compactMap(jsonObject) }
    public var events: [[String: Any]] { json.filter { $0["event"] != nil } }
    public var replies: [[String: Any]] { json.filter { $0["event"] == nil } }
    public func events(_ name: String) -> [[String: Any]] { events.filter { $0["event"] as? String == name } }
}

/// The CLI's bad-input corpus (docs/RELIABILITY.md): a test class that adopts this
/// runs the built `gstplay` binary with a time limit and checks the documented exit code, exactly
/// one clear error line on stderr naming the input (`gstplay: error: <input>: …` for a failed
/// item, `gstplay: error: …` for a console command), and that nothing crashed (no death by signal, no exit
/// status ≥ 128 except the signal cases, no GLib criticals, no Swift runtime traps) or hung.
public protocol CLICorpus {}

extension CLICorpus {
    /// Starts gstplay (or `executable` with `arguments`, for wrappers such as `setpriv`).
    public func launch(_ arguments: [String], input: GstplayProcess.Input = .pipe, environment extra: [String: String] = [:],
                       executable: String? = nil) throws -> GstplayProcess {
        let child = GstplayProcess(arguments, input: input, environment: ProcessInfo.processInfo.environment.merging(extra) { $1 })
        if let executable { child.process.executableURL = URL(fileURLWithPath: executable) }
        try child.start()
        return child
    }

    /// Waits for `child` to end (killing it after `timeout`, which fails the test) and collects what it did.
    public func finish(_ name: String, _ child: GstplayProcess, started: Date, timeout: TimeInterval = 20) -> CorpusOutcome {
        let status = child.waitForExit(timeout: timeout)
        let signal = child.process.terminationReason == .uncaughtSignal ? child.process.terminationStatus : nil
        return CorpusOutcome(name: name, status: status, signal: signal, stdout: child.stdout, stderr: child.stderr,
                             seconds: Date().timeIntervalSince(started))
    }

    /// Runs gstplay to the end with stdin at EOF (`/dev/null`), or with `lines` written and stdin closed.
    public func run(_ name: String, _ arguments: [String], lines: [String]? = nil, environment: [String: String] = [:],
                    timeout: TimeInterval = 20) throws -> CorpusOutcome {
        let started = Date()
        let child = try launch(arguments, input: lines == nil ? .devNull : .pipe, environment: environment)
        if let lines {
            for line in lines { child.send(line) }
            child.closeInput()
        }
        return finish(name, child, started: started, timeout: timeout)
    }

    /// Runs a console session on a playing 4 s clip: waits until it plays, sends `input`,
    /// waits for `until` (on stdout, stderr), then sends `quit` unless the process ended.
    public func console(_ name: String, json: Bool = false, send input: [Data], timeout: TimeInterval = 20,
                        until: @escaping (_ stdout: String, _ stderr: String) -> Bool) throws -> CorpusOutcome {
        let started = Date()
        let webm = GstplayProcess.fixture("vp8-opus-4s.webm")
        let child = try launch(json ? ["--json", webm] : [webm])
        let playing = child.waitFor(timeout: 10) { out, err in json ? out.contains(#""to":"playing""#) : err.contains("Video: ") }
        XCTAssertTrue(playing, "\(name): did not start playing: \(child.stderr)")
        for data in input { child.send(data) }
        XCTAssertTrue(child.waitFor(timeout: 10, until), "\(name): expected output did not come; stdout:\n\(child.stdout)\nstderr:\n\(child.stderr)")
        child.send("quit")
        child.closeInput()
        return finish(name, child, started: started, timeout: timeout)
    }

    /// What every case must satisfy: it ended by itself (no hang), not from a signal, with a
    /// status below 128, without GLib criticals or Swift runtime errors on stderr.
    public func assertSane(_ outcome: CorpusOutcome, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertNil(outcome.signal, "\(outcome.name): died from signal \(outcome.signal ?? 0)\n\(outcome.stderr)", file: file, line: line)
        XCTAssertNotNil(outcome.status, "\(outcome.name): did not exit normally", file: file, line: line)
        XCTAssertLessThan(outcome.status ?? 255, 128, "\(outcome.name): crash-like exit status", file: file, line: line)
        for marker in ["-CRITICAL **", "** (gstplay", "Fatal error", "Segmentation", "AddressSanitizer", "ThreadSanitizer"] {
            XCTAssertFalse(outcome.stderr.contains(marker), "\(outcome.name): '\(marker)' on stderr:\n\(outcome.stderr)", file: file, line: line)
        }
        print("corpus: case=\"\(outcome.name)\" exit=\(outcome.status.map(String.init) ?? "signal \(outcome.signal ?? -1)") seconds=\(String(format: "%.2f", outcome.seconds)) error=\"\(outcome.errorLines.first ?? "")\"")
    }

    /// A failed item: the exit status, and exactly one `gstplay: error: <input>: <message>` line
    /// whose message contains each of `texts`.
    public func assertOneItemError(_ outcome: CorpusOutcome, exit: Int32 = 1, input: String, _ texts: [String],
                                   file: StaticString = #filePath, line: UInt = #line) {
        assertSane(outcome, file: file, line: line)
        XCTAssertEqual(outcome.status, exit, "\(outcome.name): \(outcome.stderr)", file: file, line: line)
        XCTAssertEqual(outcome.errorLines.count, 1, "\(outcome.name): exactly one error line:\n\(outcome.stderr)", file: file, line: line)
        guard let error = outcome.errorLines.first else { return }
        XCTAssertTrue(error.hasPrefix("gstplay: error: \(input): "), "\(outcome.name): names the input: \(error)", file: file, line: line)
        for text in texts {
            XCTAssertTrue(error.contains(text), "\(outcome.name): '\(text)' missing from: \(error)", file: file, line: line)
        }
    }

    /// A console command that was refused: exit 0 after `quit`, exactly one `gstplay: error: <message>` line.
    public func assertOneConsoleError(_ outcome: CorpusOutcome, _ message: String, file: StaticString = #filePath, line: UInt = #line) {
        assertSane(outcome, file: file, line: line)
        XCTAssertEqual(outcome.status, 0, "\(outcome.name): \(outcome.stderr)", file: file, line: line)
        XCTAssertEqual(outcome.errorLines, ["gstplay: error: \(message)"], "\(outcome.name)", file: file, line: line)
    }

    /// Whether `stderr` holds a complete `gstplay: error: …` line (a refused console command).
    public func errorLine(_ stderr: String) -> Bool { GstplayProcess.completeLines(stderr).contains { $0.hasPrefix("gstplay: error: ") } }
}
