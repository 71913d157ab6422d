/// The latency to a live stream's edge and the rule that keeps it within a stated bound.
///
/// **The live edge** is the end of the seekable window the demuxer answers to `GST_QUERY_SEEKING`
/// (``AdaptiveInfo/liveWindowEnd``), moved on by the wall time since it was read: the window
/// only moves when the demuxer refreshes the playlist, and a refresh stuck behind a slow segment
/// download (or an outage) must not hide that the stream went on. Every window end read counts
/// (the edge is the largest of them, each moved on by the time since it was read): after an
/// outage the first refresh may bring a playlist made before it, a window end that moved one
/// segment while the stream moved on by the whole outage (seen: read as 0 s behind for 5 s while
/// stalled). For HLS, GStreamer's
/// `hlsdemux` puts the window end three segments before the newest segment of the media playlist
/// (the hold-back the HLS specification asks of a client), which is also where a live stream
/// starts; the latency to the newest segment is ``latency`` plus those three segments. **The
/// latency** is that edge minus the playback position (stream time), never negative.
///
/// **Two timelines:** 1.22's `hlsdemux` answers the seeking query from the media playlist of
/// the variant it downloads, and a playlist it loads on a variant switch starts its timeline at
/// 0 again, while the position goes on in the old one (seen: window 16…22, then 0…6 with the
/// position at 22.3). A window end that moves back (or jumps ahead of the edge by more than
/// ``rebaseSegments`` segments) starts a new window timeline: the edge stays where it was and the
/// offset between the two timelines is kept. A seek is made in the timeline of the window the
/// demuxer has then, so once one landed the position is in it (the feature drops windows asked
/// for before the seek): the edge is carried over into the timeline seen before that puts the
/// first window read after the seek nearest under the edge (each variant's playlist keeps its
/// timeline; a window read late, as after an outage, is behind the edge and does not hide the
/// latency); a window ahead of all of them starts the edge again from it.
///
/// **The segment duration** is learnt from the window: a sliding-window playlist advances by whole
/// segments, so its steps are segments or, when a refresh was missed, several: the segment is
/// the longest step shorter than 1.5 × the shortest one (steps under ``smallestSegment`` are
/// ignored), the target duration of a playlist whose segments are not all the same length (the
/// test ladder's last segment is 1.93 s: taking the shortest step made the bound 7.8 s instead
/// of 8 s whenever the live window went past it). Before the window first moves it is unknown
/// and no catch-up is made.
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
/// **No catch-up to a stale window:** the seek can only reach the end of the window the demuxer
/// has, so while that end is more than ``staleSegments`` segments behind the edge (no refresh
/// got through in an outage, or the first one after it brought a playlist made before it) the
/// catch-up waits for a refresh: seeking then landed behind the edge again, and the cooldown held
/// off the catch-up that could have reached it (seen: 10.4 s behind for 5 s after the outage).
///
/// **Time-shifting is the user's choice:** after a seek the guard did not ask for, or a pause by
/// the user, no catch-up is made (``userTimeShifted()``) until the latency is back under the
/// catch-up threshold (the user seeked back to the edge).
///
/// **Never silently stale:** while a seek is in flight (the position is the old one until it
/// lands) the latency is the edge, moved on by the wall time, minus the seek's target
/// (``seekIssued(target:)``, ``latencyWhileSeeking(now:)``): where playback resumes, which the
/// edge keeps moving away from until it does. When no window could be read (the demuxer did not
/// answer), ``update(windowEnd:position:now:startupBuffer:canCatchUp:onStartVariant:)`` takes
/// nil and moves the edge on with the wall time alone.
///
/// Pure value; the adaptive feature feeds it every 250 ms on the loop thread.
struct LiveEdgeGuard: Sendable, Hashable {
    /// What one look at the edge asks for.
    enum Decision: Sendable, Hashable {
        /// Nothing to do.
        case none
        /// The latency is over the threshold while the demuxer downloads above the start variant,
        /// or while the window read is stale (an outage): ask for the start variant now, keep the
        /// ABR on it (``pending``), and seek once the downloads are on it and a fresh window came
        /// (the demuxer keeps its variant across a seek and cannot abandon a fragment under way;
        /// seen: the ABR climbing to 480p on the first fragment after an outage, which delayed
        /// the catch-up past its bound).
        case restart
        /// Seek to the live edge: the latency (seconds) is over ``LiveEdgeGuard/catchUpLatency(segmentSeconds:startupBuffer:)``.
        case catchUp(latency: Double)
    }

    /// Window-end steps shorter than this (seconds) are not counted as segments.
    static let smallestSegment = 0.5
    /// Catch-ups are at least this many segments apart.
    static let cooldownSegments = 2.0
    /// A window end more than this many segments behind the edge was read late: no catch-up to it.
    static let staleSegments = 1.5
    /// A window end further than this many segments ahead of the edge is a new window timeline.
    static let rebaseSegments = 2.0

    /// The stated bound on the latency to the live edge, in seconds: 3 segments + the startup buffer.
    static func bound(segmentSeconds: Double, startupBuffer: Double) -> Double { 3 * segmentSeconds + startupBuffer }

    /// The latency above which a catch-up seek is due: the bound minus one segment.
    static func catchUpLatency(segmentSeconds: Double, startupBuffer: Double) -> Double {
        bound(segmentSeconds: segmentSeconds, startupBuffer: startupBuffer) - segmentSeconds
    }

