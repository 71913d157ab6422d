import BackendCore
import CGStreamer
import GLibSupport

/// Where the seek preview's pictures of one media come from: the umbrella gives a background
/// thumbnail track (BackendThumbnails' `ThumbnailTrack`). Any thread.
public protocol PreviewPictureSource: AnyObject, Sendable {
    /// The picture made so far nearest to `time`, nil before any; asks for `time`'s picture to
    /// be made next.
    func picture(near time: MediaTime) -> BGRAPicture?
    /// Stops making pictures (the media is no longer kept).
    func cancel()
}

/// Makes the picture source of the media at a `file://` URI; `arrived` runs (on any thread)
/// after each new picture. Nil: no preview for that media.
public typealias PreviewPictureSourceMaker = @Sendable (_ uri: String, _ arrived: @escaping @Sendable () -> Void) -> (any PreviewPictureSource)?

/// The OSD's seek preview (``OSDFeature``): an `overlaycomposition` drawing
/// ``SeekPreviewOverlay``, and the picture sources of the last few media (so going back to an
/// item of the queue finds its pictures made). **Thread:** loop thread, except the `draw`
/// handler (streaming thread; it only reads the overlay).
final class SeekPreview {
    /// How many media keep their pictures.
    static let keptMedia = 3

    /// The `overlaycomposition` (an owned reference).
    private(set) var element: UnsafeMutablePointer<GstElement>?
    let overlay: SeekPreviewOverlay
    private let makeSource: PreviewPictureSourceMaker
    /// Sources by URI, the current media's last.
    private var sources: [(uri: String, source: any PreviewPictureSource)] = []
    private var current: (any PreviewPictureSource)?
    /// The time shown now, nil when hidden.
    private(set) var shownTime: MediaTime?

    /// Nil when `overlaycomposition` is missing.
    init?(makeSource: @escaping PreviewPictureSourceMaker, fillColour: UInt32) {
        guard let made = gst_element_factory_make("overlaycomposition", "gstplay-seek-preview") else { return nil }
        _ = gst_object_ref_sink(UnsafeMutableRawPointer(made))
        element = made
        overlay = SeekPreviewOverlay(fillColour: fillColour)
        self.makeSource = makeSource
        let box = CallbackBox(overlay)
        _ = CGStreamer_signal_connect_2_returning(UnsafeMutableRawPointer(made), "draw", { _, sample, data in
            guard let data, let sample, let caps = gst_sample_get_caps(OpaquePointer(sample)) else { return nil }
            var width: gint = 0, height: gint = 0, parN: gint = 1, parD: gint = 1
            guard CGStreamer_video_caps_size(caps, &width, &height, &parN, &parD) != 0 else { return nil }
            let overlay = CallbackBox<SeekPreviewOverlay>.from(data).value
            return overlay.composition(frameWidth: Int(width), frameHeight: Int(height)).map(UnsafeMutableRawPointer.init)
        }, box.retainedPointer, callbackBoxClosureRelease)
    }

    /// The media changed to `uri` (nil: none): its source, kept or new (local files only: a
    /// second reader of a network stream would cost bandwidth); older media beyond
    /// ``keptMedia`` are let go. `arrived` is passed to a new source.
    func mediaChanged(to uri: String?, arrived: @escaping @Sendable () -> Void) {
        hide()
        current = nil
        guard let uri, URIScheme.isFile(uri) else { return }
        if let index = sources.firstIndex(where: { $0.uri == uri }) {
            current = sources.remove(at: index).source
        } else {
            current = makeSource(uri, arrived)
        }
        guard let current else { return }
        sources.append((uri, current))
        while sources.count > Self.keptMedia { sources.removeFirst().source.cancel() }
    }

    /// Shows the bar at `time` of `duration` and the nearest picture made. Returns whether
    /// what is drawn changed.
    @discardableResult
    func show(_ time: MediaTime, of duration: MediaTime) -> Bool {
        guard duration > .zero else { return false }
        shownTime = time
        return overlay.set(picture: current?.picture(near: time), fraction: time.seconds / duration.seconds)
    }

    /// A new picture arrived: the one shown is looked up again. Returns whether it changed.
    func pictureArrived(duration: MediaTime?) -> Bool {
        guard let shownTime, let duration else { return false }
        return show(shownTime, of: duration)
    }

    /// Draws nothing. Returns whether something was drawn.
    @discardableResult
    func hide() -> Bool {
        shownTime = nil
        return overlay.hide()
    }

    /// The fraction of the media the pointer at video coordinates (`x`, `y`) points at, nil off
    /// the bar's strip or before a frame was drawn.
    func fraction(pointerX x: Double, y: Double) -> Double? {
        let size = overlay.frameSize
        guard size.width > 0, size.height > 0 else { return nil }
        return SeekPreviewLayout(frameWidth: size.width, frameHeight: size.height).fraction(pointerX: x, y: y)
    }

    /// Stops every source and drops the element's reference.
    func release() {
        for kept in sources { kept.source.cancel() }
        sources = []
        current = nil
        overlay.hide()
        if let element { gst_object_unref(UnsafeMutableRawPointer(element)) }
        element = nil
    }
}
