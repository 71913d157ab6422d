import BackendCore
import CGStreamer
import GLibSupport
import Synchronization

/// Subtitles drawn by playbin (``SubtitleRendering/overlay``) with the cues still published: no
/// `text-sink`, so playsink draws text and bitmap subtitles with its `subtitleoverlay`
/// (`textoverlay` for text, `dvdspu` for DVD/PGS pictures); a buffer probe on its text
/// renderer's `text_sink` pad reads each parsed text cue (``SubtitleCueSink/read(_:pad:)``) and hands it to the
/// loop thread, where it is held until due (cues reach that pad ahead of the picture, by what
/// playsink's subtitle queue holds). The overlay and its renderer are found with playbin's
/// `deep-element-added` (`FeaturePipeline.watchElements`) and styled as they come (``SubtitleStyle``).
///
/// **Threads:** `deep-element-added` and the probe run on streaming threads; the style and the
/// subtitle file sit behind one `Mutex`. ``restyle(_:in:hidden:)`` and
/// ``subtitleFileChanged(to:)`` run on the loop thread. Each probe's box is
/// released by its destroy-notify when the pad goes; the signal handler is tracked by the core.
final class SubtitleOverlayTap: Sendable {
    /// What the loop thread sets and the streaming threads read.
    private struct State {
        var style: SubtitleStyle
        /// The external subtitle file set as playbin's `suburi` (``subtitleFileChanged(to:)``).
        var subtitleFile: String?
    }
    private let state: Mutex<State>
    private let deliver: @Sendable (SubtitleCueSink.RawCue) -> Void

    /// A tap drawing with `style` and handing cues to `deliver` (streaming thread).
    init(style: SubtitleStyle, deliver: @escaping @Sendable (SubtitleCueSink.RawCue) -> Void) {
        self.state = Mutex(State(style: style))
        self.deliver = deliver
    }

    /// The style now in use.
    var currentStyle: SubtitleStyle { state.withLock { $0.style } }

    /// Watches the elements playbin adds (`FeaturePipeline.watchElements`: `deep-element-added`,
    /// tracked by the core).
    func connect(to context: FeatureContext) {
        context.pipeline.watchElements(added: { [self] element, parent in added(element, parent: parent) })
    }

    /// Says which file is playbin's `suburi` from now on (nil: none), as it is set
    /// (`FeaturePipeline.setSubtitleURI`): its decodebin is told to stop at parsed text. Loop thread.
    func subtitleFileChanged(to uri: String?) { state.withLock { $0.subtitleFile = uri } }

    /// Sets the style and applies it to every `subtitleoverlay` in `pipeline` and its renderer
    /// (`silent` also when `hidden`: subtitles switched off). Loop thread.
    func restyle(_ change: (inout SubtitleStyle) -> Void, in pipeline: FeaturePipeline, hidden: Bool) {
        let now = state.withLock { state -> SubtitleStyle in change(&state.style); return state.style }
        pipeline.forEachElement(madeBy: "subtitleoverlay") { overlay in
            Self.apply(now, toOverlay: UnsafeMutableRawPointer(overlay), hidden: hidden)
            Self.forEach(factory: "textoverlay", in: overlay) { Self.apply(now, toRenderer: $0) }
        }
    }

    // MARK: Streaming threads

    /// `deep-element-added`: playsink fills its text bin before adding it, so a bin is searched
    /// for overlays too (each is tapped once: marked with `g_object_set_data`).
    private func added(_ element: UnsafeMutablePointer<GstElement>, parent: UnsafeMutableRawPointer?) {
        switch Self.factoryName(of: element) {
        case "uridecodebin":
            Self.parseSubtitleFile(in: element, suburi: state.withLock { $0.subtitleFile })
        case "subtitleoverlay":
            tap(UnsafeMutableRawPointer(element))
        case "textoverlay":
            guard let parent, Self.factoryName(of: parent.assumingMemoryBound(to: GstElement.self)) == "subtitleoverlay" else { return }
            Self.apply(currentStyle, toRenderer: UnsafeMutableRawPointer(element))
            addProbe(on: element)
        default:
            Self.forEach(factory: "subtitleoverlay", in: element) { tap($0) }
        }
    }

    private func tap(_ overlay: UnsafeMutableRawPointer) {
        let object = overlay.assumingMemoryBound(to: GObject.self)
        guard g_object_get_data(object, Self.tappedKey) == nil else { return }
        g_object_set_data(object, Self.tappedKey, overlay)
        Self.apply(currentStyle, toOverlay: overlay, hidden: false)
    }

    private static let tappedKey = "gstplay-cue-tap"

