/// One segment download as the benchmark's HTTP server logged it. A value type: any thread.
public struct SegmentFetch: Sendable, Equatable, Codable {
    /// The fragment's number in the presentation (0: the first 2 s).
    public var sequence: Int
    /// The bitrate of the variant it came from, in kbit/s (the ladder's stated BANDWIDTH).
    public var kbps: Double
    /// The media seconds the fragment holds.
    public var mediaSeconds: Double
    /// When the request arrived and when the response ended, seconds on one clock (the bench's
    /// `CLOCK_MONOTONIC`, or seconds from the trace's start).
    public var start: Double
    /// See ``start``.
    public var end: Double
    /// The whole body was sent (status 200, every byte).
    public var complete: Bool

    /// A fetch; any thread.
    public init(sequence: Int, kbps: Double, mediaSeconds: Double, start: Double, end: Double, complete: Bool) {
        self.sequence = sequence
        self.kbps = kbps
        self.mediaSeconds = mediaSeconds
        self.start = start
        self.end = end
        self.complete = complete
    }
}

/// The player's playback position at a moment (same clock as ``SegmentFetch/start``).
public struct PositionSample: Sendable, Equatable, Codable {
    /// When the position was read.
    public var time: Double
    /// The position, media seconds.
    public var position: Double

    /// A sample; any thread.
    public init(time: Double, position: Double) {
        self.time = time
        self.position = position
    }
}

/// A played adaptive session put together from what every player leaves behind alike:
/// the server's log of segment downloads and the player's position over time. The same rules
/// judge every player, whatever it reports about itself. Pure code: any thread.
///
/// - Fragments played: each fragment whose media start lies before the final position, at the
///   bitrate of its last complete download (a fragment never completely downloaded is left out).
/// - Stalls: after playback started, the spans where the position advanced at less than half the
///   wall clock's rate (up to the run's end, the last position held); a stall lasts the wall time
///   the position lost there (Δt − Δposition) and counts when it lost at least ``minimumStallSeconds``.
/// - Buffer level at t: the media downloaded contiguously from the start by t, minus the position at t.
/// - Startup: from the load to playing.
public struct SessionTimeline: Sendable {
    /// Stalls shorter than this (scheduling jitter) are not counted.
    public static let minimumStallSeconds = 0.2

    /// The downloads, in the order given.
    public let fetches: [SegmentFetch]
    /// The position samples, in time order.
    public let samples: [PositionSample]
    /// When the player was told to load.
    public let loadTime: Double
    /// When playback started (nil: never).
    public let playingTime: Double?
    /// When the run ended.
    public let endTime: Double

    /// A timeline; `samples` are sorted by time here.
    public init(fetches: [SegmentFetch], samples: [PositionSample], loadTime: Double, playingTime: Double?, endTime: Double) {
        self.fetches = fetches
        self.samples = samples.sorted { $0.time < $1.time }
        self.loadTime = loadTime
        self.playingTime = playingTime
        self.endTime = endTime
    }

    /// The session the QoE score takes (``QoEScore``).
    public var session: PlayedSession {
        PlayedSession(fragments: playedFragments, stalls: stalls, startupSeconds: playingTime.map { $0 - loadTime })
    }

    /// The last position read at or before `endTime` (0 before any).
    public var finalPosition: Double { position(at: endTime) }

    /// The position at `time`: the latest sample at or before it (0 before the first).
    public func position(at time: Double) -> Double {
        var low = 0, high = samples.count
        while low < high {
            let middle = (low + high) / 2
            if samples[middle].time <= time { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? 0 : samples[low - 1].position
    }

    /// Media seconds downloaded contiguously from fragment 0 by `time`.
    public func downloadedSeconds(by time: Double) -> Double {
        var done: [Int: Double] = [:]
        for fetch in fetches where fetch.complete && fetch.end <= time { done[fetch.sequence] = fetch.mediaSeconds }
        var sequence = 0, seconds = 0.0
        while let length = done[sequence] {
            seconds += length
            sequence += 1
        }
        return seconds
    }

    /// The buffer level at `time`, seconds (never negative).
    public func bufferSeconds(at time: Double) -> Double { max(0, downloadedSeconds(by: time) - position(at: time)) }

    /// The buffer level at every position sample.
    public var bufferSeries: [PositionSample] {
        samples.map { PositionSample(time: $0.time, position: bufferSeconds(at: $0.time)) }
    }

    /// The bitrate requested (kbit/s) at each download's start, in time order: what the ABR chose.
    public var requestSeries: [(time: Double, kbps: Double)] {
        fetches.sorted { $0.start < $1.start }.map { ($0.start, $0.kbps) }
    }

    private var playedFragments: [PlayedSession.Fragment] {
        let final = finalPosition
        var last: [Int: SegmentFetch] = [:]
        for fetch in fetches where fetch.complete && fetch.end <= endTime {
            if let seen = last[fetch.sequence], seen.end > fetch.end { continue }
            last[fetch.sequence] = fetch
        }
        var fragments: [PlayedSession.Fragment] = []
        var mediaStart = 0.0, sequence = 0
        while mediaStart < final, let fetch = last[sequence] {
            fragments.append(.init(seconds: fetch.mediaSeconds, kbps: fetch.kbps))
            mediaStart += fetch.mediaSeconds
            sequence += 1
        }
        return fragments
    }

    private var stalls: [PlayedSession.Stall] {
        guard let playingTime else { return [] }
        var stalls: [PlayedSession.Stall] = []
        var open: (start: Double, lost: Double, end: Double)?
        func close() {
            if let span = open, span.lost >= Self.minimumStallSeconds {
                stalls.append(.init(start: span.start, end: span.start + span.lost))
            }
            open = nil
        }
        // The run's end closes the last span: a player held for buffering may send no position
        // at all (the Backend's ticks pause with the pipeline), so silence until the end is a stall.
        var points = samples.filter { $0.time <= endTime }
        if let last = points.last, last.time < endTime { points.append(PositionSample(time: endTime, position: last.position)) }
        for (previous, next) in zip(points, points.dropFirst()) where previous.time >= playingTime {
            let wall = next.time - previous.time, advanced = next.position - previous.position
            guard wall > 0 else { continue }
            if advanced < wall / 2 {
                let lost = wall - max(0, advanced)
                if let span = open { open = (span.start, span.lost + lost, next.time) } else { open = (previous.time, lost, next.time) }
            } else {
                close()
            }
        }
        close()
        return stalls
    }
}
