import CGStreamer

/// The media's facts as the core knows them, and the few a feature may add (``FeatureContext/media``).
/// **Thread:** loop thread.
public struct FeatureMedia {
    unowned let context: FeatureContext
    private var engine: Engine { context.engine }

    /// The URI playing (the original one, before resolvers replaced it), nil when none.
    public var uri: String? { engine.facts.uri }
    /// The duration, nil while unknown or live.
    public var duration: MediaTime? { engine.facts.duration }
    /// The source is live (no preroll), or a feature marked it live (``markLive()``).
    public var isLive: Bool { engine.facts.isLive || engine.facts.isLiveWindow }
    /// The explicit state.
    public var state: PlayerState { engine.playback.state }
    /// The playback rate (kept across loads).
    public var rate: Double { engine.playback.rate }
    /// The pipeline's current state (`GST_STATE_CHANGED` of playbin).
    public var pipelineState: GstState { engine.pipeline?.state ?? GST_STATE_NULL }
    /// The last buffering level the core acted on, nil before any.
    public var lastBufferingPercent: Int? { engine.facts.lastBufferingPercent }
    /// The status code of the last HTTP response of the media's source, nil before any.
    public var lastHTTPStatus: Int? { engine.facts.lastHTTPStatus }
    /// The target of the last HTTP redirect the core followed for this load, nil before any: an
    /// `http-headers` message about another URI is a late answer to an earlier hop (the core
    /// ignores it; interceptors see bus messages first).
    public var redirectTarget: String? { engine.facts.redirects.last }
    /// A seek waits for preroll (the start position, say).
    public var hasPendingSeek: Bool { engine.seeks.pending != nil }
    /// The start position of the load being decided, during ``URIResolver/resolve(_:)`` (nil
    /// otherwise): a resolver that answers ``LoadDecision/wait`` passes it to ``FeatureTransport/load(_:start:)``.
    public var loadingStart: StartPosition? { context.loadingStart }

    /// The position from a pipeline query (`gst_element_query_position`), nil when unknown;
    /// while a route plays the media (``FeatureRoute/begin(_:)``), the route's position instead
    /// (the pipeline is held where the route began): what MPRIS's `Position` answers while casting.
    public func queryPosition() -> MediaTime? {
        if engine.routing != nil { return engine.routePosition() }
        return engine.pipeline?.queryPosition()
    }

    /// The seekable range in stream time (`GST_QUERY_SEEKING` on playbin, or the window a feature
    /// read, ``updateLiveWindow(_:)``), nil when the media cannot seek: a live stream's DVR
    /// window, which seeks land in after ``markLive()``.
    public func seekableWindow() -> ClosedRange<MediaTime>? { engine.liveWindow() }

    /// Marks the media live although it prerolled (a sliding-window playlist): no duration, and
    /// seeks land inside the seekable window (`GST_QUERY_SEEKING`).
    public func markLive() {
        engine.facts.isLiveWindow = true
        engine.hub.updateSnapshot { $0.isLive = true }
    }

    /// The live stream's seekable window (stream time) as the feature last read it off the loop
    /// thread, nil when it could not seek: seeks in the live window (after ``markLive()``), and
    /// ``seekableWindow()``, resolve against it instead of asking `playbin` on the loop thread
    /// (`GST_QUERY_SEEKING`, which 1.22's adaptive demuxers answer under the lock their playlist
    /// refresh holds while it downloads: in an outage the loop thread waited until the request
    /// gave up). Forgotten with the media.
    public func updateLiveWindow(_ window: ClosedRange<MediaTime>?) {
        engine.facts.liveWindowRead = window
        engine.facts.liveWindowProvided = true
    }
}
