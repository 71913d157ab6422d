import BackendCore
import CGStreamer
import GLibSupport

/// Pictures for audio-only media in the window: playbin's visualisation path (its
/// `vis` flag, `GST_PLAY_FLAG_VIS`, used only when the media has no video) with our own
/// `vis-plugin`, a bin `<visualiser> ! capsfilter ! videoconvert ! overlaycomposition`: the
/// visualiser paces the frames from the audio (so seeks, pauses and the end behave as for
/// video) and `overlaycomposition` draws the cover art over them when there is one
/// (``PictureOverlay``). The capsfilter fixes the frames' size and rate.
///
/// Only with a video sink that has a window (`GstVideoOverlay`, itself or inside its bin), so
/// never headless. **Thread:** loop thread, except the `draw` handler (streaming thread, which
/// reads only the ``PictureOverlay``) and the picture's decoding (a `DetachedThread`, which
/// comes back through a handle: `FeatureContext.confine(_:)`).
final class AudioPicture {
    /// What to show.
    let mode: AudioVisualization
    private weak var context: FeatureContext?
    /// The bin given to playbin as `vis-plugin` (our own reference), nil until needed or when it
    /// cannot be made.
    private var bin: UnsafeMutablePointer<GstElement>?
    /// What `overlaycomposition` draws.
    let pictureOverlay = PictureOverlay()
    /// Counts pictures asked for, so a late decoding of an old one is dropped.
    private var generation = 0
    /// Set once the bin failed to build (a warning was published; no second try).
    private var unavailable = false

    /// The frames' size and rate (square: a picture is drawn to fit, centred, on black).
    static let frameCaps = "video/x-raw,width=480,height=480,framerate=20/1"

    init(mode: AudioVisualization) { self.mode = mode }

    func attach(to context: FeatureContext) { self.context = context }

    /// Drops the bin (playbin keeps its own reference until the core's teardown) and the picture.
    func teardown() {
        generation += 1
        pictureOverlay.clear()
        if let bin { gst_object_unref(UnsafeMutableRawPointer(bin)) }
        bin = nil
    }

    /// Before a load prerolls (playbin in READY): with a mode other than `.none` and a window
    /// sink, sets the `vis` flag and our bin as `vis-plugin` (once per player; playbin keeps it).
    func prepare() {
        guard mode != .none, !unavailable, let context, Self.hasWindow(context.video.sink) else { return }
        if bin == nil {
            guard let made = makeBin() else {
                unavailable = true
                context.publish(.warning(PlayerError(kind: .missingPlugin, element: nil,
                                                     message: "no visualiser to show for audio-only media (\(visualizerName)): install gstreamer1.0-plugins-good",
                                                     uri: context.media.uri)))
                return
            }
            bin = made
            context.pipeline.setVisualizer(made)
        }
        context.pipeline.enableVisualization()
    }

    /// Shows `art` (decoded on a worker thread, then drawn from the loop thread), or the
    /// visualiser when nil. Only `.auto` draws pictures.
    func show(_ art: CoverArt?) {
        generation += 1
        let wanted = generation
        guard mode == .auto, bin != nil, let art, let context else {
            pictureOverlay.clear()
            return
        }
        let picture = context.confine(self)
        DetachedThread.start(name: "gstplay-cover") {
            guard let raw = try? CoverArtDecoder.decode(art, maxSide: 1024) else { return }
            let handed = RawHandOver(raw)
            let queued = picture.runOnLoop { picture in
                defer { gst_sample_unref(handed.raw.sample) }
                guard let picture, picture.generation == wanted, picture.bin != nil else { return }
                picture.pictureOverlay.set(handed.raw.sample, width: handed.raw.width, height: handed.raw.height)
            }
            if !queued { gst_sample_unref(handed.raw.sample) }
        }
    }

    /// A decoded picture crossing from the worker thread to the loop thread (its one owner at a time).
    private struct RawHandOver: @unchecked Sendable {
        let raw: CoverArtDecoder.Raw
        init(_ raw: CoverArtDecoder.Raw) { self.raw = raw }
    }

    private var visualizerName: String {
        switch mode {
        case .visualizer(let name): return name
        default: return AudioVisualization.preferredVisualizers.joined(separator: ", ")
        }
    }

    /// Whether `sink` shows a window: it, or an element of its bin, is a `GstVideoOverlay`.
    static func hasWindow(_ sink: UnsafeMutablePointer<GstElement>?) -> Bool {
        guard let sink else { return false }
        let object = UnsafeMutableRawPointer(sink)
        if g_type_check_instance_is_a(object.assumingMemoryBound(to: GTypeInstance.self), gst_video_overlay_get_type()) != 0 { return true }
        guard CGStreamer_is_bin(object) != 0, let found = gst_bin_get_by_interface(CGStreamer_as_bin(object), gst_video_overlay_get_type()) else { return false }
        gst_object_unref(UnsafeMutableRawPointer(found))
        return true
    }
}
