import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An HTTP GET whose body arrivals are timed (checks that the test server's shaping
/// follows a bandwidth trace): every chunk the client receives is recorded as (seconds since
/// `start`, bytes received so far). URLSession's delegate runs on its own queue; the readers may
/// run on any thread (a lock guards the samples).
public final class TimedDownload: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var samples: [(seconds: Double, bytes: Int)] = []
    private var total = 0
    private var finished = false
    private var session: URLSession!
    /// The monotonic instant the times count from (given to `init`, or the request's start).
    public let start: ContinuousClock.Instant

    /// Starts `GET url` now; times count from `start` (default: now).
    public init(_ url: String, from start: ContinuousClock.Instant = .now) {
        self.start = start
        super.init()
        session = URLSession(configuration: .ephemeral, delegate: self, delegateQueue: nil)
        session.dataTask(with: URL(string: url)!).resume()
    }

    /// Bytes received by `seconds` after `start`.
    public func bytes(at seconds: Double) -> Int {
        lock.withLock { samples.last(where: { $0.seconds <= seconds })?.bytes ?? 0 }
    }

    /// The arrivals from `from` to `to` seconds as `seconds:bytes` text, for failure messages: a
    /// reader that was late shows one big step after `to`, a link that lost capacity even steps.
    public func arrivals(from: Double, to: Double) -> String {
        lock.withLock {
            samples.filter { $0.seconds >= from && $0.seconds <= to }
                .map { String(format: "%.3f:%d", $0.seconds, $0.bytes) }.joined(separator: " ")
        }
    }

    /// Seconds from `start` to the first body byte (nil: none yet).
    public var firstByte: Double? { lock.withLock { samples.first?.seconds } }

    /// Whether the body ended (or the request failed).
    public var isFinished: Bool { lock.withLock { finished } }

    /// Stops the transfer and releases the session.
    public func cancel() { session.invalidateAndCancel() }

    /// URLSession: a piece of the body arrived (delegate queue).
    public func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let elapsed = start.duration(to: .now)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        lock.withLock {
            total += data.count
            samples.append((seconds, total))
        }
    }

    /// URLSession: the transfer ended (delegate queue).
    public func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        lock.withLock { finished = true }
    }
}
