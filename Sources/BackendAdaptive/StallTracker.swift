import BackendCore

/// The stall half of seed 004's loop: playback that has started and then runs out of buffer is a
/// *stall*; it ends when the buffer is refilled (the decoder queue reports 100 %) or the stream ends.
///
/// Pure value fed on the loop thread from `GST_MESSAGE_BUFFERING` levels; times are monotonic seconds.
struct StallTracker: Sendable, Hashable {
    /// What one input changed.
    enum Edge: Sendable, Hashable {
        /// The buffer ran dry after playback had started.
        case started
        /// The buffer refilled; carries how long the stall lasted, in seconds.
        case ended(seconds: Double)
    }

    /// Playback has rendered since the load (before that, buffering is the initial fill, not a stall).
    private(set) var hasPlayed = false
    /// When the running stall began, nil when not stalled.
    private(set) var stalledSince: Double?
    /// Stalls counted since the load.
    private(set) var count = 0
    /// Seconds spent in finished stalls.
    private(set) var total: Double = 0

    /// A tracker for a new load.
    init() {}

    /// True while stalled.
    var isStalled: Bool { stalledSince != nil }

    /// The pipeline reached PLAYING: from now on an empty buffer is a stall.
    mutating func played() { hasPlayed = true }

    /// One buffering level (0…100) at time `now`.
    mutating func buffering(percent: Int, now: Double) -> Edge? {
        if percent < 100 {
            guard hasPlayed, stalledSince == nil else { return nil }
            stalledSince = now
            count += 1
            return .started
        }
        return finish(now: now)
    }

    /// The stream ended (or was stopped) at `now`: a running stall ends.
    mutating func finish(now: Double) -> Edge? {
        guard let since = stalledSince else { return nil }
        stalledSince = nil
        let seconds = max(0, now - since)
        total += seconds
        return .ended(seconds: seconds)
    }

    /// The seed's loop (`Buffer_Lenght == 0 → pause(STALL)`, resume at `MIN_BUFFER_SIZE`) for the
    /// case GStreamer does not report: an adaptive stream whose position stopped while PLAYING
    /// with no BUFFERING message (seen under hlsdemux when a throttled variant switch leaves the
    /// decoder queues empty). Returns the buffering level to post for the core's buffering rule, or nil.
    /// - Parameters:
    ///   - frozenFor: seconds the position has not moved while the pipeline was PLAYING.
    ///   - bufferSeconds: media buffered ahead (decoder queues).
    ///   - minBuffer: what must be buffered before playback resumes.
    ///   - holding: this watch holds playback now (it posted a level below 100).
    ///   - remaining: media left to the end, nil when unknown (live).
    static func watchLevel(frozenFor: Double, bufferSeconds: Double, minBuffer: Double, holding: Bool,
                                  remaining: Double?) -> Int? {
        let holdsTheRest = remaining.map { bufferSeconds >= $0 - 0.25 } ?? false
        guard holding else { return frozenFor >= 1 && !holdsTheRest ? 0 : nil }
        if holdsTheRest || bufferSeconds >= minBuffer { return 100 }
        return WholeNumber.clamped(bufferSeconds / max(minBuffer, 0.001) * 100, to: 0...99)
    }

    /// Seconds stalled including a running stall, at `now`.
    func stalledSeconds(now: Double) -> Double { total + (stalledSince.map { max(0, now - $0) } ?? 0) }
}
