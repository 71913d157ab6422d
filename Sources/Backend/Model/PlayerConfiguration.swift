import Dispatch

/// Where decoded video or audio goes.
public enum SinkChoice: Sendable, Hashable {
    /// Let the Backend decide: the platform's auto sink where a display/audio device exists,
    /// a synchronised fake sink where none does (see ``SinkSelection``).
    case automatic
    /// A `gst-launch` style element or bin description, e.g. `"ximagesink"` or
    /// `"fakesink sync=true"` (built with `gst_parse_bin_from_description`).
    case description(String)
    /// Disable this kind of stream entirely (playbin flags without video/audio).
    case disabled
}

/// Settings fixed when a ``Player`` is created.
public struct PlayerConfiguration: Sendable {
    /// Interval of position reports while playing, in milliseconds. Default 250 (four a second).
    public var positionIntervalMilliseconds: UInt32 = 250
    /// Minimum spacing between executed seeks, in milliseconds. Default 500 (the seed's value).
    public var seekThrottleMilliseconds: UInt32 = 500
    /// Video output.
    public var videoSink: SinkChoice = .automatic
    /// Audio output.
    public var audioSink: SinkChoice = .automatic
    /// Go on from ``PlayerState/ready`` to playing by itself after a load. Default true.
    public var autoplay = true
    /// Allowed playback rates (seed 003: -1…2 for the `.apple` engine). Requests outside get
    /// ``PlayerError/Kind/invalidArgument`` and change nothing.
    public var rateRange: ClosedRange<Double> = -1.0...2.0
    /// Interval of ``PlayerEvent/statistics(_:)`` events in milliseconds; 0 disables them. Default 1000.
    public var statisticsIntervalMilliseconds: UInt32 = 1000
    /// Default seek mode for ``Player/seek(to:mode:)`` callers that do not choose.
    public var defaultSeekMode: SeekMode = .accurate
    /// Keep the audio pitch at rates other than 1 (playbin `audio-filter` = `scaletempo`). Default true.
    public var keepPitch = true
    /// Try `GST_SEEK_FLAG_INSTANT_RATE_CHANGE` (no flush) before a flushing seek when the rate
    /// changes without changing direction. Default true.
    public var instantRateChange = true
    /// Network read timeout (souphttpsrc `timeout`), seconds.
    public var networkTimeoutSeconds: UInt32 = 15
    /// How long a load may take to preroll before it fails with a "could not open" error, in
    /// seconds. nil picks 10 s for local media and max(30 s, 3 × network timeout) for network
    /// URIs. A watchdog rather than trust: decodebin can swallow a demuxer's error posted while
    /// it is still trying that demuxer (GStreamer 1.22), leaving the pipeline waiting forever.
    public var openTimeoutSeconds: UInt32?
    /// When set, delegate methods run on this queue instead of the loop thread.
    public var delegateQueue: DispatchQueue?

    /// The defaults.
    public init() {}
}
