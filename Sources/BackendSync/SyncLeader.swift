import BackendCore
import CGStreamer

/// The leader's side of ``SyncFeature``: its pipeline runs on the system clock (monotonic, the
/// clock ``SyncServer`` serves) with the group's fixed latency and picks its own base times as
/// usual; after every change (play, pause, seek, rate, another item, stop) it turns its base time
/// and its segment into a ``SyncSession`` and publishes it. A seek or a pause is never waited on:
/// the session is published once the pipeline settled (no state change pending, no seek in
/// flight), and the 250 ms tick catches a change no event announced.
///
/// **Thread:** loop thread.
final class SyncLeader: SyncPart {
    private let context: FeatureContext
    private let timing: FeaturePipeline
    private let segments: SegmentWatch
    private let server: SyncServer
    private let endpoint: SyncEndpoint
    private let latency: UInt64
    private let sessionID = AccessTokenText.random()
    private var generation = 0
    private var published: SyncSession?

    init(context: FeatureContext, timing: FeaturePipeline, segments: SegmentWatch, server: SyncServer, endpoint: SyncEndpoint,
         latency: Duration) {
        self.context = context
        self.timing = timing
        self.segments = segments
        self.server = server
        self.endpoint = endpoint
        self.latency = UInt64(latency.nanoseconds)
    }

    func start() {
        timing.useClock(server.clock)
        timing.setLatency(nanoseconds: latency)
        publish(stopped())
        context.publish(SyncEvent.serving(url: "\(server.http.baseURL)/sync/session", clockPort: server.port))
        updateSnapshot()
    }

    func stop() {}

    func tick() {
        changed()
    }

    func changed(by event: PlayerEvent) {
        changed()
    }

    func mediaChanged(uri: String?) {}

    /// Publishes the session the pipeline stands for now, when it settled and differs.
    func changed() {
        if let session = currentSession(), published.map({ !$0.samePlayback(as: session) }) ?? true {
            publish(session)
        }
        updateSnapshot()
    }

    private func publish(_ session: SyncSession) {
        generation += 1
        var session = session
        session.generation = generation
        published = session
        server.publish(session)
        context.trace("sync: published \(session.json)")
    }

    /// The session now, nil while the pipeline is between states (a seek, a preroll, buffering).
    private func currentSession() -> SyncSession? {
        let snapshot = context.snapshot
        switch snapshot.state {
        case .idle, .ended, .error, .stopping, .ready:
            return stopped()
        case .opening, .seeking, .buffering:
            return nil
        case .playing, .paused:
            break
        }
        let progress = context.progress
        guard !progress.seeking, let uri = snapshot.uri, let mapping = segments.mapping, let state = timing.settledState else { return nil }
        let place = queuePlace(in: snapshot)
        var session = SyncSession(session: sessionID, generation: 0, uri: server.followerURI(for: uri), state: .paused,
                                  rate: mapping.rate, baseTime: 0, positionAtBase: 0, latency: latency, clockPort: server.port,
                                  playlistIndex: place.index, itemID: place.id)
        switch state {
        case GST_STATE_PLAYING:
            session.state = .playing
            session.baseTime = timing.baseTime &+ mapping.runningTime
            session.positionAtBase = mapping.streamPosition
        case GST_STATE_PAUSED:
            session.positionAtBase = mapping.position(atRunningTime: timing.startTime)
        default:
            return nil
        }
        return session
    }

    private func stopped() -> SyncSession {
        SyncSession(session: sessionID, generation: 0, uri: nil, state: .stopped, rate: 1, baseTime: 0, positionAtBase: 0,
                    latency: latency, clockPort: server.port)
    }

    private func updateSnapshot() {
        var section = SyncSnapshot(role: "leader", leader: endpoint.description, locked: true)
        section.session = published
        if let (clock, position, monotonic) = timelinePoint(clock: server.clock, timing: timing, segments: segments) {
            section.clockTime = clock
            section.positionAtClock = position
            section.monotonicTime = monotonic
        }
        context.updateSnapshot(section)
    }
}

/// A random session name (16 hex digits).
enum AccessTokenText {
    static func random() -> String {
        (0..<16).map { _ in String(UInt8.random(in: 0..<16), radix: 16) }.joined()
    }
}

extension Duration {
    /// The duration in whole nanoseconds (clamped at 0).
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return max(0, seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
