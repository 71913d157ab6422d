/// The buffering rule of the backend, as a pure function of its inputs.
///
/// Below 100 % with a target of at least PAUSED the pipeline is paused and the level
/// reported; at 100 % the user's target state is restored. Live sources never buffer this
/// way, and repeated percentages are dropped.
///
/// **Download buffering.** A `downloadbuffer` posts its BUFFERING messages from
/// two streaming threads (the HTTP source's push thread and the demuxer's pull thread) and
/// posts them after releasing its lock, so a level computed earlier can reach the bus after
/// the 100 % computed later. The element's hysteresis (it stops posting once ≥ 99 % until the
/// level falls below 10 %) means no message corrects it: a player that trusts the late, lower
/// level waits forever with the whole file on disk. So a level below 100 % from a
/// `GST_BUFFERING_DOWNLOAD` element is checked against a `GST_QUERY_BUFFERING` asked of that
/// element now (``Probe``): when the element says it is no longer buffering, or its one
/// range covers the whole file, the data is there and the level counts as 100 %.
enum BufferingPolicy {
    /// The `GstBufferingMode` of a BUFFERING message (`gst_message_parse_buffering_stats`).
    enum Mode: Equatable, Sendable {
        /// `GST_BUFFERING_STREAM` (queue2, multiqueue) or a level the backend posts itself.
        case stream
        /// `GST_BUFFERING_DOWNLOAD` (downloadbuffer: the whole file goes to a temporary file).
        case download
        /// `GST_BUFFERING_TIMESHIFT`.
        case timeshift
        /// `GST_BUFFERING_LIVE`.
        case live
    }

    /// What the posting element answered to a `GST_QUERY_BUFFERING` (format PERCENT) asked
    /// when the message was handled (or on a later re-check).
    struct Probe: Equatable, Sendable {
        /// `gst_query_parse_buffering_percent`'s `busy`: the element is still buffering.
        var busy: Bool
        /// One buffered range from 0 to 100 % of the file: the download is complete.
        var complete: Bool

        /// Makes a probe.
        init(busy: Bool, complete: Bool) {
            self.busy = busy
            self.complete = complete
        }
    }

    /// What the engine does with one `GST_MESSAGE_BUFFERING`.
    enum Decision: Equatable, Sendable {
        /// Nothing: live source, repeated value, or no target to protect.
        case ignore
        /// Set the pipeline to PAUSED and report the level.
        case pause(percent: Int)
        /// Buffers are full: restore the target state (PLAYING when `play` is true) and report 100 %.
        case resume(play: Bool)
    }

    /// True when a level from a `mode` element is contradicted by what the element says now:
    /// in download mode, the element is no longer buffering or holds the whole file.
    static func dataIsThere(mode: Mode, probe: Probe?) -> Bool {
        guard mode == .download, let probe else { return false }
        return probe.complete || !probe.busy
    }

    /// Decides for `percent` given the stream liveness, whether the user wants PLAYING
    /// (`targetPlaying`) or at least PAUSED (`targetActive`), and the last level acted on.
    /// A level below 100 % that ``dataIsThere(mode:probe:)`` contradicts counts as 100 %.
    static func decide(percent: Int, mode: Mode = .stream, probe: Probe? = nil, isLive: Bool,
                       targetActive: Bool, targetPlaying: Bool, lastPercent: Int?) -> Decision {
        if isLive || !targetActive { return .ignore }
        var level = min(max(percent, 0), 100)
        if level < 100 && dataIsThere(mode: mode, probe: probe) { level = 100 }
        if level == lastPercent { return .ignore }
        if level < 100 { return .pause(percent: level) }
        return .resume(play: targetPlaying)
    }

    /// The periodic re-check while the player holds for a download-mode element: resume when
    /// the element now says the data is there (a 100 % that never came, or came out of order).
    static func recheck(holding: Bool, mode: Mode?, probe: Probe?, targetPlaying: Bool) -> Decision {
        guard holding, let mode, dataIsThere(mode: mode, probe: probe) else { return .ignore }
        return .resume(play: targetPlaying)
    }
}