    /// The segment duration learnt from the window end's steps, nil until it moved.
    var segmentSeconds: Double? {
        guard let shortest = steps.min() else { return nil }
        return steps.filter { $0 < 1.5 * shortest }.max()
    }
    /// The window end's last steps (seconds), at most ``keptSteps``.
    private var steps: [Double] = []
    /// How many window-end steps the segment duration is learnt from.
    static let keptSteps = 16
    /// The target of the seek in flight, in the window's timeline (``seekIssued(target:)``).
    private var seekTarget: Double?
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
    /// The live edge in the position's timeline, and when (monotonic seconds) it was last updated.
    private var edge: Double?
    private var edgeAt = 0.0
    /// The position's timeline minus the window's (non-zero after a switch restarted the window's).
    private var offset = 0.0
    /// A seek was made: the next update starts the edge again from the window it is given.
    private var seekMade = false
    private var lastCatchUp: Double?
    /// The offsets of the window timelines seen since the last seek (``offset`` is one of them).
    private var timelines: [Double] = [0]

    /// A guard for a new load.
    init() {}

    /// A seek is under way at `now`: the guard's own (asked for within the cooldown), else the user's.
    mutating func seekObserved(now: Double) {
        seekMade = true
        if let since = ownSeekSince, now - since < Self.cooldownSegments * (segmentSeconds ?? 2) { return }
        ownSeekSince = nil
        timeShifted = true
    }

    /// A seek to `target` (stream seconds, in the timeline of the window the demuxer has: the
    /// core resolves it from the seeking query) was sent: until it lands,
    /// ``latencyWhileSeeking(now:)`` counts from it.
    mutating func seekIssued(target: Double) { seekTarget = target }

    /// The latency while a seek is in flight at `now`, or landed (at `position`) before a window
    /// was read after it: the edge moved on by the wall time minus the seek's target or the
    /// position, in the timeline (of those seen) that puts the target nearest under the edge, as
    /// a landed seek is placed; never negative; also kept as ``latency``. Nil before an edge or
    /// a target is known.
    mutating func latencyWhileSeeking(now: Double, position: Double? = nil) -> Double? {
        guard let target = seekTarget, let edge else { return nil }
        let moved = edge + (now - edgeAt)
        let slack = Self.rebaseSegments * (segmentSeconds ?? 2)
        let k = timelines.filter { target + $0 <= moved + slack }.max() ?? offset
        latency = max(0, moved - ((position ?? target) + k))
        return latency
    }

    /// The user paused (or seeked): the latency that follows is theirs.
    mutating func userTimeShifted() { timeShifted = true }

    /// One look at time `now` (monotonic seconds): the window end (nil: the demuxer answered no
    /// window this time; the edge moves on with the wall time) and the position (stream
    /// seconds), the startup buffer in force and whether a seek may be made now (an HLS stream,
    /// not seeking) and whether the downloads are on the start variant. Returns what to do.
    mutating func update(windowEnd read: Double?, position: Double, now: Double, startupBuffer: Double, canCatchUp: Bool,
                         onStartVariant: Bool = true) -> Decision {
        guard let windowEnd = read else {
            // No window this time: the edge moves on with the wall time (not across a seek: the
            // position's timeline is known from a window read after it) and no catch-up is made.
            guard let e = edge, !seekMade else { return .none }
            let moved = e + (now - edgeAt)
            (edge, edgeAt) = (moved, now)
            latency = max(0, moved - position)
            return .none
        }
        seekTarget = nil
        followEdge(windowEnd: windowEnd, now: now)
        let behind = max(0, (edge ?? windowEnd) - position)
        latency = behind
        guard let segment = segmentSeconds else { return .none }
        bound = Self.bound(segmentSeconds: segment, startupBuffer: startupBuffer)
        let threshold = Self.catchUpLatency(segmentSeconds: segment, startupBuffer: startupBuffer)
        if timeShifted, behind <= threshold { timeShifted = false }
        guard canCatchUp, !timeShifted else { pending = false; return .none }
        let stale = (edge ?? windowEnd) - (windowEnd + offset) > Self.staleSegments * segment
        if pending {
            guard onStartVariant else { return .none }
        } else {
            guard behind > threshold else { return .none }
            if let lastCatchUp, now - lastCatchUp < Self.cooldownSegments * segment { return .none }
            guard onStartVariant, !stale else { pending = true; return .restart }
        }
        guard !stale else { return .none }
        pending = false
        lastCatchUp = now
        ownSeekSince = now
        seekMade = true
        catchUps += 1
        return .catchUp(latency: behind)
    }

    /// Moves the edge on to `now` and takes in the window end read: learns the segment duration
    /// from its steps, follows the window to another timeline when it moved back or far ahead,
    /// and after a seek moves the edge into the timeline the seek landed in.
    private mutating func followEdge(windowEnd: Double, now: Double) {
        let slack = Self.rebaseSegments * (segmentSeconds ?? 2)
        var moved = edge.map { $0 + (now - edgeAt) }
        if seekMade, let m = moved {
            // The seek landed in the timeline of the window the demuxer had then (the first window
            // read after it is in it): of the timelines seen, the one that puts this window end
            // nearest under the edge (a window read late is behind it), else a new one.
            if let k = timelines.filter({ windowEnd + $0 <= m + slack }).max() {
                moved = m - k
                timelines = timelines.map { $0 - k }
            } else {
                (moved, timelines) = (nil, [0])
            }
            (offset, lastEnd) = (0, nil)
        }
        seekMade = false
        if let lastEnd, let m = moved {
            if windowEnd < lastEnd || windowEnd + offset - m > slack {
                offset = timelines.first { abs(windowEnd + $0 - m) <= slack } ?? (m - windowEnd)
                if !timelines.contains(offset) { timelines.append(offset) }
            } else if windowEnd - lastEnd >= Self.smallestSegment {
                steps.append(windowEnd - lastEnd)
                if steps.count > Self.keptSteps { steps.removeFirst() }
            }
        }
        lastEnd = windowEnd
        edge = max(moved ?? -.infinity, windowEnd + offset)
        edgeAt = now
    }
}
