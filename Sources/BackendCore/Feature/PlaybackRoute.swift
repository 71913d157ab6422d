/// Something other than the local pipeline that plays the current media — a renderer on the
/// network, say — taking over playback through ``FeatureRoute/begin(_:)``.
///
/// While a route is in place, the player's transport commands (play, pause, seek, volume, mute,
/// stop; next/previous arrive as loads through the queue) reach the route instead of `playbin`,
/// which is held in PAUSED (it still prerolls each new item, so its facts — duration, tags — stay
/// known). The route answers through the context (``FeatureRoute/reported(playing:position:duration:)``,
/// ``FeatureRoute/seekDone(at:)``, ``FeatureRoute/ended()``), and those reports
/// feed the same state model, position ticks and events as local playback: no frontend needs to
/// know where the media plays.
///
/// **Thread:** every method is called on the player's loop thread, from inside a command (the
/// core is in the middle of a handler): start the work and return; report later through the
/// context. Never call back into the context synchronously from here.
public protocol PlaybackRoute: AnyObject {
    /// ``Player/play()`` (also after a seek back from the end).
    func routePlay()
    /// ``Player/pause()``.
    func routePause()
    /// A seek resolved by the core (throttled, clamped to the duration): answer with
    /// ``FeatureRoute/seekDone(at:)`` once it landed (the state stays `seeking` until then).
    func routeSeek(to position: MediaTime)
    /// ``Player/setVolume(_:)`` / ``Player/setMuted(_:)``: the linear volume (0…10, 1 = 100 %) and mute.
    func routeSetVolume(_ volume: Double, muted: Bool)
    /// ``Player/stop()``: the route stays in place; the next load is the route's to play.
    func routeStop()
}

/// What a route last reported (engine-owned; loop thread).
final class RouteState {
    let route: any PlaybackRoute
    /// The position last reported, and when (monotonic ns).
    private(set) var position: MediaTime?
    private var reportedAt: UInt64 = 0
    /// The route reported that it plays (the playhead moves there).
    var playing = false

    init(route: any PlaybackRoute, position: MediaTime?) {
        self.route = route
        self.position = position
        self.reportedAt = Engine.now()
    }

    /// A new load: the old item's position and play state are forgotten until the route reports.
    func forgetMedia() {
        position = nil
        playing = false
    }

    /// Records a reported position at `now`. While playing, a report the moving position is
    /// still within a second of is kept as it is (renderers report whole seconds: taking each
    /// report would make the ticks jump back and forth).
    func report(position: MediaTime, now: UInt64, rate: Double = 1, duration: MediaTime? = nil) {
        if playing, let moving = self.position(now: now, rate: rate, duration: duration),
           moving >= position, moving < position + MediaTime(seconds: 1) { return }
        set(position: position, now: now)
    }

    /// Records a position known exactly (a seek landed), at `now`.
    func set(position: MediaTime, now: UInt64) {
        self.position = position
        reportedAt = now
    }

    /// The position now: the last report, moved on by the time since while the route plays
    /// (the ticks stay smooth between reports), clamped to `duration`.
    func position(now: UInt64, rate: Double, duration: MediaTime?) -> MediaTime? {
        guard let position else { return nil }
        guard playing, now > reportedAt else { return position }
        // At most 1.5 s past a report: a route that stopped reporting does not run away.
        let elapsed = Double(min(now - reportedAt, 1_500_000_000)) * rate
        let moved = MediaTime(nanoseconds: position.nanoseconds + Int64(elapsed))
        return moved.clamped(to: duration)
    }
}
