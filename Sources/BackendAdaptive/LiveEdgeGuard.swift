/// The latency to a live stream's edge and the rule that keeps it within a stated bound (issue 26).
///
/// **The live edge** is the end of the seekable window `playbin` answers to `GST_QUERY_SEEKING`
/// (``AdaptiveInfo/liveWindowEnd``), moved on by the wall time since that end last advanced: the
/// window only moves when the demuxer refreshes the playlist, and a refresh stuck behind a slow
/// segment download (or an outage) must not hide that the stream went on. For HLS, GStreamer's
/// `hlsdemux` puts the window end three segments before the newest segment of the media playlist
/// (the hold-back the HLS specification asks of a client), which is also where a live stream
/// starts; the latency to the newest segment is ``latency`` plus those three segments. **The
/// latency** is that edge minus the playback position (stream time), never negative.
///
/// **The segment duration** is learnt from the window: a sliding-window playlist advances by whole
/// segments, so the smallest step of the window end seen so far is one segment (steps under
/// ``smallestSegment`` are ignored). Before the window first moves it is unknown and no catch-up
/// is made.
///
/// **The bound** (``bound(segmentSeconds:startupBuffer:)``): 3 segments + the startup buffer
/// (``AdaptivePolicy/effectiveMinBuffer``, the buffer a stall refills): with 2 s segments and the
/// 2 s floor, 8 s. Steady playback stays under one segment and a bit (the edge moves a segment at
/// a time); only stalls push it further.
///
/// **The catch-up** (``catchUpLatency(segmentSeconds:startupBuffer:)``): once the latency exceeds
/// the bound minus one segment, a seek to the live edge is due (``Decision/catchUp(latency:)``,
/// also while stalled: the media behind the edge is not worth waiting for), at most once per two
/// segments (``cooldownSegments``), so that the seek lands and the buffer refills before the next
/// look. The remaining segment is the room the seek has to land and refill. The ABR restarts on
/// its start variant with it; when the demuxer is downloading a higher variant, the seek waits
/// until the downloads are on the start variant (``Decision/restart``): 1.22's `hlsdemux` keeps
/// its variant across a seek and cannot abandon a fragment under way, so seeking at once only
/// restarted the same slow fragment (seen: three catch-ups of a 720p fragment at 600 kbit/s,
/// 18 s stalled). That fragment's download time is the one thing the bound cannot cover. A seek was chosen over
/// a faster playback rate because `playbin` changes its rate with a flushing seek anyway and a
/// seek costs one refill instead of a long stretch of sped-up audio. The bound holds while the
/// link carries at least the lowest variant in real time: during an outage nothing arrives,
/// wherever playback is.
///
/// **Time-shifting is the user's choice:** after a seek the guard did not ask for, or a pause by
/// the user, no catch-up is made (``userTimeShifted()``) until the latency is back under the
/// catch-up threshold (the user seeked back to the edge).
///
/// Pure value; the adaptive feature feeds it every 250 ms on the loop thread.
struct LiveEdgeGuard: Sendable, Hashable {
    /// What one look at the edge asks for.
    enum Decision: Sendable, Hashable {
        /// Nothing to do.
        case none
        /// The latency is over the threshold while the demuxer downloads above the start variant:
        /// ask for the start variant now and seek once the downloads are on it (the demuxer keeps
        /// its variant across a seek and cannot abandon a fragment under way).
        case restart
        /// Seek to the live edge: the latency (seconds) is over ``LiveEdgeGuard/catchUpLatency(segmentSeconds:startupBuffer:)``.
        case catchUp(latency: Double)
    }

    /// Window-end steps shorter than this (seconds) are not counted as segments.
    static let smallestSegment = 0.5
    /// Catch-ups are at least this many segments apart.
    static let cooldownSegments = 2.0

    /// The stated bound on the latency to the live edge, in seconds: 3 segments + the startup buffer.
    static func bound(segmentSeconds: Double, startupBuffer: Double) -> Double { 3 * segmentSeconds + startupBuffer }

    /// The latency above which a catch-up seek is due: the bound minus one segment.
    static func catchUpLatency(segmentSeconds: Double, startupBuffer: Double) -> Double {
        bound(segmentSeconds: segmentSeconds, startupBuffer: startupBuffer) - segmentSeconds
    }

    /// The segment duration learnt from the window end's steps, nil until it moved.
    private(set) var segmentSeconds: Double?
    /// The latency measured last, seconds.
    private(set) var latency: Double?
    /// The bound for the segment duration learnt and the startup buffer of the last update.
    private(set) var bound: Double?
    /// Catch-up seeks asked for since the load.
    private(set) var catchUps = 0
    /// The user seeked or paused: no catch-up until the latency is back under the threshold.
    private(set) var timeShifted = false
    /// A catch-up waits for the downloads to reach the start variant.
    private(set) var pending = false
    /// When the guard's own catch-up seek was asked for, while it may still be under way.
    private var ownSeekSince: Double?
    private var lastEnd: Double?
    /// When the window end last advanced (monotonic seconds).
    private var advancedAt: Double?
    private var lastCatchUp: Double?

    /// A guard for a new load.
    init() {}

    /// A seek is under way at `now`: the guard's own (asked for within the cooldown), else the user's.
    mutating func seekObserved(now: Double) {
        if let since = ownSeekSince, now - since < Self.cooldownSegments * (segmentSeconds ?? 2) { return }
        ownSeekSince = nil
        timeShifted = true
    }

    /// The user paused (or seeked): the latency that follows is theirs.
    mutating func userTimeShifted() { timeShifted = true }

    /// One look at time `now` (monotonic seconds): the window end and the position (stream
    /// seconds), the startup buffer in force and whether a seek may be made now (an HLS stream,
    /// not seeking) and whether the downloads are on the start variant. Returns what to do.
    mutating func update(windowEnd: Double, position: Double, now: Double, startupBuffer: Double, canCatchUp: Bool,
                         onStartVariant: Bool = true) -> Decision {
        if let lastEnd, windowEnd - lastEnd >= Self.smallestSegment {
            segmentSeconds = min(segmentSeconds ?? .infinity, windowEnd - lastEnd)
        }
        if windowEnd != lastEnd { advancedAt = now }
        lastEnd = windowEnd
        let behind = max(0, windowEnd + (now - (advancedAt ?? now)) - position)
        latency = behind
        guard let segment = segmentSeconds else { return .none }
        bound = Self.bound(segmentSeconds: segment, startupBuffer: startupBuffer)
        let threshold = Self.catchUpLatency(segmentSeconds: segment, startupBuffer: startupBuffer)
        if timeShifted, behind <= threshold { timeShifted = false }
        guard canCatchUp, !timeShifted else { pending = false; return .none }
        if pending {
            guard onStartVariant else { return .none }
        } else {
            guard behind > threshold else { return .none }
            if let lastCatchUp, now - lastCatchUp < Self.cooldownSegments * segment { return .none }
            guard onStartVariant else { pending = true; return .restart }
        }
        pending = false
        lastCatchUp = now
        ownSeekSince = now
        catchUps += 1
        return .catchUp(latency: behind)
    }
}
