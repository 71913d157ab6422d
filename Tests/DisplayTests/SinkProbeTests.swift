@testable import BackendCore
import Backend
import CGStreamer
import XCTest

/// ``SinkProbe`` and the in-process rank-out of crashing sinks, on real elements (the X ones
/// under a private Xvfb).
final class SinkProbeTests: XCTestCase {
    func testVideoCandidateOrderFollowsTheDisplayVariables() {
        XCTAssertEqual(SinkProbe.videoCandidates(environment: [:]), [])
        XCTAssertEqual(SinkProbe.videoCandidates(environment: ["DISPLAY": ""]), [])
        XCTAssertEqual(SinkProbe.videoCandidates(environment: ["DISPLAY": ":0"]), ["xvimagesink", "ximagesink", "glimagesink"])
        XCTAssertEqual(SinkProbe.videoCandidates(environment: ["WAYLAND_DISPLAY": "wayland-0"]), ["glimagesink", "waylandsink"])
        XCTAssertEqual(SinkProbe.videoCandidates(environment: ["DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-0"]),
                       ["xvimagesink", "ximagesink", "glimagesink", "waylandsink"])
    }

    func testAudioCandidatesNeedASoundServerSocketOrASoundDevice() {
        let none: (String) -> Bool = { _ in false }
        XCTAssertEqual(SinkProbe.audioCandidates(environment: [:], exists: none), [])
        XCTAssertEqual(SinkProbe.audioCandidates(environment: ["PULSE_SERVER": "tcp:host"], exists: none), ["pulsesink"])
        XCTAssertEqual(SinkProbe.audioCandidates(environment: ["XDG_RUNTIME_DIR": "/r"], exists: { $0 == "/r/pulse/native" }), ["pulsesink"])
        XCTAssertEqual(SinkProbe.audioCandidates(environment: ["XDG_RUNTIME_DIR": "/r"], exists: { $0 == "/r/pipewire-0" }), ["pulsesink"])
        XCTAssertEqual(SinkProbe.audioCandidates(environment: [:], exists: { $0 == "/run/pulse/native" }), ["pulsesink"])
        XCTAssertEqual(SinkProbe.audioCandidates(environment: [:], exists: { $0 == "/dev/snd" }), ["alsasink"])
        XCTAssertEqual(SinkProbe.audioCandidates(environment: ["PULSE_SERVER": "x"], exists: { $0 == "/dev/snd" }), ["pulsesink", "alsasink"])
    }

    func testCrashingSinksAreRankedOutInProcess() throws {
        GStreamerRuntime.ensureInitialized()
        var checked = 0
        for name in GStreamerRuntime.crashingSinks {
            guard let feature = gst_registry_lookup_feature(gst_registry_get(), name) else { continue }
            defer { gst_object_unref(UnsafeMutableRawPointer(feature)) }
            XCTAssertEqual(gst_plugin_feature_get_rank(feature), guint(GST_RANK_NONE.rawValue), "\(name) can still be auto-plugged")
            checked += 1
        }
        // gstreamer1.0-plugins-bad ships dfbvideosink: the one that segfaults (DESIGN.md §6).
        XCTAssertGreaterThan(checked, 0, "none of \(GStreamerRuntime.crashingSinks) is installed; nothing was checked")
    }

    func testWithoutADisplayTheFakeVideoSinkIsChosenWithANote() {
        let outcome = SinkProbe.choose(from: SinkProbe.videoCandidates(environment: [:]), fallback: SinkProbe.fakeVideo,
                                       nothingToTry: SinkProbe.noDisplay)
        XCTAssertEqual(outcome.factory, "fakevideosink")
        XCTAssertTrue(outcome.isFallback)
        XCTAssertEqual(outcome.note, "no display (DISPLAY and WAYLAND_DISPLAY unset); using fakevideosink")
    }

    func testMissingAndFailingCandidatesAreSkippedWithTheirReason() {
        // A display that does not exist: the X sinks fail at READY (XOpenDisplay fails).
        let outcome = withDisplay(named: ":1999") {
            SinkProbe.choose(from: ["no-such-sink", "ximagesink"], fallback: SinkProbe.fakeVideo)
        }
        XCTAssertEqual(outcome.factory, "fakevideosink")
        XCTAssertEqual(outcome.rejected, [SinkProbe.Rejection(factory: "no-such-sink", reason: "not installed"),
                                          SinkProbe.Rejection(factory: "ximagesink", reason: "failed to open")])
        XCTAssertEqual(outcome.note, "no working video output (no-such-sink not installed, ximagesink failed to open); using fakevideosink")
    }

    func testUnderXvfbTheFirstXSinkThatOpensIsChosen() throws {
        let server = try XvfbServer()
        let outcome = withDisplay(server) {
            SinkProbe.choose(from: SinkProbe.videoCandidates(environment: ["DISPLAY": server.display]), fallback: SinkProbe.fakeVideo)
        }
        // Xvfb has no XVideo adaptor: xvimagesink fails at READY, ximagesink opens.
        XCTAssertEqual(outcome.factory, "ximagesink")
        XCTAssertFalse(outcome.isFallback)
        XCTAssertEqual(outcome.rejected, [SinkProbe.Rejection(factory: "xvimagesink", reason: "failed to open")])
        XCTAssertNil(outcome.note)
    }

    func testACandidateRankedNoneIsSkipped() throws {
        let server = try XvfbServer()
        GStreamerRuntime.ensureInitialized()
        let feature = try XCTUnwrap(gst_registry_lookup_feature(gst_registry_get(), "ximagesink"))
        defer { gst_object_unref(UnsafeMutableRawPointer(feature)) }
        let rank = gst_plugin_feature_get_rank(feature)
        gst_plugin_feature_set_rank(feature, guint(GST_RANK_NONE.rawValue))
        defer { gst_plugin_feature_set_rank(feature, rank) }
        let outcome = withDisplay(server) {
            SinkProbe.choose(from: ["ximagesink"], fallback: SinkProbe.fakeVideo)
        }
        XCTAssertEqual(outcome.rejected, [SinkProbe.Rejection(factory: "ximagesink", reason: "ranked NONE")])
        XCTAssertEqual(outcome.factory, "fakevideosink")
    }

    func testAudioProbeTriesPulseThenALSAAndFallsBackWithTheirReasons() {
        // Both named explicitly, so they are really opened even on a machine without sound.
        let outcome = SinkProbe.choose(from: ["pulsesink", "alsasink"], fallback: SinkProbe.fakeAudio)
        if outcome.isFallback {
            // No PulseAudio server and no ALSA card (this CI machine): both were really tried.
            XCTAssertEqual(outcome.factory, "fakeaudiosink")
            XCTAssertEqual(outcome.rejected, [SinkProbe.Rejection(factory: "pulsesink", reason: "failed to open"),
                                              SinkProbe.Rejection(factory: "alsasink", reason: "failed to open")])
            XCTAssertEqual(outcome.note, "no working audio output (pulsesink failed to open, alsasink failed to open); using fakeaudiosink")
        } else {
            XCTAssertTrue(["pulsesink", "alsasink"].contains(outcome.factory))
            XCTAssertNil(outcome.note)
        }
    }
}
