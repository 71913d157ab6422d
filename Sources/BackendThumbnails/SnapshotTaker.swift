import BackendCore
import CGStreamer

/// Takes a snapshot of the frame a `playbin` shows now (a player's, through the named operations
/// of `FeatureContext.pipeline`, or one of the caller's own): reads the frame's caps from
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
    static func take(from source: some ShownFrameSource, format: ImageFormat,
                     maximumSize: ImageSize?,
                     underOverlays: (OpaquePointer) -> OpaquePointer? = { _ in nil }) throws(ImageError) -> Image {
        guard let current = source.currentSample() else {
            if source.streamCount(.video) == 0 {
                throw ImageError(kind: .noVideo, message: "no video stream to take a snapshot of")
            }
            throw ImageError(kind: .noFrame, message: "no video frame has been shown yet")
        }
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
            converted = source.currentSample(convertedTo: caps)
        }
        guard let converted else {
            throw ImageError(kind: .conversion, message: "playbin could not convert the current frame to \(format.rawValue)")
        }
        defer { gst_sample_unref(converted) }
        return try FrameEncoder.image(fromEncoded: converted, format: format, width: size.width, height: size.height)
    }

    /// The encoded current frame of `playbin`, a pipeline of the caller's own (see
    /// ``take(from:format:maximumSize:underOverlays:)``).
    static func take(from playbin: UnsafeMutablePointer<GstElement>, format: ImageFormat, maximumSize: ImageSize?) throws(ImageError) -> Image {
        try take(from: OwnPlaybin(playbin: playbin), format: format, maximumSize: maximumSize)
    }
}

/// Where ``SnapshotTaker`` reads the frame shown: a player's pipeline (`FeaturePipeline`'s named
/// operations) or a `playbin` of the caller's own (``OwnPlaybin``). **Thread:** the one owning it.
protocol ShownFrameSource {
    /// The sample the video sink shows (playbin's `sample`): a new reference, nil when none.
    func currentSample() -> OpaquePointer?
    /// The shown frame converted to `caps` (playbin's `convert-sample`): a new sample, nil on failure.
    func currentSample(convertedTo caps: UnsafeMutablePointer<GstCaps>) -> OpaquePointer?
    /// How many streams of `kind` the media has (playbin's `n-video`…).
    func streamCount(_ kind: PipelineStreamKind) -> Int
}

extension FeaturePipeline: ShownFrameSource {}

/// A `playbin` the caller made and owns, read directly (`g_object_get`, `g_signal_emit_by_name`).
struct OwnPlaybin: ShownFrameSource {
    let playbin: UnsafeMutablePointer<GstElement>

    func currentSample() -> OpaquePointer? {
        CGStreamer_get_object(UnsafeMutableRawPointer(playbin), "sample").map(OpaquePointer.init)
    }

    func currentSample(convertedTo caps: UnsafeMutablePointer<GstCaps>) -> OpaquePointer? {
        CGStreamer_playbin_convert_sample(playbin, caps)
    }

    func streamCount(_ kind: PipelineStreamKind) -> Int {
        let property = switch kind {
        case .video: "n-video"
        case .audio: "n-audio"
        case .text: "n-text"
        }
        return Int(CGStreamer_get_int(UnsafeMutableRawPointer(playbin), property))
    }
}
