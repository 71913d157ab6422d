/// The route extension point (``PlaybackRoute``, ``FeatureContext/route``): a feature takes over
/// playback, reports what plays there, and gives it back. **Thread:** loop thread only.
public struct FeatureRoute {
    unowned let context: FeatureContext
    private var engine: Engine { context.engine }

    /// Hands playback to `route`: `playbin` is held in PAUSED (its position kept as the route's
    /// starting position, ``position``), and from now on play/pause/seek/volume/mute/stop reach
    /// `route`. A route already in place is replaced (without resuming locally). The route starts
    /// playing on its own (a renderer given the URI); it reports with
    /// ``reported(playing:position:duration:)``.
    public func begin(_ route: any PlaybackRoute) { engine.beginRoute(route) }

    /// Whether a route plays the media (``begin(_:)`` and no ``end(resumeAt:)`` since).
    public var isActive: Bool { engine.routing != nil }

    /// The route's position now (the last report, moved on while it plays), nil when no route
    /// is in place or it has no position yet.
    public var position: MediaTime? { engine.routePosition() }

    /// What the route plays now: `playing` (the playhead moves there; nil: unchanged), its
    /// `position` and `duration` (nil: unknown or unchanged). Feeds the state model (a route
    /// that plays makes the state `playing` when the user asked for play), the snapshot's
    /// position, the position ticks (``PlayerConfiguration/positionInterval``) and, when the
    /// local media has no duration, ``PlayerEvent/durationChanged(_:)``. Ignored without a route.
    public func reported(playing: Bool? = nil, position: MediaTime? = nil, duration: MediaTime? = nil) {
        engine.routeReported(playing: playing, position: position, duration: duration)
    }

    /// The seek the core sent with ``PlaybackRoute/routeSeek(to:)`` landed at `position`:
    /// ``PlayerEvent/seekDone(_:)``, a position event, the state leaves `seeking`.
    public func seekDone(at position: MediaTime) { engine.routeSeekDone(at: position) }

    /// The route played the item to its end: the same path as a local end of stream (the
    /// ``EndOfItemPolicy`` — the queue moves on — else ``PlayerEvent/endOfStream(position:)``).
    public func ended() { engine.routeEnded() }

    /// Takes playback back: `playbin` is released from PAUSED and seeks to `resumeAt` (default:
    /// the route's last position), then plays when the user asked for play. A seek the route had
    /// not answered resolves there. Does nothing without a route.
    public func end(resumeAt: MediaTime? = nil) { engine.endRoute(resumeAt: resumeAt) }
}
