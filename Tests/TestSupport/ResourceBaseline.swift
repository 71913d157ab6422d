import Foundation
import ProcessProbe
import XCTest

/// A process's thread and open-descriptor counts, read from `/proc/PID/task` and `/proc/PID/fd`
/// through ``ProcessProbe`` (-1 when unreadable). Any thread.
public struct ResourceCounts: Sendable, Equatable, CustomStringConvertible {
    /// Threads (`/proc/PID/task` entries).
    public var threads: Int
    /// Open descriptors (`/proc/PID/fd` entries).
    public var descriptors: Int

    /// The counts of `probe`'s process now (default: this process).
    public static func now(_ probe: ProcessProbe = .current) -> ResourceCounts {
        ResourceCounts(threads: probe.threadCount ?? -1, descriptors: probe.descriptorCount ?? -1)
    }

    /// Counts as given (e.g. from a sample that also read the RSS).
    public init(threads: Int, descriptors: Int) {
        self.threads = threads
        self.descriptors = descriptors
    }

    /// `threads=N fds=N`.
    public var description: String { "threads=\(threads) fds=\(descriptors)" }
}

/// The leak tests' baseline: threads and descriptors read once, then "back near the baseline"
/// after the work under test, within fixed tolerances, polled while pools retire their threads.
/// One helper for every test that compares a process with itself (`NetworkProbeLeakTests`,
/// `RendererDiscoveryLeakTests`, `WholeProcessLeakCheckTests`, the soak tests). Any thread; the
/// `assert…` calls report through XCTest.
public struct ResourceBaseline: Sendable {
    /// Threads above the baseline that still pass: GLib's thread pools park up to 2 idle threads
    /// and retire them after 15 s; GStreamer's task pool keeps some.
    public static let threadTolerance = 4
    /// Descriptors above the baseline that still pass.
    public static let descriptorTolerance = 2

    /// The process read.
    public let probe: ProcessProbe
    /// The counts the later readings are compared with.
    public let counts: ResourceCounts

    /// The baseline of `probe`'s process (default: this process), read now.
    public init(probe: ProcessProbe = .current) {
        self.init(ResourceCounts.now(probe), probe: probe)
    }

    /// A baseline of counts read earlier from `probe`'s process.
    public init(_ counts: ResourceCounts, probe: ProcessProbe = .current) {
        self.probe = probe
        self.counts = counts
    }

    /// Whether `reading` is within the tolerances above the baseline.
    public func holds(_ reading: ResourceCounts) -> Bool {
        reading.threads <= counts.threads + Self.threadTolerance && reading.descriptors <= counts.descriptors + Self.descriptorTolerance
    }

    /// Reads the counts every `interval` until they are back within the tolerances or `timeout`
    /// passes (blocks the calling thread); returns the last reading.
    public func settle(timeout: Duration = .seconds(20), interval: Duration = .milliseconds(100)) -> ResourceCounts {
        var reading = ResourceCounts.now(probe)
        _ = eventually(timeout: timeout, interval: interval) {
            reading = ResourceCounts.now(probe)
            return holds(reading)
        }
        return reading
    }

    /// ``settle(timeout:interval:)``, then asserts both bounds with the message
    /// `baseline …, after WHAT …`; returns the last reading.
    @discardableResult
    public func assertSettled(after what: String, timeout: Duration = .seconds(20),
                              file: StaticString = #filePath, line: UInt = #line) -> ResourceCounts {
        let after = settle(timeout: timeout)
        let report = "baseline \(counts), after \(what) \(after)"
        XCTAssertLessThanOrEqual(after.threads, counts.threads + Self.threadTolerance, report, file: file, line: line)
        XCTAssertLessThanOrEqual(after.descriptors, counts.descriptors + Self.descriptorTolerance, report, file: file, line: line)
        return after
    }

    /// The leak tests' loop on this process: one warm-up `round` (GLib's, GStreamer's and the
    /// libraries' pools start), the baseline, `rounds` more, then ``assertSettled(after:timeout:file:line:)``.
    public static func assertRoundsLeaveNothing(rounds: Int, settle timeout: Duration = .seconds(20),
                                                file: StaticString = #filePath, line: UInt = #line,
                                                _ round: () throws -> Void) rethrows {
        try round()
        let baseline = ResourceBaseline()
        for _ in 0..<rounds { try round() }
        baseline.assertSettled(after: "\(rounds) rounds", timeout: timeout, file: file, line: line)
    }
}
