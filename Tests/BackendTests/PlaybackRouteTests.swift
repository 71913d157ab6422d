@testable import BackendCore
import Backend
import BackendQueue
import CGStreamer
import Synchronization
import TestSupport
import XCTest

/// A route written in the test: a client of the core's ``PlaybackRoute`` protocol that records
/// the commands it gets and reports what the test tells it to. Nothing of GStreamer is replaced:
/// the player, its `playbin` and the fixtures are real.
final class RecordingRoute: PlayerFeature, PlaybackRoute, @unchecked Sendable {
    private let log = Mutex<[String]>([])
    /// Set in attach, read on the loop thread only.
    private(set) var context: FeatureContext?

    func attach(to context: FeatureContext) { self.context = context }
    /// The commands so far, in order.
    var commands: [String] { log.withLock { $0 } }

    func routePlay() { log.withLock { $0.append("play") } }
    func routePause() { log.withLock { $0.append("pause") } }
    func routeSeek(to position: MediaTime) { log.withLock { $0.append("seek \(position.formatted(fractionDigits: 1))") } }
    func routeSetVolume(_ volume: Double, muted: Bool) { log.withLock { $0.append("volume \(volume) \(muted)") } }
    func routeStop() { log.withLock { $0.append("stop") } }
}

/// The core's route extension point: commands go to the route, its reports feed the
/// state model, ticks and events, and ending it resumes `playbin` where the route was.
final class PlaybackRouteTests: XCTestCase {
    private func onLoop(_ player: Player, _ body: @escaping (RecordingRoute, FeatureContext) -> Void) {
        XCTAssertTrue(player.withFeatureAndWait(RecordingRoute.self, body))
    }

    private func pipelineState(_ player: Player) -> GstState {
        var state = GST_STATE_VOID_PENDING
        onLoop(player) { _, context in state = context.media.pipelineState }
        return state
    }

    private func startPlaying(_ player: Player, _ location: String = TestMedia.h264) async throws {
        try await player.waitFor("playing", where: { $0.newState == .playing }) { player.load(location) }
    }

    /// A fake-sink player with `features` and then a new ``RecordingRoute`` (the caller shuts it down).
    private func makePlayer(_ features: [any PlayerFeature] = []) -> (Player, RecordingRoute) {
        let route = RecordingRoute()
        return (Player(configuration: .fakeSinks(), features: features + [route]), route)
    }

    /// Plays ``TestMedia/h264`` locally, then begins the route at `seconds` (``beginRoute(_:playingAt:)``).
    private func playRouted(_ player: Player, at seconds: Double) async throws {
        try await startPlaying(player)
        beginRoute(player, playingAt: seconds)
    }

    /// Begins the route on the loop thread, the route reporting it plays at `seconds`.
    private func beginRoute(_ player: Player, playingAt seconds: Double) {
        onLoop(player) { route, context in
            context.route.begin(route)
            context.route.reported(playing: true, position: MediaTime(seconds: seconds), duration: nil)
        }
    }

    func testARouteTakesTheCommandsAndItsReportsFeedTheStateModel() async throws {
        let (player, route) = makePlayer()
        defer { player.shutdown() }
        try await startPlaying(player)
        // The route starts at 6 s (the local playhead is near 0): positions come from the route.
        let routed = try await player.waitForValue("a position from the route", { event -> MediaTime? in
            guard let position = event.position, position >= MediaTime(seconds: 6) else { return nil }
            return position
        }, after: {
            beginRoute(player, playingAt: 6)
        })
        XCTAssertLessThan(routed.seconds, 7.6)
        XCTAssertTrue(eventually { self.pipelineState(player) == GST_STATE_PAUSED }, "playbin is held in PAUSED while routed")
        var isRouted = false
        onLoop(player) { _, context in isRouted = context.route.isActive }
        XCTAssertTrue(isRouted)

        try await player.waitFor("paused", where: { $0.newState == .paused }) { player.pause() }
        XCTAssertEqual(route.commands.last, "pause")
        try await player.waitFor("playing", where: { $0.newState == .playing }) { player.play() }
        XCTAssertEqual(route.commands.last, "play")
        try await player.waitFor("volume", where: { if case .volumeChanged(0.5, false) = $0 { return true } else { return false } }) {
            player.setVolume(0.5)
        }
        XCTAssertEqual(route.commands.last, "volume 0.5 false")

        // A seek goes to the route and stays `seeking` until the route says where it landed.
        try await player.waitFor("seeking", where: { $0.newState == .seeking }) { player.seek(to: MediaTime(seconds: 8)) }
        XCTAssertEqual(route.commands.last, "seek 0:00:08.0")
        let landed = try await player.waitForValue("seek done", { $0.seekDone }) {
            onLoop(player) { _, context in context.route.seekDone(at: MediaTime(seconds: 8)) }
        }
        XCTAssertEqual(landed, MediaTime(seconds: 8))
        XCTAssertEqual(player.snapshot.state, .playing)
        var local: MediaTime?
        var asked: MediaTime?
        onLoop(player) { _, context in
            local = context.engine.pipeline?.queryPosition()
            asked = context.media.queryPosition()
        }
        XCTAssertLessThan(local?.seconds ?? 0, 3, "playbin did not move while the route played")
        XCTAssertEqual(asked?.seconds ?? 0, 8, accuracy: 0.5, "a feature asking the position gets the route's")
        XCTAssertEqual(pipelineState(player), GST_STATE_PAUSED)
    }

