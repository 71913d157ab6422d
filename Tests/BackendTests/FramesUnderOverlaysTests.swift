@testable import BackendCore
import CGStreamer
import XCTest

/// The frames kept for overlay-free snapshots are references to the decoder's buffers:
/// held all the time they would keep up to six buffers out of a fixed-size (hardware) decoder
/// pool. They are kept only while an overlay draws (the OSD shows), and dropped when it stops.
final class FramesUnderOverlaysTests: XCTestCase {
    /// Runs `videotestsrc num-buffers=20 ! identity ! fakesink` with the frames' probe on the
    /// identity, to the end of the stream.
    private func run(through frames: FramesUnderOverlays) throws {
        gst_init(nil, nil)
        var error: UnsafeMutablePointer<GError>?
        let pipeline = try XCTUnwrap(gst_parse_launch("videotestsrc num-buffers=20 ! video/x-raw,width=64,height=48 ! identity name=under ! fakesink", &error))
        defer { gst_element_set_state(pipeline, GST_STATE_NULL); gst_object_unref(UnsafeMutableRawPointer(pipeline)) }
        let identity = try XCTUnwrap(gst_bin_get_by_name(UnsafeMutablePointer<GstBin>(OpaquePointer(pipeline)), "under"))
        frames.watch(identity)
        gst_object_unref(UnsafeMutableRawPointer(identity))
        gst_element_set_state(pipeline, GST_STATE_PLAYING)
        let bus = try XCTUnwrap(gst_element_get_bus(pipeline))
        defer { gst_object_unref(UnsafeMutableRawPointer(bus)) }
        let types = GstMessageType(rawValue: GST_MESSAGE_EOS.rawValue | GST_MESSAGE_ERROR.rawValue)
        let message = try XCTUnwrap(gst_bus_timed_pop_filtered(bus, 10_000_000_000, types), "the stream ends")
        XCTAssertEqual(CGStreamer_message_type(message), GST_MESSAGE_EOS)
        gst_message_unref(message)
    }

    func testNothingIsKeptWhileNoOverlayDraws() throws {
        let frames = FramesUnderOverlays()
        try run(through: frames)
        XCTAssertEqual(frames.keptCount, 0, "no overlay drawing: no decoder buffer held")
    }

    func testTheLastFramesAreKeptWhileAnOverlayDrawsAndDroppedWhenItStops() throws {
        let frames = FramesUnderOverlays()
        frames.setKeeping(true)
        try run(through: frames)
        XCTAssertEqual(frames.keptCount, FramesUnderOverlays.kept)
        frames.setKeeping(false)
        XCTAssertEqual(frames.keptCount, FramesUnderOverlays.kept,
                       "the frames drawn on before the stop may still be on their way to the screen: kept")
        try run(through: frames)
        XCTAssertEqual(frames.keptCount, 0, "dropped once as many frames as are kept have passed after the stop")
    }
}
