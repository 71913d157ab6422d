import Backend
import CGStreamer
import Foundation
import TestSupport
import XCTest

/// `VideoWallFeature` in a real player (fake sinks): the video sink receives the tile, not the
/// picture, from the first frame on and again after the media size changes mid-stream
/// (`size-change.webm`: 320×240 for 1 s, then 640×480).
final class VideoWallPlayerTests: XCTestCase {
    func testTheSinkGetsTheTileAlsoAfterTheSizeChanges() {
        let recorder = EventRecorder()
        let watch = SinkCapsWatch()
        let player = Player(configuration: .fakeSinks(), features: [VideoWallFeature(wall: VideoWall(columns: 2, rows: 1, column: 1, row: 0)), watch],
                            delegate: recorder)
        defer { player.shutdown() }
        player.load(TestMedia.sizeChange)
        recorder.waitFor("EOS") { $0.contains(where: \.isEndOfStream) }
        XCTAssertEqual(watch.sizes, ["160x240", "320x480"], "the right half of each picture size")
    }
}

/// Records the size of every CAPS event reaching the video sink (a probe on its sink pad).
private final class SinkCapsWatch: PlayerFeature, @unchecked Sendable {
    private let lock = NSLock()
    private var seen: [String] = []
    var sizes: [String] { lock.withLock { seen } }

    func attach(to context: FeatureContext) {
        guard let sink = context.video.sink, let pad = gst_element_get_static_pad(sink, "sink") else { return }
        defer { gst_object_unref(UnsafeMutableRawPointer(pad)) }
        _ = gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, { _, info, data in
            guard let info, let data, let event = CGStreamer_probe_info_event(info), CGStreamer_event_type(event) == GST_EVENT_CAPS else { return GST_PAD_PROBE_OK }
            var caps: UnsafeMutablePointer<GstCaps>?
            gst_event_parse_caps(event, &caps)
            var width: gint = 0, height: gint = 0, parN: gint = 1, parD: gint = 1
            guard let caps, CGStreamer_video_caps_size(caps, &width, &height, &parN, &parD) != 0 else { return GST_PAD_PROBE_OK }
            let watch = Unmanaged<SinkCapsWatch>.fromOpaque(data).takeUnretainedValue()
            watch.lock.withLock { if watch.seen.last != "\(width)x\(height)" { watch.seen.append("\(width)x\(height)") } }
            return GST_PAD_PROBE_OK
        }, Unmanaged.passUnretained(self).toOpaque(), nil)
    }
}
