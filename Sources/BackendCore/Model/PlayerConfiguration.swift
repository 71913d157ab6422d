import Dispatch

/// Where decoded video or audio goes.
public enum SinkChoice: Sendable, Hashable {
    /// Let the Backend decide: the platform's auto sink where a display/audio device exists,
    /// a clock-synchronised fake sink where none does, so no crashing auto sink plays headless.
    case automatic
    /// A `gst-launch` style element or bin description, e.g. `"ximagesink"` or
    /// `"fakesink sync=true"` (built with `gst_parse_bin_from_description`).
    case description(String)
    /// Disable this kind of stream entirely (playbin flags without video/audio).
    case disabled
}

/// Settings fixed when a ``Player`` is created.
public struct PlayerConfiguration: Sendable {
    /// Interval of position reports while playing. Default 250 ms (four a second); `.zero`
    /// turns the periodic reports off (reports on pause, seek and EOS remain). No position is
    /// queried while nobody listens (no delegate, no open ``Player/events`` stream).
    public var positionInterval: Duration = .milliseconds(250)
    /// Minimum spacing between executed seeks. Default 500 ms (the seed's value). Independently
    /// of it, a seek waits for the one in flight to land (at most 2 s).
    public var seekThrottle: Duration = .milliseconds(500)
    /// Video output.
    public var videoSink: SinkChoice = .automatic
    /// Audio output.
    public var audioSink: SinkChoice = .automatic
    /// Go on from ``PlayerState/ready`` to playing by itself after a load. Default true.
    public var autoplay = true
    /// Allowed playback rates (seed 003: -1…2 for the `.apple` engine). Requests outside, or
    /// closer to 0 than ``PlaybackRate/minimumMagnitude``, get ``PlayerError/Kind/invalidArgument``
    /// and change nothing (``checkRate(_:)``).
    public var rateRange: ClosedRange<Double> = -1.0...2.0
    /// How long ``Player/seekAsync(to:mode:)`` (and its `by:`/`toFraction:` forms) waits for the
    /// seek to land before it throws that it has not (the seek itself goes on, and
    /// ``PlayerEvent/seekDone(_:)`` follows when it lands). Default 10 s. A caller that runs its
    /// commands one after another, as the CLI's dispatcher does, is never held up longer.
    public var seekLandingLimit: Duration = .seconds(10)
    /// Interval of ``PlayerEvent/statistics(_:)`` events; `.zero` (the default) sends none.
    /// ``Player/refreshStatistics()-2mpxy`` answers either way.
    public var statisticsInterval: Duration = .zero
    /// Default seek mode for ``Player/seek(to:mode:)`` callers that do not choose.
    public var defaultSeekMode: SeekMode = .accurate
    /// Keep the audio pitch at rates other than 1 (playbin `audio-filter` = `scaletempo`). Default true.
    public var keepPitch = true
    /// Try `GST_SEEK_FLAG_INSTANT_RATE_CHANGE` (no flush) before a flushing seek when the rate
    /// changes without changing direction. Default true.
    public var instantRateChange = true
    /// Network read timeout (souphttpsrc `timeout`, whole seconds, at least 1). Default 15 s.
    /// It also bounds a live source (``PlayerEvent/waitingForLiveSource(timeout:)``) that sends no
    /// data: the load fails with ``PlayerError/Cause/noLiveData`` after this long of wanting to play.
    public var networkTimeout: Duration = .seconds(15)
    /// Progressive download buffering for http(s) URIs: playbin's `download` flag, so uridecodebin
    /// puts a `downloadbuffer` (a temporary file) in front of the demuxer when the server gives a
    /// size. Demuxers then read in pull mode from that file instead of asking the server again:
    /// without it `oggdemux` re-downloads a small file to find its duration and may never preroll
    /// on a slow link (docs/RELIABILITY.md). Default true.
    public var progressiveDownload = true
    /// How long a load may take to preroll before it fails with a "could not open" error.
    /// nil picks 10 s for local media and max(30 s, 3 × network timeout) for network URIs.
    /// A watchdog rather than trust: decodebin can swallow a demuxer's error posted while it is
    /// still trying that demuxer (GStreamer 1.22), leaving the pipeline waiting forever.
    public var openTimeout: Duration?
    /// When set, delegate methods run on this queue instead of the loop thread.
    public var delegateQueue: DispatchQueue?

    /// The defaults.

    public init() {}
}

/// Where playback of a newly loaded item begins (``Player/load(_:startAt:)``).
public enum StartPosition: Sendable, Hashable {
    /// An absolute media time (clamped to the duration).
    case time(MediaTime)
    /// A fraction 0…1 of the duration; waits for the duration when it is not known at preroll.
    case fraction(Double)
}