    func testEndingTheRouteResumesLocallyAtTheRoutesPosition() async throws {
        let (player, route) = makePlayer()
        defer { player.shutdown() }
        try await playRouted(player, at: 7)
        XCTAssertTrue(eventually { self.pipelineState(player) == GST_STATE_PAUSED })
        let resumed = try await player.waitForValue("a local position at 7 s", { event -> MediaTime? in
            guard let position = event.position, position >= MediaTime(seconds: 7) else { return nil }
            return position
        }, after: { onLoop(player) { _, context in context.route.end() } })
        XCTAssertLessThan(resumed.seconds, 8.6)
        XCTAssertTrue(eventually { self.pipelineState(player) == GST_STATE_PLAYING }, "playbin plays again")
        let before = route.commands.count
        try await player.waitFor("paused", where: { $0.newState == .paused }) { player.pause() }
        XCTAssertEqual(route.commands.count, before, "an ended route gets no more commands")
        XCTAssertTrue(eventually { self.pipelineState(player) == GST_STATE_PAUSED })
    }

    func testTheRoutesEndOfItemTakesTheEndOfStreamPath() async throws {
        let (player, _) = makePlayer()
        defer { player.shutdown() }
        try await playRouted(player, at: 9.5)
        let end = try await player.waitForValue("end of stream", { event -> MediaTime? in
            if case .endOfStream(let position) = event { return position } else { return nil }
        }, after: { onLoop(player) { _, context in context.route.ended() } })
        XCTAssertGreaterThanOrEqual(end.seconds, 9.5)
        XCTAssertLessThan(end.seconds, 10.5)
        XCTAssertEqual(player.snapshot.state, .ended)
    }

    func testAQueueMovesOnWhenTheRouteEndsAnItemAndTheNextItemStaysRouted() async throws {
        let (player, _) = makePlayer([QueueFeature()])
        defer { player.shutdown() }
        let second = FileURI.uri(forPath: TestMedia.theora)!
        try await player.waitFor("playing", where: { $0.newState == .playing }) {
            try? player.setQueue([QueueItem(uri: FileURI.uri(forPath: TestMedia.vp8)!), QueueItem(uri: second)])
        }
        beginRoute(player, playingAt: 3.9)
        try await player.waitFor("the second item's media info", where: { event in
            if case .mediaInfo(let info) = event { return info.uri == second } else { return false }
        }) { onLoop(player) { _, context in context.route.ended() } }
        XCTAssertTrue(eventually { self.pipelineState(player) == GST_STATE_PAUSED }, "the next item prerolls, held in PAUSED")
        XCTAssertNotEqual(player.snapshot.state, .playing, "not playing before the route says so")
        try await player.waitFor("playing", where: { $0.newState == .playing }) {
            onLoop(player) { _, context in context.route.reported(playing: true, position: .zero) }
        }
        XCTAssertEqual(pipelineState(player), GST_STATE_PAUSED)
    }

    func testARateChangeWhileRoutedIsRefusedWithAWarning() async throws {
        let (player, route) = makePlayer()
        defer { player.shutdown() }
        try await playRouted(player, at: 3)
        let later = player.events
        let warning = try await player.waitForValue("a warning", { event -> PlayerError? in
            if case .warning(let error) = event { return error } else { return nil }
        }, after: {
            try? player.setRate(1.5)
            XCTAssertEqual(player.snapshot.rate, 1.5, "the setter's value is read back at once")
        })
        XCTAssertEqual(warning.message, "the playback route plays at normal speed: rate 1.5 not applied")
        XCTAssertEqual(player.snapshot.rate, 1, "the refusal puts back the rate that plays")
        var reported: Double?
        var others = 0
        for await event in later {    // raised right after the warning, in the same handler
            if case .rateChanged(let rate) = event { reported = rate; break }
            others += 1
            if others > 200 { break }
        }
        XCTAssertEqual(reported, 1, "rateChanged reports the rate that plays, to every door")
        XCTAssertFalse(route.commands.contains { $0.hasPrefix("seek") }, "no seek sent to the route: \(route.commands)")
    }
}
