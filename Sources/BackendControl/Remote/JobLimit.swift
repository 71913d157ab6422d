import HTTPServe
import Synchronization

/// At most N slow jobs at once (the web remote's thumbnails and snapshots): ``enter()`` takes a
/// place or says no, ``leave()`` gives it back. Any thread.
final class JobLimit: Sendable {
    private let limit: Int
    private let running = Atomic<Int>(0)

    /// A limit of `limit` jobs at once.
    init(_ limit: Int) { self.limit = limit }

    /// Takes a place; false when `limit` jobs already run (nothing taken then).
    func enter() -> Bool {
        var current = running.load(ordering: .relaxed)
        while current < limit {
            let (exchanged, original) = running.compareExchange(expected: current, desired: current + 1, ordering: .acquiringAndReleasing)
            if exchanged { return true }
            current = original
        }
        return false
    }

    /// Gives a place back (once per successful ``enter()``).
    func leave() { running.subtract(1, ordering: .acquiringAndReleasing) }

    /// How many run now.
    var count: Int { running.load(ordering: .relaxed) }

    /// The answer when all places are taken: 503 with `Retry-After: 1`.
    static func busy(_ what: String, _ limit: Int) -> HTTPResponse {
        var response = HTTPResponse.text("503 busy: \(limit) \(what) are being made; try again in a second\n", status: 503)
        response.headers.append(("Retry-After", "1"))
        return response
    }
}
