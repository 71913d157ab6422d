@testable import BackendCore
import Backend
import CGStreamer
import Foundation
import TestSupport
import XCTest

/// Bad input reaches the delegate as one clear structured error (or warning), the player stays
/// usable, and nothing hangs: every case has a time limit.
final class HostileInputTests: XCTestCase {
    private func firstError(loading location: String, timeout: TimeInterval = 10, file: StaticString = #filePath, line: UInt = #line) -> (PlayerError?, Player, EventRecorder) {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder, sync: false) { $0.openTimeout = .seconds(3) }
        player.load(location)
        let error = recorder.waitForValue("error for \(location)", timeout: timeout, file: file, line: line) { $0.error }
        return (error, player, recorder)
    }

    func testCorpusOfBadFiles() {
        let cases: [(String, String, String)] = [
            (TestMedia.empty, "typefind", "no data"),
            (TestMedia.garbage, "typefind", "Could not determine type of stream"),
            (TestMedia.noMoov, "qtdemux0", "no playable streams"),
            (TestMedia.root.appendingPathComponent("Fixtures").path, "source", "is a directory"),
            ("/nonexistent/missing.mp4", "source", "not found"),
            ("foo://bar/x", "uridecodebin0", "No URI handler implemented for \"foo\""),
            // Refused before loading (no element): souphttpsrc would log libsoup criticals and
            // the network error would be retried.
            ("http://[::1", "", "malformed URI 'http://[::1': Invalid IPv6 address"),
        ]
        for (location, element, text) in cases {
            let (error, player, recorder) = firstError(loading: location)
            if location == TestMedia.noMoov, error?.element == "playbin" {
                // decodebin sometimes swallows qtdemux's error (a GStreamer 1.22 race); the open
                // watchdog must then turn the stuck preroll into an error.
                XCTAssertTrue(error?.message.contains("no stream became playable") ?? false, error?.message ?? "")
            } else {
                XCTAssertEqual((error?.element ?? "").trimmingCharacters(in: .decimalDigits), element.trimmingCharacters(in: .decimalDigits), location)
                XCTAssertTrue(error?.message.localizedCaseInsensitiveContains(text) ?? false, "\(location): \(error?.message ?? "no error")")
            }
            XCTAssertEqual(player.state, .error, location)
            XCTAssertEqual(recorder.events.compactMap(\.error).count, 1, "exactly one error for \(location)")
            // Still usable afterwards.
            player.load(TestMedia.short)
            recorder.waitFor("EOS after \(location)") { $0.contains(where: \.isEndOfStream) }
            player.shutdown()
        }
    }