    /// playbin stops decoding its `suburi` at `application/x-subtitle` (the whole file), which
    /// `subtitleoverlay` then parses itself, with the segment of a byte stream: after a seek its
    /// cues ran from the seek point as if from 0 (seen: "First cue" drawn at 1.5 s and 2.5 s of
    /// `subtitles.srt`). Stopping at parsed text (`uridecodebin` `caps`, set as playbin adds the
    /// subtitle's decodebin) puts `subparse` in front, timed like an embedded track.
    private static func parseSubtitleFile(in decodebin: UnsafeMutablePointer<GstElement>, suburi: String?) {
        let object = UnsafeMutableRawPointer(decodebin)
        guard let suburi,
              String(takingGLibString: CGStreamer_get_string(object, "uri")) == suburi,
              let caps = gst_caps_from_string(parsedSubtitleCaps) else { return }
        CGStreamer_set_object(object, "caps", UnsafeMutableRawPointer(caps))
        gst_caps_unref(caps)
    }

    /// Parsed text and the bitmap formats `subtitleoverlay` renders (`dvdspu`).
    private static let parsedSubtitleCaps = "text/x-raw; subpicture/x-dvd; subpicture/x-pgs; subpicture/x-dvb; subpicture/x-xsub"

    /// A buffer probe on the text renderer's `text_sink` (`gst_pad_add_probe`): parsed text
    /// buffers become cues. (The overlay's own `subtitle_sink` can carry a whole unparsed file,
    /// `application/x-subtitle`, from `suburi`: `subtitleoverlay` parses it inside.) Each buffer
    /// also re-applies the renderer's position: `subtitleoverlay` sets up its renderer after
    /// adding it, over what ``added(_:parent:)`` set.
    private func addProbe(on renderer: UnsafeMutablePointer<GstElement>) {
        guard let pad = gst_element_get_static_pad(renderer, "text_sink") else { return }
        defer { gst_object_unref(UnsafeMutableRawPointer(pad)) }
        _ = gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, { pad, info, data in
            guard let pad, let info, let data, let buffer = CGStreamer_probe_info_buffer(info), SubtitleOverlayTap.carriesText(pad) else { return GST_PAD_PROBE_OK }
            let tap = CallbackBox<SubtitleOverlayTap>.from(data).value
            if let renderer = gst_pad_get_parent_element(pad) {
                SubtitleOverlayTap.apply(tap.currentStyle, toRenderer: UnsafeMutableRawPointer(renderer))
                gst_object_unref(UnsafeMutableRawPointer(renderer))
            }
            if let cue = SubtitleCueSink.read(buffer, pad: pad) { tap.deliver(cue) }
            return GST_PAD_PROBE_OK
        }, CallbackBox(self).retainedPointer, callbackBoxRelease)
    }

    /// The pad's caps are text (`text/x-raw`), not a bitmap subtitle (`subpicture/…`).
    private static func carriesText(_ pad: UnsafeMutablePointer<GstPad>) -> Bool {
        guard let caps = gst_pad_get_current_caps(pad) else { return false }
        defer { gst_caps_unref(caps) }
        guard let structure = gst_caps_get_structure(caps, 0), let name = gst_structure_get_name(structure) else { return false }
        return String(cString: name).hasPrefix("text/")
    }

    // MARK: Any thread

    private static func apply(_ style: SubtitleStyle, toOverlay overlay: UnsafeMutableRawPointer, hidden: Bool) {
        CGStreamer_set_boolean(overlay, "silent", (hidden || !style.visible) ? 1 : 0)
        CGStreamer_set_string(overlay, "font-desc", style.fontDescription)
    }

    private static func apply(_ style: SubtitleStyle, toRenderer renderer: UnsafeMutableRawPointer) {
        guard let y = style.rendererYPosition else { return }
        CGStreamer_set_from_string(renderer, "valignment", "position")
        CGStreamer_set_double(renderer, "ypos", y)
    }

    static func factoryName(of element: UnsafeMutablePointer<GstElement>) -> String? {
        guard let factory = gst_element_get_factory(element) else { return nil }
        return String(takingGLibString: gst_object_get_name(CGStreamer_as_object(UnsafeMutableRawPointer(factory))))
    }

    /// Calls `body` with every element made by `factory` in `bin`, recursively
    /// (`gst_bin_iterate_all_by_element_factory_name`).
    static func forEach(factory: String, in bin: UnsafeMutablePointer<GstElement>, _ body: (UnsafeMutableRawPointer) -> Void) {
        guard CGStreamer_is_bin(UnsafeMutableRawPointer(bin)) != 0,
              let iterator = gst_bin_iterate_all_by_element_factory_name(CGStreamer_as_bin(UnsafeMutableRawPointer(bin)), factory) else { return }
        defer { gst_iterator_free(iterator) }
        var value = GValue()
        while gst_iterator_next(iterator, &value) == GST_ITERATOR_OK {
            if let element = g_value_get_object(&value) { body(element) }
            g_value_reset(&value)
        }
        g_value_unset(&value)
    }
}
