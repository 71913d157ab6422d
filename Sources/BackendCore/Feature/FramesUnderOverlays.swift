import CGStreamer
import GLibSupport
import Synchronization

/// The last few frames as they were before the video overlays drew on them
/// (``FeatureVideo/addOverlay(_:order:)``: an on-screen display), so a snapshot can leave the
/// overlays out (the OSD is in a snapshot only when asked).
///
/// A buffer probe (`gst_pad_add_probe`) on the src pad of an `identity` placed in front of the
/// overlays keeps a reference to each frame and its caps. The video filter chain runs upstream of
/// playsink's video queue, so the frame the sink shows is one of the last few that passed here:
/// ``sample(matching:)`` finds it by its timestamp. Holding a reference makes an overlay that
/// draws copy the frame first (`gst_buffer_make_writable`), one copy per frame while it shows.
/// Frames are kept only while an overlay draws (``setKeeping(_:)``) and for ``kept`` frames after
/// it stops (the frames it drew before then are still on their way to the screen: dropping them at
/// once put the OSD in plain snapshots taken just after it hid, seen under a loaded `make test`):
/// the references are the decoder's buffers, and six held all the time could starve a fixed-size
/// (hardware) decoder pool. After that tail the frame on screen has none of ours, so a snapshot
/// takes it as it is.
///
/// **Threads:** the probe runs on the video streaming thread, ``sample(matching:)`` on the loop
/// thread; the frames and the keeping state sit behind one `Mutex`, with an atomic flag in front
/// for the probe's fast path. The probe's box is released by its destroy-notify
/// when the pad goes; ``clear()`` (teardown) drops the frames earlier.
final class FramesUnderOverlays: Sendable {
    /// One kept frame: owned references to a buffer and its caps.
    private struct Frame: @unchecked Sendable {
        let buffer: UnsafeMutablePointer<GstBuffer>
        let caps: UnsafeMutablePointer<GstCaps>

        func release() {
            gst_buffer_unref(buffer)
            gst_caps_unref(caps)
        }
    }

    /// How many frames are kept: playsink's video queue (3) plus the sink's and some slack.
    static let kept = 6

    /// What the probe (video streaming thread) and the loop thread share, under one lock.
    private struct State {
        var frames: [Frame] = []
        /// An overlay draws: every frame is kept.
        var keeping = false
        /// Frames still to keep after the overlay stopped drawing; the last one drops them all.
        var tail = 0
    }
    private let state = Mutex(State())
    /// `keeping || tail > 0`, for the probe's fast path: while no overlay draws (most of the
    /// time) a frame costs one atomic load, not the lock. Stored only under the lock.
    private let active = Atomic<Bool>(false)

    /// Starts keeping frames (an overlay began to draw) or stops: the frames are dropped once
    /// ``kept`` more have passed (the tail). Any thread (the loop thread, from
    /// ``FeatureVideo/setOverlaysDrawing(_:)``).
    func setKeeping(_ keep: Bool) {
        state.withLock { state in
            state.tail = keep ? 0 : Self.kept
            state.keeping = keep
            active.store(true, ordering: .sequentiallyConsistent)
        }
    }

    /// How many frames are held now (tests).
    var keptCount: Int { state.withLock { $0.frames.count } }

    /// Adds the probe to `identity`'s `src` pad. Loop thread, while the chain is built.
    func watch(_ identity: UnsafeMutablePointer<GstElement>) {
        guard let pad = gst_element_get_static_pad(identity, "src") else { return }
        defer { gst_object_unref(UnsafeMutableRawPointer(pad)) }
        _ = gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, { pad, info, data in
            guard let pad, let info, let data, let buffer = CGStreamer_probe_info_buffer(info),
                  let caps = gst_pad_get_current_caps(pad) else { return GST_PAD_PROBE_OK }
            CallbackBox<FramesUnderOverlays>.from(data).value.keep(Frame(buffer: gst_buffer_ref(buffer), caps: caps))
            return GST_PAD_PROBE_OK
        }, CallbackBox(self).retainedPointer, callbackBoxRelease)
    }

    /// The kept frame with the timestamp (PTS) of `shown`'s buffer, as a new sample
    /// (`gst_sample_new`, the caller unrefs it); nil when none matches. Newest first.
    func sample(matching shown: OpaquePointer) -> OpaquePointer? {
        guard let buffer = gst_sample_get_buffer(shown) else { return nil }
        let pts = buffer.pointee.pts
        return state.withLock { state in
            guard let frame = state.frames.last(where: { $0.buffer.pointee.pts == pts }) else { return nil }
            return gst_sample_new(frame.buffer, frame.caps, nil, nil)
        }
    }

    /// Drops every kept frame (teardown, or the pipeline going down).
    func clear() {
        let dropped = state.withLock { state in defer { state.frames.removeAll() }; return state.frames }
        dropped.forEach { $0.release() }
    }

    deinit { clear() }

    /// Keeps `frame` while an overlay draws or during the tail (the tail's last frame drops them
    /// all: the frames drawn on before the stop have been shown); releases what is not kept.
    private func keep(_ frame: Frame) {
        guard active.load(ordering: .sequentiallyConsistent) else { return frame.release() }
        let dropped = state.withLock { state -> [Frame] in
            if !state.keeping {
                guard state.tail > 0 else { return [frame] }
                state.tail -= 1
                if state.tail == 0 {
                    active.store(false, ordering: .sequentiallyConsistent)
                    defer { state.frames.removeAll() }
                    return state.frames + [frame]
                }
            }
            state.frames.append(frame)
            let excess = state.frames.count - Self.kept
            guard excess > 0 else { return [] }
            defer { state.frames.removeFirst(excess) }
            return Array(state.frames.prefix(excess))
        }
        dropped.forEach { $0.release() }
    }
}
