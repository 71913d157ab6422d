import Foundation

/// A network bandwidth trace: consecutive steps of (duration, kbit/s) that the test
/// HTTP server (`http_test_server.py`, `/control/trace`) shapes every response to, repeated from
/// the start when it runs out, and the same numbers for a benchmark's picture and checks. A value
/// type: any thread. Pure Swift (no GStreamer, no GLib).
///
/// The file format (`Fixtures/traces/*.txt`, written by `Fixtures/traces/make-traces.py`): one
/// step per line, `<seconds> <kbit/s>`, blank lines and `#` comments ignored.
public struct BandwidthTrace: Sendable, Equatable {
    /// One step of the trace: `seconds` long at `kbps` kilobits (1000 bits) per second.
    public struct Step: Sendable, Equatable {
        /// How long the step lasts, in seconds (> 0).
        public var seconds: Double
        /// The link's rate during the step, in kbit/s (0: an outage).
        public var kbps: Double

        /// A step; any thread.
        public init(seconds: Double, kbps: Double) {
            self.seconds = seconds
            self.kbps = kbps
        }
    }

    /// The steps, in order.
    public var steps: [Step]

    /// A trace of `steps`; nil when there is no step, a duration is not > 0, a rate is negative,
    /// or every rate is 0 (a link that never delivers).
    public init?(steps: [Step]) {
        guard !steps.isEmpty, steps.allSatisfy({ $0.seconds > 0 && $0.kbps >= 0 && $0.seconds.isFinite && $0.kbps.isFinite }),
              steps.contains(where: { $0.kbps > 0 }) else { return nil }
        self.steps = steps
    }

    /// Parses the text format; throws `TraceError` naming the first bad line.
    public init(text: String) throws {
        var steps: [Step] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
            if fields.isEmpty { continue }
            guard fields.count == 2, let seconds = Double(fields[0]), let kbps = Double(fields[1]) else {
                throw TraceError.badLine(index + 1, String(raw))
            }
            steps.append(Step(seconds: seconds, kbps: kbps))
        }
        guard let trace = BandwidthTrace(steps: steps) else { throw TraceError.invalid }
        self = trace
    }

    /// Reads and parses a trace file.
    public init(contentsOf url: URL) throws {
        try self.init(text: try String(contentsOf: url, encoding: .utf8))
    }

    /// What can be wrong with a trace's text.
    public enum TraceError: Error, Equatable, CustomStringConvertible {
        /// Line `n` is not `<seconds> <kbit/s>`.
        case badLine(Int, String)
        /// No step, a duration not > 0, a negative rate, or only outages.
        case invalid

        /// One line for a person.
        public var description: String {
            switch self {
            case .badLine(let number, let text): "trace line \(number) is not '<seconds> <kbit/s>': \(text)"
            case .invalid: "a trace needs steps with durations > 0, rates ≥ 0, and some rate > 0"
            }
        }
    }

    /// The length of one pass through the steps, in seconds.
    public var period: Double { steps.reduce(0) { $0 + $1.seconds } }

    /// The rate in kbit/s at `time` seconds after the trace started (it repeats after `period`).
    public func kbps(at time: Double) -> Double {
        var offset = time.truncatingRemainder(dividingBy: period)
        if offset < 0 { offset += period }
        for step in steps {
            if offset < step.seconds { return step.kbps }
            offset -= step.seconds
        }
        return steps[steps.count - 1].kbps
    }

    /// The bytes the link delivers between `start` and `end` seconds after the trace started,
    /// sending all the time (the integral of the rate).
    public func bytes(from start: Double, to end: Double) -> Double {
        guard end > start else { return 0 }
        return bits(upTo: end) / 8 - bits(upTo: start) / 8
    }

    /// The mean rate over one period, in kbit/s.
    public var meanKbps: Double { steps.reduce(0) { $0 + $1.seconds * $1.kbps } / period }

    /// The value of `/control/trace?steps=`: `seconds:kbps` pairs joined by commas.
    public var queryValue: String {
        steps.map { "\(Self.short($0.seconds)):\(Self.short($0.kbps))" }.joined(separator: ",")
    }

    private func bits(upTo time: Double) -> Double {
        let whole = (time / period).rounded(.down)
        var offset = time - whole * period
        var bits = whole * meanKbps * period * 1000
        for step in steps {
            let part = min(offset, step.seconds)
            bits += part * step.kbps * 1000
            offset -= part
            if offset <= 0 { break }
        }
        return bits
    }

    private static func short(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
