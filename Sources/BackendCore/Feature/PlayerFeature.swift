import CGStreamer

/// A capability that plugs into the player core: the play queue, the media cache, tracks and
/// subtitles, adaptive streaming, the video window, thumbnails… (GStreamer's Clapper calls them
/// features; its core knows none of them by name, and neither does this one).
///
/// The core calls every feature, in the order they were given to ``Player``, at fixed points of
/// the life of a load. Every call has a default that does nothing, so a feature implements only
/// what it needs. A feature talks back only through the ``FeatureContext`` it gets in
/// ``attach(to:)`` — publish, load, seek, the pipeline, timers — never through the engine.
///
/// **Thread:** every method runs on the player's loop thread, after the previous call returned
/// (never re-entered). A feature's own public API (a `Player` extension) queues its work there
/// with ``Player/withFeature(_:_:)``. `Sendable` because ``Player`` (any thread) holds it; its
/// mutable state must be touched on the loop thread only (or behind its own lock).
public protocol PlayerFeature: AnyObject, Sendable {
    /// Called once when the player is created, after `playbin` and its sinks exist and before the
    /// bus is watched: connect signals here (``FeatureContext/track(handler:on:)``), keep `context`.
    func attach(to context: FeatureContext)

    /// Player shutdown (and after an init failure): release what the feature holds. The core then
    /// disconnects tracked handlers, removes the bus watch and sets the pipeline to NULL.
    func teardown()

    /// Before a URI is given to `playbin`. Return ``LoadDecision/play(_:)`` with `uri` or a
    /// replacement (a cached copy, say), ``LoadDecision/wait`` when the feature will call
    /// ``FeatureContext/load(_:start:)`` again itself later (after a revalidation request), or
    /// ``LoadDecision/refuse(_:)`` to fail the load. Features are asked in order; each sees the
    /// URI the previous one chose.
    func willLoad(_ uri: String) -> LoadDecision

    /// A new load (or a stop) replaced the media: forget everything about the old one. `uri` is
    /// the new media's URI, nil on stop.
    func resetForNewMedia(uri: String?)

    /// The load of `uri` (the original URI, before features replaced it) is about to preroll:
    /// `playbin` is in READY with its new `uri` set and goes to PAUSED right after. The place for
    /// `playbin` properties that belong to one media, such as `suburi`: playbin keeps them per
    /// source group and swaps its groups on the way down to READY, so a value set before that
    /// (in ``resetForNewMedia(uri:)``) would stay with the old media. Not called for a load
    /// that failed before it began.
    func willPreroll(uri: String)

    /// A bus message of the current media (older ones are dropped by the core first). Return
    /// ``MessageDisposition/consumed`` to keep it from the features after this one and from the
    /// core's own handling. `message` is borrowed: ref it to keep it.
    func handle(message: UnsafeMutablePointer<GstMessage>) -> MessageDisposition

    /// The first preroll of a load: facts (duration, size, liveness) are known, the start seek
    /// has not run yet.
    func prerolled()

    /// Every event as it is published (the core's and every feature's, this one's included):
    /// state changes, positions, buffering levels, seeks landed, media size… For bookkeeping
    /// only: the event is not delivered yet, so act on it through the context later (a timer,
    /// ``FeatureContext/runOnLoop(_:)``), never by loading or seeking from here. An event the
    /// feature publishes from here is queued after `event` (the media cache's verdict follows
    /// the `uriLoaded` of the load it decided).
    func observe(_ event: PlayerEvent)

    /// A flushing seek to `position` is about to be sent to `playbin` (`gst_element_send_event`):
    /// every seek the core issues — the user's, a rate change's, a feature's — also one issued
    /// while another is still in flight (the state then stays ``PlayerState/seeking`` and no
    /// ``PlayerEvent/stateChanged(from:to:)`` follows). Data from before it is stale: drop what
    /// the feature holds for the old position (the tracks feature's held subtitle cues).
    func seekIssued(to position: MediaTime)

    /// Playback stopped for good for this media: end of stream, stop, error, a new load or
    /// teardown. Called before the pipeline leaves PAUSED (downloaded data is still there).
    func finished()

    /// End of stream of the current media. ``EndDisposition/proceed`` lets the next feature and
    /// then the core report it; any other answer means this feature acted on it.
    func endOfStream() -> EndDisposition

    /// A fatal error of the current media. ``EndDisposition/proceed`` lets the next feature and
    /// then the core fail the player with it; any other answer means this feature acted on it.
    func failed(with error: PlayerError) -> EndDisposition

    /// Adds the feature's part of the statistics (``PlayerStatistics/features``), on every
    /// statistics tick and refresh.
    func contributeStatistics(to sections: inout FeatureSections)

    /// Adds the feature's part of the media info published after preroll (``MediaInfo/features``).
    func contributeMediaInfo(to sections: inout FeatureSections)
}

/// What a feature wants done with a URI about to be loaded (``PlayerFeature/willLoad(_:)``).
public enum LoadDecision: Sendable, Hashable {
    /// Go on with this URI (the same, or a replacement such as a cached file's `file://` URI).
    case play(String)
    /// Do nothing now: the feature loads again itself (``FeatureContext/load(_:start:)``) later.
    case wait
    /// Fail the load with this error.
    case refuse(PlayerError)
}

/// Whether the features after this one and the core still see a bus message.
public enum MessageDisposition: Sendable, Hashable {
    /// Not this feature's, or only observed: pass it on.
    case proceed
    /// Handled here: nobody after this feature sees it.
    case consumed
}

/// A feature's answer to the end of the media or to its failure.
public enum EndDisposition: Sendable, Hashable {
    /// Not this feature's business: the next feature, then the core, decide.
    case proceed
    /// The feature moved on to other media (the next queue item, for instance).
    case advance
    /// The feature is trying the same media again (a reload after a network failure).
    case retry
    /// The feature stopped playback; the core reports nothing further.
    case stop
}

public extension PlayerFeature {
    /// Does nothing.
    func attach(to context: FeatureContext) {}
    /// Does nothing.
    func teardown() {}
    /// Plays `uri` unchanged.
    func willLoad(_ uri: String) -> LoadDecision { .play(uri) }
    /// Does nothing.
    func resetForNewMedia(uri: String?) {}
    /// Does nothing.
    func willPreroll(uri: String) {}
    /// Passes the message on.
    func handle(message: UnsafeMutablePointer<GstMessage>) -> MessageDisposition { .proceed }
    /// Does nothing.
    func prerolled() {}
    /// Does nothing.
    func observe(_ event: PlayerEvent) {}
    /// Does nothing.
    func seekIssued(to position: MediaTime) {}
    /// Does nothing.
    func finished() {}
    /// Leaves the end of stream to others.
    func endOfStream() -> EndDisposition { .proceed }
    /// Leaves the error to others.
    func failed(with error: PlayerError) -> EndDisposition { .proceed }
    /// Adds nothing.
    func contributeStatistics(to sections: inout FeatureSections) {}
    /// Adds nothing.
    func contributeMediaInfo(to sections: inout FeatureSections) {}
}
