import BackendCore
import CGStreamer

/// Takes a snapshot of the frame a `playbin` shows now: reads the frame's caps from
/// `playbin.sample` (the video sink's `last-sample`, so the sink must keep
/// `enable-last-sample` on — `fakesink`, `fakevideosink` and the display sinks do by default),
/// then asks playbin's `convert-sample` action signal for an encoded image of the display size
/// (pixel aspect ratio applied, square pixels) fitted into the maximum size. Unless overlays are
/// asked for, the frame is the one before the video overlays drew on it (the OSD:
/// `FeatureContext.video.sampleUnderOverlays(matching:)`), converted with `gst_video_convert_sample`.
///
/// **Thread:** the thread that owns the playbin (a ``Player``'s loop thread). Blocks while
/// GStreamer encodes (a few ms for a small frame, tens of ms for a large PNG). Works in PAUSED
/// (the prerolled frame) and in PLAYING (the last rendered one).
enum SnapshotTaker {
    /// The encoded current frame. Throws `.noVideo` when the media has no video stream,
    /// `.noFrame` when none has been shown yet, `.conversion` when encoding fails.
    static func take(from playbin: UnsafeMutablePointer<GstElement>, format: ImageFormat,
                     maximumSize: ImageSize?,
                     underOverlays: (OpaquePointer) -> OpaquePointer? = { _ in nil }) throws(ImageError) -> Image {
        let object = UnsafeMutableRawPointer(playbin)
        guard let raw = CGStreamer_get_object(object, "sample") else {
            if CGStreamer_get_int(object, "n-video") == 0 {
                throw ImageError(kind: .noVideo, message: "no video stream to take a snapshot of")
            }
            throw ImageError(kind: .noFrame, message: "no video frame has been shown yet")
        }
        let current = OpaquePointer(raw)
        defer { gst_sample_unref(current) }
        guard let info = FrameEncoder.frameInfo(of: current) else {
            throw ImageError(kind: .conversion, message: "the current frame has no raw video caps")
        }
        let size = FrameEncoder.outputSize(info, maximum: maximumSize)
        guard let caps = FrameEncoder.encodedCaps(format, width: size.width, height: size.height) else {
            throw ImageError(kind: .conversion, message: "cannot build caps for \(format.rawValue)")
        }
        defer { gst_caps_unref(caps) }
        let converted: OpaquePointer?
        if let clean = underOverlays(current) {
            defer { gst_sample_unref(clean) }
            converted = gst_video_convert_sample(clean, caps, 5 * 1_000_000_000, nil)
        } else {
            converted = CGStreamer_playbin_convert_sample(playbin, caps)
        }
        guard let converted else {
            throw ImageError(kind: .conversion, message: "playbin could not convert the current frame to \(format.rawValue)")
        }
        defer { gst_sample_unref(converted) }
        return try FrameEncoder.image(fromEncoded: converted, format: format, width: size.width, height: size.height)
    }
}
