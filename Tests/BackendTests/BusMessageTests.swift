@testable import BackendCore
import Backend
import CGStreamer
import Foundation
import TestSupport
import XCTest

/// Buffering and clock-lost messages posted on a real pipeline's bus, as an element would.
final class BusMessageTests: XCTestCase {
    func testBufferingMessagesPauseAndResumeARealPipeline() {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder)
        defer { player.shutdown() }
        player.load(TestMedia.h264)
        recorder.waitFor("playing") { recorder.reachedState(.playing)($0) }
        post(player) { gst_message_new_buffering(CGStreamer_as_object(UnsafeMutableRawPointer($0)), 30) }
        recorder.waitFor("buffering state") { recorder.reachedState(.buffering)($0) }
        XCTAssertTrue(waitForPipelineState(player, GST_STATE_PAUSED), "pipeline paused while buffering")
        post(player) { gst_message_new_buffering(CGStreamer_as_object(UnsafeMutableRawPointer($0)), 30) } // repeat: dropped
        post(player) { gst_message_new_buffering(CGStreamer_as_object(UnsafeMutableRawPointer($0)), 100) }
        recorder.waitFor("back to playing") { events in
            events.contains { if case .stateChanged(.buffering, .playing) = $0 { return true } else { return false } }
        }
        XCTAssertTrue(waitForPipelineState(player, GST_STATE_PLAYING))
        let levels = recorder.events.compactMap { e -> Int? in if case .buffering(let p) = e { return p } else { return nil } }
        XCTAssertEqual(levels, [30, 100], "repeated level dropped")
        XCTAssertGreaterThan(player.refreshStatistics().bufferingTimeMilliseconds, 0)
    }

    func testClockLostMessageOnTheBusIsHandled() {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder)
        defer { player.shutdown() }
        player.load(TestMedia.h264)
        recorder.waitFor("playing") { recorder.reachedState(.playing)($0) }
        var traceStart = 0
        player.withEngine { traceStart = $0.pipeline?.transitions.count ?? 0 }
        post(player) { pipeline in
            let clock = gst_pipeline_get_clock(UnsafeMutableRawPointer(pipeline).assumingMemoryBound(to: GstPipeline.self))
            defer { if let clock { gst_object_unref(UnsafeMutableRawPointer(clock)) } }
            return gst_message_new_clock_lost(CGStreamer_as_object(UnsafeMutableRawPointer(pipeline)), clock)
        }
        XCTAssertTrue(eventually { player.refreshStatistics().clockLostRecoveries > 0 })
        XCTAssertEqual(player.statistics.clockLostRecoveries, 1)
        XCTAssertTrue(waitForPipelineState(player, GST_STATE_PLAYING))
        var trace: [String] = []
        _ = eventually {
            player.withEngine { engine in
                trace = (engine.pipeline?.transitions ?? []).dropFirst(traceStart).map { "\($0.0.rawValue)>\($0.1.rawValue)" }
            }
            return trace.count >= 2
        }
        // PLAYING(4) → PAUSED(3), then PAUSED → PLAYING: the pipeline picked a new clock.
        XCTAssertEqual(trace, ["4>3", "3>4"])
        let a = recorder.waitForValue("tick", after: recorder.count) { $0.position }
        let b = recorder.waitForValue("next tick", after: recorder.count) { $0.position }
        XCTAssertGreaterThan(b ?? .zero, a ?? .zero, "position keeps moving after the clock was lost")
    }

    // MARK: Helpers

    /// Posts a message built from the playbin on its bus (as an element would).
    private func post(_ player: Player, _ make: @escaping (UnsafeMutablePointer<GstElement>) -> UnsafeMutablePointer<GstMessage>?) {
        player.withEngine { engine in
            guard let playbin = engine.pipeline?.element, let message = make(playbin) else { return }
            _ = gst_element_post_message(playbin, message)
        }
    }

    /// Polls the playbin's GStreamer state (no event reports it).
    private func waitForPipelineState(_ player: Player, _ wanted: GstState) -> Bool {
        eventually {
            var current: GstState = GST_STATE_VOID_PENDING
            player.withEngine { engine in
                if let playbin = engine.pipeline?.element { gst_element_get_state(playbin, &current, nil, 0) }
            }
            return current == wanted
        }
    }
}
