import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import StreamingQoE

/// The trace-driven network of `http_test_server.py`: one shared link whose rate
/// follows a `BandwidthTrace`, which every `/file` and `/hls` response body goes through
/// (concurrent responses share it), plus an optional added round-trip time before each
/// response's headers. Any thread.
extension HTTPTestServer {
    /// The directory of the committed traces, `Fixtures/traces` (made by its `make-traces.py`).
    public static let tracesDirectory = TestMedia.root.appendingPathComponent("Fixtures/traces")

    /// A committed trace by name (`step-down` reads `Fixtures/traces/step-down.txt`).
    public static func trace(named name: String) throws -> BandwidthTrace {
        try BandwidthTrace(contentsOf: tracesDirectory.appendingPathComponent("\(name).txt"))
    }

    /// Shapes every response from now on to `trace`, which is at `seconds` now (its clock runs
    /// from there and repeats after its period), each response waiting `rttMilliseconds` before
    /// its headers; nil lifts the shaping (and the RTT). Transfers under way follow the new
    /// trace from their next chunk. Returns the server's monotonic time of the trace's 0 s (the
    /// clock of `HLSRequest.start`/`end`), nil when the server did not confirm.
    /// `oversleepMilliseconds` makes every wait of the server's senders for the link end that
    /// much late, as a loaded machine's scheduler does (tests of the shaping itself).
    @discardableResult
    public func shape(to trace: BandwidthTrace?, rttMilliseconds: Int = 0, startingAt seconds: Double = 0,
                      oversleepMilliseconds: Int = 0) -> Double? {
        let query = trace.map { "steps=\($0.queryValue)&rtt=\(rttMilliseconds)&start=\(seconds)&oversleep=\(oversleepMilliseconds)" } ?? "steps="
        struct Reply: Decodable { var origin: Double }
        guard let data = try? Data(contentsOf: URL(string: url("/control/trace?\(query)"))!) else { return nil }
        return (try? JSONDecoder().decode(Reply.self, from: data))?.origin
    }
}
