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
/// thread; the frames sit behind a `Mutex`. The probe's box is released by its destroy-notify
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
    private let frames = Mutex<[Frame]>([])
    private let keeping = Atomic<Bool>(false)
    /// Frames still to keep after the overlay stopped drawing; the last one drops them all.
    private let tail = Atomic<Int>(0)

    /// Starts keeping frames (an overlay began to draw) or stops: the frames are dropped once
    /// ``kept`` more have passed (the tail). Any thread (the loop thread, from
    /// ``FeatureVideo/setOverlaysDrawing(_:)``).
    func setKeeping(_ keep: Bool) {
        tail.store(keep ? 0 : Self.kept, ordering: .sequentiallyConsistent)
        keeping.store(keep, ordering: .sequentiallyConsistent)
    }

    /// How many frames are held now (tests).
    var keptCount: Int { frames.withLock { $0.count } }

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
        return frames.withLock { kept in
            guard let frame = kept.last(where: { $0.buffer.pointee.pts == pts }) else { return nil }
            return gst_sample_new(frame.buffer, frame.caps, nil, nil)
        }
    }

    /// Drops every kept frame (teardown, or the pipeline going down).
    func clear() {
        let dropped = frames.withLock { kept in defer { kept.removeAll() }; return kept }
        dropped.forEach { $0.release() }
    }

    deinit { clear() }

    private func keep(_ frame: Frame) {
        if !keeping.load(ordering: .sequentiallyConsistent) {
            guard tail.load(ordering: .sequentiallyConsistent) > 0 else { return frame.release() }
            if tail.subtract(1, ordering: .sequentiallyConsistent).newValue <= 0 {
                frame.release()
                return clear()   // the frames drawn on before the stop have been shown
            }
        }
        let dropped = frames.withLock { kept -> [Frame] in
            kept.append(frame)
            let excess = kept.count - Self.kept
            guard excess > 0 else { return [] }
            defer { kept.removeFirst(excess) }
            return Array(kept.prefix(excess))
        }
        dropped.forEach { $0.release() }
    }
}
