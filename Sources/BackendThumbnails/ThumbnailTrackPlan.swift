import BackendCore

/// Which times a ``ThumbnailTrack`` takes pictures at, which one is made next and which made one
/// stands for a time. Pure; any thread; unit-tested.
///
/// The track has one slot every ``interval`` of the media (slot `k` at `k × interval`, all before
/// the end): at least ``minimumInterval`` apart and at most ``maximumCount`` slots, so a long
/// film costs no more than a short clip.
public struct ThumbnailTrackPlan: Sendable, Hashable {
    /// The closest two slots may be.
    public static let minimumInterval = MediaTime(nanoseconds: 1_000_000_000)
    /// The most slots a track has.
    public static let maximumCount = 200

    /// The time between two slots.
    public let interval: MediaTime
    /// How many slots the media has (at least 1).
    public let count: Int

    /// The plan for media of `duration` (a zero or negative duration: one slot, at 0).
    public init(duration: MediaTime) {
        let nanoseconds = max(duration.nanoseconds, 0)
        let spread = (nanoseconds + Int64(Self.maximumCount) - 1) / Int64(Self.maximumCount)
        let step = max(Self.minimumInterval.nanoseconds, spread)
        interval = MediaTime(nanoseconds: step)
        count = max(1, Int((nanoseconds + step - 1) / step))
    }

    /// The time of slot `index`.
    public func time(ofSlot index: Int) -> MediaTime {
        MediaTime(nanoseconds: Int64(min(max(index, 0), count - 1)) * interval.nanoseconds)
    }

    /// The slot nearest to `time` (times outside the media: the first or last slot).
    public func slot(for time: MediaTime) -> Int {
        let index = (Double(time.nanoseconds) / Double(interval.nanoseconds)).rounded()
        guard index.isFinite else { return 0 }
        return Int(min(max(index, 0), Double(count - 1)))
    }

    /// The next slot to make: the one not in `made` nearest to the slot of `hint` (the time last
    /// looked at; the earlier one of two as near), else the first not made; nil once all are.
    public func nextSlot(made: Set<Int>, hint: MediaTime?) -> Int? {
        guard made.count < count else { return nil }
        let centre = hint.map(slot(for:)) ?? 0
        for distance in 0..<count {
            for candidate in [centre - distance, centre + distance] where (0..<count).contains(candidate) && !made.contains(candidate) {
                return candidate
            }
        }
        return nil
    }

    /// Of the pictures made, shown at `times` (their frames' own times, which key-unit seeks put
    /// on key frames), the index of the one nearest to `time` (the earlier of two as near); nil
    /// when none was made.
    public static func nearest(to time: MediaTime, among times: [MediaTime]) -> Int? {
        var best: (index: Int, distance: Int64)?
        for (index, shown) in times.enumerated() {
            let distance = abs(shown.nanoseconds - time.nanoseconds)
            if best == nil || distance < best!.distance || (distance == best!.distance && shown < times[best!.index]) {
                best = (index, distance)
            }
        }
        return best?.index
    }
}
