/// The route extension point (``PlaybackRoute``): a feature takes over playback, reports what
/// plays there, and gives it back. **Thread:** loop thread only, like the rest of the context.
public extension FeatureContext {
    /// Hands playback to `route`: `playbin` is held in PAUSED (its position kept as the route's
    /// starting position, ``routePosition``), and from now on play/pause/seek/volume/mute/stop
    /// reach `route`. A route already in place is replaced (without resuming locally). The route
    /// starts playing on its own (a renderer given the URI); it reports with
    /// ``routeReported(playing:position:duration:)``.
    func beginRoute(_ route: any PlaybackRoute) { engine.beginRoute(route) }

    /// Whether a route plays the media (``beginRoute(_:)`` and no ``endRoute(resumeAt:)`` since).
    var isRouted: Bool { engine.routing != nil }

    /// The route's position now (the last report, moved on while it plays), nil when no route
    /// is in place or it has no position yet.
    var routePosition: MediaTime? { engine.routePosition() }

    /// What the route plays now: `playing` (the playhead moves there; nil: unchanged), its
    /// `position` and `duration` (nil: unknown or unchanged). Feeds the state model (a route
    /// that plays makes the state `playing` when the user asked for play), the snapshot's
    /// position, the position ticks (``PlayerConfiguration/positionInterval``) and, when the
    /// local media has no duration, ``PlayerEvent/durationChanged(_:)``. Ignored without a route.
    func routeReported(playing: Bool? = nil, position: MediaTime? = nil, duration: MediaTime? = nil) {
        engine.routeReported(playing: playing, position: position, duration: duration)
    }

    /// The seek the core sent with ``PlaybackRoute/routeSeek(to:)`` landed at `position`:
    /// ``PlayerEvent/seekDone(_:)``, a position event, the state leaves `seeking`.
    func routeSeekDone(at position: MediaTime) { engine.routeSeekDone(at: position) }

    /// The route played the item to its end: the same path as a local end of stream (features'
    /// ``EndOfItemPolicy/endOfStream()`` — the queue moves on — else ``PlayerEvent/endOfStream(position:)``).
    func routeEnded() { engine.routeEnded() }

    /// Takes playback back: `playbin` is released from PAUSED and seeks to `resumeAt` (default:
    /// the route's last position), then plays when the user asked for play. A seek the route had
    /// not answered resolves there. Does nothing without a route.
    func endRoute(resumeAt: MediaTime? = nil) { engine.endRoute(resumeAt: resumeAt) }
}
