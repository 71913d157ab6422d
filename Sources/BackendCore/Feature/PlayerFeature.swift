import CGStreamer

/// A capability that plugs into the player core: the play queue, the media cache, tracks and
/// subtitles, adaptive streaming, the video window, thumbnails… (GStreamer's Clapper calls them
/// features; its core knows none of them by name, and neither does this one).
///
/// A feature observes: the core notifies every feature, in the order they were given to
/// ``Player``, at fixed points of the life of a load, and no notification returns anything, so
/// that order never changes what happens. Every notification has a default that does nothing.
/// A feature that must change what the core does registers at a named extension point from
/// ``attach(to:)``, each with one owner or an explicit ``ExtensionOrder``: URI resolution
/// (``FeatureContext/provideURIResolver(_:order:)``), the video filter and overlay slots
/// (``FeatureVideo/addFilter(_:order:)``), the playback route
/// (``FeatureRoute/begin(_:)``), the end-of-item policy
/// (``FeatureContext/provideEndOfItemPolicy(_:)``) and bus message interception
/// (``FeatureContext/interceptMessages(_:order:)``). A feature talks back only through the
/// ``FeatureContext`` it gets in ``attach(to:)`` — publish, load, seek, timers — never through
/// the engine.
///
/// **Thread:** every method runs on the player's loop thread, after the previous call returned
/// (never re-entered). A feature's own public API (a `Player` extension) queues its work there
/// with ``Player/withFeature(_:_:)``. Not `Sendable`: a feature belongs to its player's loop
/// thread (``Player`` holds it through a ``LoopConfined`` handle), so its state needs no lock;
/// another thread reaches it through a handle too (``FeatureContext/confine(_:)``). Its type is
/// `Sendable` (`SendableMetatype`), so ``Player/hasFeature(_:)`` answers on any thread.
public protocol PlayerFeature: AnyObject, SendableMetatype {
    /// Called once when the player is created, after `playbin` and its sinks exist and before the
    /// bus is watched: connect signals here (``FeatureLoop/track(handler:on:)``), keep `context`.
    func attach(to context: FeatureContext)

    /// Player shutdown (and after an init failure): release what the feature holds. The core then
    /// disconnects tracked handlers, removes the bus watch and sets the pipeline to NULL.
    func teardown()

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

    /// A bus message of the current media that no interceptor consumed (older ones are dropped
    /// by the core first), before the core's own handling. For reading only (tags, a table of
    /// contents); a feature that must keep a message from the core registers a
    /// ``MessageInterceptor``. `message` is borrowed: ref it to keep it.
    func observe(message: UnsafeMutablePointer<GstMessage>)

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

    /// Adds the feature's part of the statistics (``PlayerStatistics/features``), on every
    /// statistics tick and refresh.
    func contributeStatistics(to sections: inout FeatureSections)

    /// Adds the feature's part of the media info published after preroll (``MediaInfo/features``).
    func contributeMediaInfo(to sections: inout FeatureSections)
}

public extension PlayerFeature {
    /// Does nothing.
    func attach(to context: FeatureContext) {}
    /// Does nothing.
    func teardown() {}
    /// Does nothing.
    func resetForNewMedia(uri: String?) {}
    /// Does nothing.
    func willPreroll(uri: String) {}
    /// Does nothing.
    func observe(message: UnsafeMutablePointer<GstMessage>) {}
    /// Does nothing.
    func prerolled() {}
    /// Does nothing.
    func observe(_ event: PlayerEvent) {}
    /// Does nothing.
    func seekIssued(to position: MediaTime) {}
    /// Does nothing.
    func finished() {}
    /// Adds nothing.
    func contributeStatistics(to sections: inout FeatureSections) {}
    /// Adds nothing.
    func contributeMediaInfo(to sections: inout FeatureSections) {}
}
