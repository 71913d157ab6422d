@testable import BackendCore
@testable import BackendThumbnails
import Backend
import CGStreamer
import Foundation
import TestSupport
import XCTest

/// `SnapshotTaker` on a `playbin` of the test's own (the component a `Player` calls on its
/// loop thread), with headless fake sinks, paused and playing.
final class SnapshotTakerTests: XCTestCase {
    /// A playbin on `location` with `videoSink` (a bin description) and no audio output.
    private func makePlaybin(_ location: String, videoSink: String) throws -> UnsafeMutablePointer<GstElement> {
        GStreamerRuntime.ensureInitialized()
        let playbin = try XCTUnwrap(gst_element_factory_make("playbin", nil))
        _ = gst_object_ref_sink(UnsafeMutableRawPointer(playbin))
        let object = UnsafeMutableRawPointer(playbin)
        var error: UnsafeMutablePointer<GError>?
        let sink = try XCTUnwrap(gst_parse_bin_from_description(videoSink, 1, &error))
        CGStreamer_set_object(object, "video-sink", UnsafeMutableRawPointer(sink))
        CGStreamer_set_object(object, "audio-sink", UnsafeMutableRawPointer(gst_element_factory_make("fakesink", nil)))
        CGStreamer_set_string(object, "uri", try MediaLocation.uri(for: location))
        return playbin
    }

    /// Sets `state` and waits for the pipeline to get there.
    private func setState(_ playbin: UnsafeMutablePointer<GstElement>, _ state: GstState) {
        gst_element_set_state(playbin, state)
        var current = GST_STATE_VOID_PENDING
        XCTAssertEqual(gst_element_get_state(playbin, &current, nil, 10 * CGStreamer_SECOND()), GST_STATE_CHANGE_SUCCESS)
    }

    private func release(_ playbin: UnsafeMutablePointer<GstElement>) {
        gst_element_set_state(playbin, GST_STATE_NULL)
        gst_object_unref(UnsafeMutableRawPointer(playbin))
    }

    private func centre(_ image: Image) throws -> DecodedImage.Pixel {
        let decoded = try XCTUnwrap(DecodedImage.decode(image.bytes, format: image.format))
        XCTAssertEqual([decoded.width, decoded.height], [image.width, image.height])
        XCTAssertFalse(decoded.isBlack)
        return decoded.pixel(x: decoded.width / 2, y: decoded.height * 2 / 3)
    }

    func testPausedAndPlayingWithFakeSinks() throws {
        for sink in ["fakevideosink sync=true", "fakesink sync=true"] {
            let playbin = try makePlaybin(TestMedia.colourSteps, videoSink: sink)
            defer { release(playbin) }
            setState(playbin, GST_STATE_PAUSED)
            let first = try SnapshotTaker.take(from: playbin, format: .png, maximumSize: nil)
            XCTAssertEqual([first.width, first.height], [320, 240], sink)
            XCTAssertTrue(try centre(first).isClose(to: .red), "\(sink): paused at 0 s")

            XCTAssertNotEqual(gst_element_seek_simple(playbin, GST_FORMAT_TIME, GstSeekFlags(rawValue: GST_SEEK_FLAG_FLUSH.rawValue | GST_SEEK_FLAG_ACCURATE.rawValue), 2_500_000_000), 0)
            setState(playbin, GST_STATE_PAUSED)
            let seeked = try SnapshotTaker.take(from: playbin, format: .jpeg, maximumSize: ImageSize(width: 160))
            XCTAssertEqual([seeked.format == .jpeg ? 1 : 0, seeked.width, seeked.height], [1, 160, 120])
            XCTAssertTrue(try centre(seeked).isClose(to: .blue), "\(sink): paused after a seek to 2.5 s")

            // Playing in real time: wait (bounded) until the position passes 3.2 s, then snap.
            setState(playbin, GST_STATE_PLAYING)
            let deadline = Date().addingTimeInterval(5)
            var position: gint64 = 0
            while Date() < deadline {
                if gst_element_query_position(playbin, GST_FORMAT_TIME, &position) != 0, position > 3_200_000_000 { break }
                Thread.sleep(forTimeInterval: 0.02)
            }
            XCTAssertGreaterThan(position, 3_200_000_000, "\(sink) plays")
            let playing = try SnapshotTaker.take(from: playbin, format: .png, maximumSize: nil)
            XCTAssertTrue(try centre(playing).isClose(to: .white), "\(sink): playing past 3.2 s")
        }
    }

    func testPixelAspectRatioIsApplied() throws {
        let playbin = try makePlaybin(TestMedia.nonSquare, videoSink: "fakevideosink")
        defer { release(playbin) }
        setState(playbin, GST_STATE_PAUSED)
        let image = try SnapshotTaker.take(from: playbin, format: .png, maximumSize: nil)
        XCTAssertEqual([image.width, image.height], [1024, 576], "720x576 at PAR 64/45")
        let decoded = try XCTUnwrap(DecodedImage.decode(image.bytes))
        XCTAssertEqual([decoded.width, decoded.height], [1024, 576])
    }

    func testNoVideoAndNoFrameAreErrors() throws {
        let audio = try makePlaybin(TestMedia.audioOnly, videoSink: "fakevideosink")
        defer { release(audio) }
        setState(audio, GST_STATE_PAUSED)
        XCTAssertThrowsError(try SnapshotTaker.take(from: audio, format: .png, maximumSize: nil)) {
            XCTAssertEqual(($0 as? ImageError)?.kind, .noVideo)
        }
        let idle = try makePlaybin(TestMedia.colourSteps, videoSink: "fakevideosink")
        defer { release(idle) }
        XCTAssertThrowsError(try SnapshotTaker.take(from: idle, format: .png, maximumSize: nil)) {
            XCTAssertEqual(($0 as? ImageError)?.kind, .noVideo, "nothing loaded yet: no video stream known")
        }
    }
}
