import BackendCore
import CGStreamer
import Synchronization

/// The picture `overlaycomposition` draws over every visualiser frame: a raw BGRA buffer with
/// its `GstVideoMeta`, and the composition made for the last frame size (two rectangles: black
/// over the whole frame, then the picture scaled to fit it, centred). Set on the loop thread, read by the `draw` signal
/// on the streaming thread: one `Mutex`. Holds its own buffer/composition references, dropped
/// by ``set(_:)`` and ``clear()``.
final class PictureOverlay: Sendable {
    private struct State: @unchecked Sendable {
        var buffer: UnsafeMutablePointer<GstBuffer>?
        var width = 0
        var height = 0
        var composition: OpaquePointer?
        var frameWidth = 0
        var frameHeight = 0
    }

    private let state = Mutex(State())
    /// 16 × 16 opaque black (`BGRA`), scaled over the whole frame behind the picture.
    nonisolated(unsafe) private let black: UnsafeMutablePointer<GstBuffer>?

    init() {
        GStreamerRuntime.ensureInitialized()
        let side = 16
        black = gst_buffer_new_allocate(nil, gsize(side * side * 4), nil)
        if let black {
            let pixels = [UInt8](unsafeUninitializedCapacity: side * side * 4) { bytes, count in
                for index in 0..<(side * side) { bytes[index * 4] = 0; bytes[index * 4 + 1] = 0; bytes[index * 4 + 2] = 0; bytes[index * 4 + 3] = 255 }
                count = side * side * 4
            }
            _ = pixels.withUnsafeBytes { gst_buffer_fill(black, 0, $0.baseAddress, gsize(pixels.count)) }
            gst_buffer_add_video_meta(black, GST_VIDEO_FRAME_FLAG_NONE, GST_VIDEO_FORMAT_BGRA, guint(side), guint(side))
        }
    }

    /// Draws `sample` (raw `BGRA`, from ``CoverArtDecoder``) from now on; the sample stays the caller's.
    func set(_ sample: OpaquePointer, width: Int, height: Int) {
        guard let source = gst_sample_get_buffer(sample), let copy = gst_buffer_copy(source) else { return }
        if gst_buffer_get_video_meta(copy) == nil {
            gst_buffer_add_video_meta(copy, GST_VIDEO_FRAME_FLAG_NONE, GST_VIDEO_FORMAT_BGRA, guint(width), guint(height))
        }
        state.withLock { state in
            Self.release(&state)
            state.buffer = copy
            state.width = width
            state.height = height
        }
    }

    /// Draws nothing from now on (the visualiser shows).
    func clear() { state.withLock { Self.release(&$0) } }

    /// The composition for a frame of `width` × `height` (a new reference, or nil: draw
    /// nothing). **Thread:** the streaming thread of `overlaycomposition`.
    func composition(frameWidth: Int, frameHeight: Int) -> OpaquePointer? {
        state.withLock { state -> OpaquePointer? in
            guard let buffer = state.buffer, state.width > 0, state.height > 0, frameWidth > 0, frameHeight > 0 else { return nil }
            if state.composition == nil || state.frameWidth != frameWidth || state.frameHeight != frameHeight {
                if let old = state.composition { gst_video_overlay_composition_unref(old) }
                let scale = min(Double(frameWidth) / Double(state.width), Double(frameHeight) / Double(state.height))
                let width = max(1, Int((Double(state.width) * scale).rounded())), height = max(1, Int((Double(state.height) * scale).rounded()))
                guard let rectangle = gst_video_overlay_rectangle_new_raw(buffer, gint((frameWidth - width) / 2), gint((frameHeight - height) / 2),
                                                                          guint(width), guint(height), GST_VIDEO_OVERLAY_FORMAT_FLAG_NONE) else { return nil }
                if let black, let background = gst_video_overlay_rectangle_new_raw(black, 0, 0, guint(frameWidth), guint(frameHeight),
                                                                                   GST_VIDEO_OVERLAY_FORMAT_FLAG_NONE) {
                    state.composition = gst_video_overlay_composition_new(background)
                    gst_video_overlay_rectangle_unref(background)
                    gst_video_overlay_composition_add_rectangle(state.composition, rectangle)
                } else {
                    state.composition = gst_video_overlay_composition_new(rectangle)
                }
                gst_video_overlay_rectangle_unref(rectangle)
                state.frameWidth = frameWidth
                state.frameHeight = frameHeight
            }
            guard let composition = state.composition else { return nil }
            return gst_video_overlay_composition_ref(composition)
        }
    }

    deinit {
        state.withLock { Self.release(&$0) }
        if let black { gst_buffer_unref(black) }
    }

    private static func release(_ state: inout State) {
        if let composition = state.composition { gst_video_overlay_composition_unref(composition) }
        if let buffer = state.buffer { gst_buffer_unref(buffer) }
        state = State()
    }
}
