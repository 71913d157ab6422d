@testable import BackendCore
import Backend
import Foundation
import ProcessProbe
import TestSupport
import XCTest

/// Whole player lifecycles leave nothing behind: after a warm-up round of the scenarios
/// (playback to the end, error paths, a delegate that calls back, the AsyncStream and time
/// observers), further rounds must bring this process's threads, `gstplay-loop` threads and
/// open descriptors back to the baseline (read from `/proc` with ``ProcessProbe``). That holds
/// in every build and in any test order: it compares the process with itself.
///
/// Under `make test-asan` it also asks LeakSanitizer for a check DURING the run
/// (`__lsan_do_recoverable_leak_check()`): at process exit swift-corelibs-xctest's own objects
/// (every XCTestCase ↔ XCTestCaseRun pair holds the other) are unreachable and LSan would report
/// them, so the Makefile turns the exit-time check off (`leak_check_at_exit=0`). That check sees
/// every leak made so far in the process — these scenarios' and those of any test that ran
/// before. Tests/lsan.supp applies (GLib/GStreamer internals and two false positives only).
final class WholeProcessLeakCheckTests: XCTestCase {
    private typealias LeakCheck = @convention(c) () -> Int32

    /// `__lsan_do_recoverable_leak_check`, present only when the ASan runtime is linked in.
    private static let leakCheck: LeakCheck? = dlsym(nil, "__lsan_do_recoverable_leak_check").map { unsafeBitCast($0, to: LeakCheck.self) }

    /// Rounds after the warm-up; each makes and shuts down three players, so one thread or
    /// descriptor kept per player exceeds `ResourceBaseline`'s tolerances many times over.
    private static let rounds = 4

    /// This process's `gstplay-loop` threads (one per live player).
    private static func loopThreads() -> Int {
        let probe = ProcessProbe.current
        return (probe.threadIDs ?? []).filter { probe.threadName($0) == "gstplay-loop" }.count
    }

    func testPlayerLifecyclesLeaveNoThreadsDescriptorsOrLeaks() async throws {
        let server = try HTTPTestServer()
        defer { server.stop() }
        try await scenarios(server) // warm-up: registry, plugins, GStreamer's and GLib's pools
        let baseline = ResourceBaseline()
        let loopsBefore = Self.loopThreads()
        for _ in 0..<Self.rounds { try await scenarios(server) }
        // shutdown() joined each loop thread; pool threads of GStreamer/GLib may take a while to retire.
        let after = baseline.assertSettled(after: "\(Self.rounds) rounds")
        XCTAssertEqual(Self.loopThreads(), loopsBefore, "every player's loop thread ended: baseline \(baseline.counts), after \(after)")
        guard let leakCheck = Self.leakCheck else { return } // not an ASan build
        XCTAssertEqual(leakCheck(), 0, "LeakSanitizer found leaks (report on stderr)")
    }

    /// One round: three players, each shut down at the end.
    private func scenarios(_ server: HTTPTestServer) async throws {
        // Playback to the end, then load/seek/stop on one player.
        do {
            let player = Player.forTesting(sync: false)
            try await player.waitFor("EOS", where: \.isEndOfStream) { player.load(TestMedia.short) }
            try await player.waitFor("EOS after a seek", where: \.isEndOfStream) {
                player.load(TestMedia.vp8)
                player.seek(to: MediaTime(seconds: 3.5))
            }
            try await player.waitFor("idle", where: { $0.newState == .idle }) { player.stop() }
            player.shutdown()
        }
        // Error paths: a missing file, garbage, a malformed location, an HTTP error.
        do {
            let player = Player.forTesting(sync: false)
            for location in [TestMedia.path("missing.mp4"), TestMedia.garbage, "   ", server.url("/status/404")] {
                try await player.waitFor("error for \(location)", where: { $0.error != nil }) { player.load(location) }
            }
            player.shutdown()
        }
        // A delegate that calls back into the player, a second AsyncStream, a time observer.
        do {
            let delegate = CallingBack()
            let player = Player.forTesting(delegate, sync: false)
            let observer = player.addPeriodicTimeObserver(interval: .milliseconds(50)) { _ in _ = player.snapshot }
            let stream = Task { for await event in player.events { if case .endOfStream = event { break } } }
            try await player.waitFor("EOS", where: \.isEndOfStream) { player.load(TestMedia.vp8) }
            player.removeTimeObserver(observer)
            player.shutdown()
            await stream.value
        }
    }

    /// Reads the player's snapshot and statistics from inside each callback (loop thread).
    private final class CallingBack: PlayerDelegate, Sendable {
        func player(_ player: Player, didReceive event: PlayerEvent) {
            _ = player.snapshot
            if case .stateChanged(_, .playing) = event { player.setVolume(0.5) }
        }
    }
}
