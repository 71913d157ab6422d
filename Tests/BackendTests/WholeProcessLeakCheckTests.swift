@testable import Backend
import Foundation
import XCTest

/// An in-process LeakSanitizer check of the Backend under `make test-asan` (elsewhere the
/// scenarios just run). Named to sort last among BackendTests (tests run in name order), so
/// the check covers every Backend test before it. It runs DURING the test run on purpose: at process exit
/// swift-corelibs-xctest's own objects (every XCTestCase ↔ XCTestCaseRun pair holds the other)
/// are unreachable and LSan would report them and everything the test cases hold, so the
/// Makefile turns the exit-time check off for the test process (`leak_check_at_exit=0`) and this
/// test asks for a check with `__lsan_do_recoverable_leak_check()` after its scenarios. It sees
/// every leak made so far in the process, by this test or any test that ran before it.
/// Tests/lsan.supp applies (GLib/GStreamer internals and two false positives only).
final class WholeProcessLeakCheckTests: XCTestCase {
    private typealias LeakCheck = @convention(c) () -> Int32

    /// `__lsan_do_recoverable_leak_check`, present only when the ASan runtime is linked in.
    private static let leakCheck: LeakCheck? = dlsym(nil, "__lsan_do_recoverable_leak_check").map { unsafeBitCast($0, to: LeakCheck.self) }

    func testBackendScenariosLeakNothing() throws {
        // Playback to the end, then load/play/stop on one player.
        do {
            let delegate = CountingDelegate()
            let player = Player.forTestingWithoutRecorder(delegate)
            player.load(TestMedia.short)
            XCTAssertTrue(delegate.wait("EOS") { $0.endOfStream == 1 })
            player.load(TestMedia.vp8)
            player.seek(to: MediaTime(seconds: 3.5))
            XCTAssertTrue(delegate.wait("EOS after a seek") { $0.endOfStream == 2 })
            player.stop()
            XCTAssertTrue(delegate.wait("idle") { $0.idle >= 1 })
            player.shutdown()
        }
        // Error paths: a missing file, garbage, a malformed location, an HTTP error.
        do {
            let server = try HTTPTestServer()
            defer { server.stop() }
            let delegate = CountingDelegate()
            let player = Player.forTestingWithoutRecorder(delegate)
            for (index, location) in [TestMedia.path("missing.mp4"), TestMedia.garbage, "   ", server.url("/status/404")].enumerated() {
                player.load(location)
                XCTAssertTrue(delegate.wait("error \(index + 1) for \(location)") { $0.errors > index })
            }
            player.shutdown()
        }
        // A delegate that calls back into the player, the AsyncStream, time observers.
        do {
            let delegate = CountingDelegate()
            let player = Player.forTestingWithoutRecorder(delegate)
            let observer = player.addPeriodicTimeObserver(interval: .milliseconds(50)) { _ in _ = player.snapshot }
            let stream = Task { for await event in player.events { if case .endOfStream = event { break } } }
            player.load(TestMedia.vp8)
            XCTAssertTrue(delegate.wait("EOS") { $0.endOfStream == 1 })
            player.removeTimeObserver(observer)
            player.shutdown()
            stream.cancel()
        }
        // shutdown() joined each loop thread after the pipeline reached NULL: nothing is in flight.
        guard let leakCheck = Self.leakCheck else { return } // not an ASan build
        XCTAssertEqual(leakCheck(), 0, "LeakSanitizer found leaks (report on stderr)")
    }
}