    func testOpenWatchdogFailsAPrerollThatNeverEnds() {
        // A live-less source that never produces data: preroll cannot complete.
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder) { $0.openTimeout = .seconds(1) }
        defer { player.shutdown() }
        let server = try? HTTPTestServer()
        defer { server?.stop() }
        guard let server else { return XCTFail("no HTTP server") }
        player.load(server.url("/stall/vp8-opus-4s.webm?after=0"))
        let error = recorder.waitForValue("watchdog error", timeout: 8) { $0.error }
        XCTAssertTrue(error?.message.contains("could not open the media within 1 s") ?? false, String(describing: error))
        XCTAssertEqual(player.state, .error)
    }

    func testTruncatedFilePlaysWhatIsThereAndWarns() {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder, sync: false)
        defer { player.shutdown() }
        player.load(TestMedia.truncated)
        recorder.waitFor("EOS") { $0.contains(where: \.isEndOfStream) }
        guard case .endOfStream(let final)? = recorder.events.last(where: \.isEndOfStream) else { return XCTFail() }
        XCTAssertLessThan(final.seconds, 6, "the final position is what was rendered")
        XCTAssertGreaterThan(final.seconds, 2)
        XCTAssertTrue(recorder.events.contains { if case .warning(let w) = $0 { return w.message.contains("truncated") } else { return false } })
    }

    func testMissingVideoDecoderWarnsAndAudioGoesOn() {
        withRanksLowered(["avdec_h264", "openh264dec"]) {
            let recorder = EventRecorder()
            let player = Player.forTesting(recorder, sync: false)
            defer { player.shutdown() }
            player.load(TestMedia.h264)
            recorder.waitFor("EOS") { $0.contains(where: \.isEndOfStream) || $0.contains { $0.error != nil } }
            let warnings = recorder.events.compactMap { e -> PlayerError? in if case .warning(let w) = e, w.kind == .missingPlugin { return w } else { return nil } }
            XCTAssertEqual(warnings.first?.missingPlugins.first?.contains("H.264"), true, "\(warnings)")
            XCTAssertTrue(recorder.events.contains(where: \.isEndOfStream), "audio still plays to the end")
        }
    }

    func testNoDecoderAtAllIsAMissingPluginError() {
        withRanksLowered(["avdec_h264", "openh264dec", "avdec_aac", "avdec_aac_fixed", "faad", "fdkaacdec", "avdec_aac_latm"]) {
            let (error, player, _) = firstError(loading: TestMedia.h264)
            defer { player.shutdown() }
            XCTAssertEqual(error?.kind, .missingPlugin)
            XCTAssertFalse(error?.missingPlugins.isEmpty ?? true, "names the missing decoders: \(String(describing: error))")
        }
    }

    func testAbsurdSeekTargetsAreClampedOrIgnoredAndThePlayerStillWorks() {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder)
        defer { player.shutdown() }
        player.load(TestMedia.vp8)
        recorder.waitFor("playing") { recorder.reachedState(.playing)($0) }
        let duration = player.duration?.seconds ?? 4
        /// Waits for three more ticks: 750 ms of playback, longer than the 500 ms seek throttle.
        func waitOutTheThrottle(_ why: String) {
            let mark = recorder.count
            recorder.waitFor("three ticks \(why)") { $0.dropFirst(mark).compactMap(\.position).count >= 3 }
        }
        /// The state is a playing one, every tick so far lies in 0…duration, and there was no error.
        func assertValid(_ why: String, file: StaticString = #filePath, line: UInt = #line) {
            XCTAssertTrue([.playing, .seeking, .ended].contains(player.state), "\(why): state \(player.state)", file: file, line: line)
            let ticks = recorder.events.compactMap(\.position)
            XCTAssertTrue(ticks.allSatisfy { $0.seconds >= 0 && $0.seconds <= duration + 0.05 }, "\(why): ticks \(ticks.suffix(5))", file: file, line: line)
            XCTAssertNil(recorder.events.lazy.compactMap(\.error).first, why, file: file, line: line)
        }

        // Negative and NaN times are clamped to 0.
        var mark = recorder.count
        player.seek(to: MediaTime(seconds: -50))
        XCTAssertEqual(recorder.waitForValue("negative seek", after: mark) { $0.seekDone }?.seconds ?? -1, 0, accuracy: 0.05)
        mark = recorder.count
        player.seek(to: MediaTime(seconds: .nan))
        XCTAssertEqual(recorder.waitForValue("NaN seek", after: mark) { $0.seekDone }?.seconds ?? -1, 0, accuracy: 0.05)
        assertValid("after clamped seeks")

        // Non-finite fractions are ignored: outside the throttle window, no seek runs, and
        // playback goes on from where it was.
        waitOutTheThrottle("before non-finite fractions")
        let seeksBefore = player.refreshStatistics().seekCount
        mark = recorder.count
        player.seek(toFraction: .infinity)
        player.seek(toFraction: -.infinity)
        player.seek(toFraction: .nan)
        waitOutTheThrottle("after non-finite fractions")
        XCTAssertEqual(player.refreshStatistics().seekCount, seeksBefore, "no seek ran")
        XCTAssertFalse(recorder.events.dropFirst(mark).contains { $0.seekDone != nil || $0.isEndOfStream }, "nothing moved the playhead")
        let ticks = recorder.events.dropFirst(mark).compactMap(\.position)
        XCTAssertEqual(ticks, ticks.sorted(), "playback went on")
        XCTAssertLessThan(ticks.last?.seconds ?? duration, duration - 0.5, "not at the end")
        assertValid("after non-finite fractions")

        // A relative seek by the most negative time saturates at 0.
        mark = recorder.count
        player.seek(by: MediaTime(nanoseconds: .min))
        XCTAssertEqual(recorder.waitForValue("seek by .min", after: mark) { $0.seekDone }?.seconds ?? -1, 0, accuracy: 0.05)
        assertValid("after a seek by .min")

        // Beyond the end: the stream ends.
        player.seek(to: MediaTime(seconds: 1e12))
        recorder.waitFor("EOS after a huge seek") { $0.contains(where: \.isEndOfStream) }
        XCTAssertEqual(player.state, .ended)
        assertValid("after a huge seek")

        // The player still works: a normal seek lands and plays to the end again.
        mark = recorder.count
        player.seek(to: MediaTime(seconds: 3))
        XCTAssertEqual(recorder.waitForValue("a normal seek", after: mark) { $0.seekDone }?.seconds ?? -1, 3, accuracy: 0.1)
        recorder.waitFor("a second EOS") { $0.dropFirst(mark).contains(where: \.isEndOfStream) }
        XCTAssertEqual(Array(recorder.states().suffix(3)), [.seeking, .playing, .ended])
        assertValid("at the end")
    }

    func testSeekStormEndsAtTheLastRequestedPosition() {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder) { $0.autoplay = false }
        defer { player.shutdown() }
        player.load(TestMedia.h264)
        recorder.waitFor("ready") { recorder.reachedState(.ready)($0) }
        let targets = (0..<3000).map { MediaTime(seconds: Double(($0 * 7919) % 9000) / 1000) }
        DispatchQueue.concurrentPerform(iterations: 4) { lane in
            for (i, target) in targets.enumerated() where i % 4 == lane { player.seek(to: target) }
        }
        let last = MediaTime(seconds: 7.5)
        player.seek(to: last)
        recorder.waitFor("the last seek landed") { $0.compactMap(\.seekDone).last.map { abs(($0 - last).seconds) < 0.05 } ?? false }
        // Nothing of the storm is left to run: no seek kept by the throttle or before preroll, no timer, none in flight.
        var idle = false
        player.withEngine { engine in
            idle = engine.seeks.throttle.pending == nil && !engine.seeks.throttle.timerArmed && engine.seeks.pending == nil && !engine.seeks.inFlight
        }
        XCTAssertTrue(idle, "no seek pending after the last one landed")
        XCTAssertEqual(recorder.events.compactMap(\.seekDone).last?.seconds ?? 0, last.seconds, accuracy: 0.05)
        XCTAssertLessThan(player.refreshStatistics().seekCount, 20, "throttled")
        XCTAssertEqual(player.state, .ready)
    }

    /// Lowers the rank of decoders in the registry for the duration of `body` (the runtime
    /// equivalent of `GST_PLUGIN_FEATURE_RANK=name:NONE`).
    private func withRanksLowered(_ names: [String], _ body: () -> Void) {
        GStreamerRuntime.ensureInitialized()
        var saved: [(OpaquePointer, guint)] = []
        for name in names {
            guard let feature = gst_registry_lookup_feature(gst_registry_get(), name) else { continue }
            saved.append((feature, gst_plugin_feature_get_rank(feature)))
            gst_plugin_feature_set_rank(feature, guint(GST_RANK_NONE.rawValue))
        }
        defer {
            for (feature, rank) in saved {
                gst_plugin_feature_set_rank(feature, rank)
                gst_object_unref(UnsafeMutableRawPointer(feature))
            }
        }
        body()
    }
}
