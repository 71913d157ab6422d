@testable import BackendCore
import Backend
import CGStreamer
import Foundation
import GLibSupport
import Synchronization
import TestSupport
import XCTest

/// `ximagesink` lends upstream no pool (``XImageSinkPoolGuard``). Its pool's allocator reads the
/// sink's X context, which the sink frees in READY→NULL; playsink takes the sink there while the
/// decoder still runs (playbin's PAUSED→READY changes playsink first), so a decoder growing a
/// lent pool then crashed the process (SIGSEGV at 0x58 on `multiqueue0:src`, seen in
/// `WindowFeatureTests` under load). These tests look at where the sink's buffers come from.
final class XImageSinkPoolTests: XCTestCase {
    /// The fill crop (a `videocrop` renegotiating mid-stream, so the decoder asks for a new pool):
    /// every frame reaching the sink was allocated upstream, none from an `ximage` pool.
    func testNoFrameReachesTheSinkFromAPoolItLentUpstream() throws {
        let server = try XvfbServer(width: 1024, height: 768)
        withDisplay(server) {
            var configuration = PlayerConfiguration()
            configuration.videoSink = .description("ximagesink")
            configuration.audioSink = .description("fakeaudiosink")
            let player = Player(configuration: configuration, delegate: nil)
            defer { player.shutdown() }
            player.setVideoGravity(.fill)
            player.setRenderRectangle(RenderRectangle(x: 0, y: 0, width: 400, height: 400))
            let frames = FrameOrigins()
            player.withEngine { engine in
                guard let sink = engine.sinks.video else { return }
                frames.watch(XImageSinkPoolGuard.ximageSinks(in: sink))
            }
            player.load(DisplayMedia.nonSquare)
            XCTAssertTrue(eventually(timeout: .seconds(30)) { frames.counts.total >= 20 }, "frames at the sink: \(frames.counts)")
            XCTAssertEqual(frames.counts.fromSinkPool, 0, "frames in the sink's own XImage memory, allocated upstream: \(frames.counts)")
        }
    }

    /// Shutting down as soon as the first frame reached the sink, while the decoder is still
    /// growing its pool towards its reference frames: the window of the crash. Twenty times in
    /// one process (a crash ends the process: the run fails). Without the guard this crashed in
    /// some runs only (docs/RELIABILITY.md §20 has the counts); the test above is the exact one.
    func testShuttingDownAtTheFirstFrameTwentyTimes() throws {
        let server = try XvfbServer(width: 1024, height: 768)
        withDisplay(server) {
            for round in 1...20 {
                var configuration = PlayerConfiguration()
                configuration.videoSink = .description("ximagesink")
                configuration.audioSink = .description("fakeaudiosink")
                let player = Player(configuration: configuration, delegate: nil)
                player.setVideoGravity(.fill)
                player.setRenderRectangle(RenderRectangle(x: 0, y: 0, width: 400, height: 400))
                let frames = FrameOrigins()
                player.withEngine { engine in
                    guard let sink = engine.sinks.video else { return }
                    frames.watch(XImageSinkPoolGuard.ximageSinks(in: sink))
                }
                player.load(DisplayMedia.nonSquare)
                XCTAssertTrue(eventually(timeout: .seconds(30), interval: .milliseconds(2)) { frames.counts.total >= 1 }, "round \(round): no frame")
                player.shutdown()
            }
        }
    }

    /// The guard finds an `ximagesink` inside a bin description too, and leaves other sinks alone.
    func testTheGuardFindsXImageSinksOnlyAndInsideBins() throws {
        GStreamerRuntime.ensureInitialized()
        for (description, expected) in [("ximagesink", 1), ("videoconvert ! ximagesink", 1), ("fakevideosink", 0)] {
            var error: UnsafeMutablePointer<GError>?
            let element = description.contains("!") ? gst_parse_bin_from_description(description, 1, &error)
                                                    : gst_element_factory_make(description, nil)
            let sink = try XCTUnwrap(element, description)
            _ = gst_object_ref_sink(UnsafeMutableRawPointer(sink))
            defer { gst_object_unref(UnsafeMutableRawPointer(sink)) }
            XCTAssertEqual(XImageSinkPoolGuard.install(on: sink), expected, description)
        }
    }
}

/// Counts the buffers arriving at sink pads by where their memory comes from (streaming threads).
private final class FrameOrigins: Sendable {
    struct Counts: Equatable, Sendable {
        var total = 0
        var fromSinkPool = 0
    }

    private let state = Mutex(Counts())
    var counts: Counts { state.withLock { $0 } }

    /// A buffer probe on each element's `sink` pad; drops the references it is given.
    func watch(_ elements: [UnsafeMutablePointer<GstElement>]) {
        for element in elements {
            defer { gst_object_unref(UnsafeMutableRawPointer(element)) }
            guard let pad = gst_element_get_static_pad(element, "sink") else { continue }
            defer { gst_object_unref(UnsafeMutableRawPointer(pad)) }
            _ = gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, { _, info, data in
                guard let info, let data, let buffer = CGStreamer_probe_info_buffer(info) else { return GST_PAD_PROBE_OK }
                let fromSink = gst_buffer_peek_memory(buffer, 0)?.pointee.allocator?.pointee.mem_type
                    .map { String(cString: $0) == "ximage" } ?? false
                CallbackBox<FrameOrigins>.from(data).value.state.withLock {
                    $0.total += 1
                    if fromSink { $0.fromSinkPool += 1 }
                }
                return GST_PAD_PROBE_OK
            }, CallbackBox(self).retainedPointer, callbackBoxRelease)
        }
    }
}
