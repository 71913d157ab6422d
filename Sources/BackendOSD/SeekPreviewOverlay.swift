import BackendCore
import CGStreamer
import Synchronization

/// What the seek preview's `overlaycomposition` draws (``SeekPreviewLayout``): the bar's track,
/// its filled part, a dark border and the picture of the target time, as
/// `GstVideoOverlayRectangle`s over raw `BGRA` buffers (`gst_video_overlay_rectangle_new_raw`,
/// scaled by GStreamer) — the way the tags feature draws cover art over a visualiser.
/// Set on the loop thread, read by `draw` on the streaming thread: one `Mutex`. Holds its own
/// buffer and composition references, dropped by ``hide()``/``set(picture:fraction:)``/deinit.
final class SeekPreviewOverlay: Sendable {
    private struct State: @unchecked Sendable {
        var shown = false
        var fraction = 0.0
        var picture: UnsafeMutablePointer<GstBuffer>?
        var pictureSize = (width: 0, height: 0)
        var pictureTime: MediaTime?
        var composition: OpaquePointer?
        /// The frame size ``composition`` was made for.
        var compositionSize = (width: 0, height: 0)
        var frameSize = (width: 0, height: 0)
    }

    private let state = Mutex(State())
    /// Solid 4 × 4 buffers: the bar's track (translucent grey), its fill (the OSD's colour) and
    /// the picture's border (black).
    nonisolated(unsafe) private let track: UnsafeMutablePointer<GstBuffer>?
    nonisolated(unsafe) private let fill: UnsafeMutablePointer<GstBuffer>?
    nonisolated(unsafe) private let border: UnsafeMutablePointer<GstBuffer>?

    /// `fillColour`: ARGB, as ``OSDSettings/colour``.
    init(fillColour: UInt32) {
        GStreamerRuntime.ensureInitialized()
        track = Self.solid(argb: 0xB080_8080)
        fill = Self.solid(argb: fillColour)
        border = Self.solid(argb: 0xFF10_1010)
    }

    deinit {
        state.withLock { Self.clear(&$0) }
        for buffer in [track, fill, border] { if let buffer { gst_buffer_unref(buffer) } }
    }

    /// The last frame size `draw` saw (0 × 0 before any): what the pointer's video coordinates
    /// are measured against.
    var frameSize: (width: Int, height: Int) { state.withLock { $0.frameSize } }

    /// The time of the picture drawn now, nil when none is.
    var pictureTime: MediaTime? { state.withLock { $0.shown ? $0.pictureTime : nil } }

    /// Draws the bar at `fraction` and `picture` (nil: the bar alone) from the next frame on.
    /// Returns whether what is drawn changed.
    @discardableResult
    func set(picture: BGRAPicture?, fraction: Double) -> Bool {
        state.withLock { state in
            let samePicture = picture?.time == state.pictureTime && (picture == nil) == (state.picture == nil)
            guard !state.shown || state.fraction != fraction || !samePicture else { return false }
            if !samePicture {
                if let old = state.picture { gst_buffer_unref(old) }
                state.picture = picture.flatMap(Self.buffer(of:))
                state.pictureSize = (picture?.width ?? 0, picture?.height ?? 0)
                state.pictureTime = state.picture == nil ? nil : picture?.time
            }
            state.shown = true
            state.fraction = fraction
            Self.dropComposition(&state)
            return true
        }
    }

    /// Draws nothing from the next frame on. Returns whether something was drawn.
    @discardableResult
    func hide() -> Bool {
        state.withLock { state in
            let was = state.shown
            let size = state.frameSize
            Self.clear(&state)
            state.frameSize = size
            return was
        }
    }

    /// The composition for a frame of `width × height` (a new reference, or nil: draw nothing).
    /// **Thread:** the streaming thread of `overlaycomposition`.
    func composition(frameWidth: Int, frameHeight: Int) -> OpaquePointer? {
        state.withLock { state -> OpaquePointer? in
            state.frameSize = (frameWidth, frameHeight)
            guard state.shown, frameWidth > 0, frameHeight > 0 else { return nil }
            if state.composition == nil || state.compositionSize != (frameWidth, frameHeight) {
                Self.dropComposition(&state)
                state.composition = makeComposition(state, frameWidth: frameWidth, frameHeight: frameHeight)
                state.compositionSize = (frameWidth, frameHeight)
            }
            return state.composition.map { gst_video_overlay_composition_ref($0) }
        }
    }

    /// The rectangles of ``SeekPreviewLayout`` for `state`.
    private func makeComposition(_ state: State, frameWidth: Int, frameHeight: Int) -> OpaquePointer? {
        let layout = SeekPreviewLayout(frameWidth: frameWidth, frameHeight: frameHeight)
        var parts: [(UnsafeMutablePointer<GstBuffer>?, SeekPreviewLayout.Rect)] = [(track, layout.bar)]
        if let filled = layout.filled(fraction: state.fraction) { parts.append((fill, filled)) }
        if let picture = state.picture {
            let place = layout.picture(width: state.pictureSize.width, height: state.pictureSize.height, fraction: state.fraction)
            parts.append((border, layout.border(around: place)))
            parts.append((picture, place))
        }
        var composition: OpaquePointer?
        for case let (buffer?, rect) in parts {
            guard let rectangle = gst_video_overlay_rectangle_new_raw(buffer, gint(rect.x), gint(rect.y), guint(rect.width), guint(rect.height),
                                                                      GST_VIDEO_OVERLAY_FORMAT_FLAG_NONE) else { continue }
            if let composition { gst_video_overlay_composition_add_rectangle(composition, rectangle) } else {
                composition = gst_video_overlay_composition_new(rectangle)
            }
            gst_video_overlay_rectangle_unref(rectangle)
        }
        return composition
    }

    private static func dropComposition(_ state: inout State) {
        if let composition = state.composition { gst_video_overlay_composition_unref(composition) }
        state.composition = nil
    }

    private static func clear(_ state: inout State) {
        dropComposition(&state)
        if let picture = state.picture { gst_buffer_unref(picture) }
        state = State()
    }

    /// A `BGRA` buffer of the picture's pixels with its `GstVideoMeta`.
    private static func buffer(of picture: BGRAPicture) -> UnsafeMutablePointer<GstBuffer>? {
        guard picture.width > 0, picture.height > 0, picture.pixels.count == picture.width * picture.height * 4,
              let buffer = gst_buffer_new_allocate(nil, gsize(picture.pixels.count), nil) else { return nil }
        _ = picture.pixels.withUnsafeBytes { gst_buffer_fill(buffer, 0, $0.baseAddress, gsize(picture.pixels.count)) }
        gst_buffer_add_video_meta(buffer, GST_VIDEO_FRAME_FLAG_NONE, GST_VIDEO_FORMAT_BGRA, guint(picture.width), guint(picture.height))
        return buffer
    }

    /// A 4 × 4 buffer of one ARGB colour, as `BGRA`.
    private static func solid(argb: UInt32) -> UnsafeMutablePointer<GstBuffer>? {
        let side = 4
        let pixel: [UInt8] = [UInt8(argb & 0xFF), UInt8(argb >> 8 & 0xFF), UInt8(argb >> 16 & 0xFF), UInt8(argb >> 24)]
        let pixels = Array((0..<(side * side)).map { _ in pixel }.joined())
        return buffer(of: BGRAPicture(time: .zero, width: side, height: side, pixels: pixels))
    }
}
