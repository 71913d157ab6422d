import BackendCore
import CGStreamer

/// The OSD's element: a `textoverlay` in the video filter chain, as an overlay (`FeatureContext.video.addOverlay`),
/// top left, in ``OSDSettings/colour`` on a shaded box, scaled with the picture (`auto-resize`).
/// Drawn by GStreamer into the frames, so it shows with every video sink; while paused nothing
/// flows, so a new text needs the paused picture drawn again (``OSDFeature``).
///
/// **Thread:** made, changed and released on the loop thread; `textoverlay` locks its own
/// properties against the streaming thread that draws.
final class OSDOverlay {
    /// The `textoverlay` (an owned reference), nil when the plugin is missing.
    private(set) var element: UnsafeMutablePointer<GstElement>?
    /// The markup shown now ("" when hidden).
    private(set) var text = ""

    /// Makes the `textoverlay` (`gst_element_factory_make`, `gst_object_ref_sink`).
    init(settings: OSDSettings) {
        guard let made = gst_element_factory_make("textoverlay", "gstplay-osd") else { return }
        _ = gst_object_ref_sink(UnsafeMutableRawPointer(made))
        let object = UnsafeMutableRawPointer(made)
        CGStreamer_set_from_string(object, "valignment", "top")
        CGStreamer_set_from_string(object, "halignment", "left")
        CGStreamer_set_from_string(object, "line-alignment", "left")
        CGStreamer_set_string(object, "font-desc", settings.fontDescription)
        CGStreamer_set_uint(object, "color", settings.colour)
        CGStreamer_set_boolean(object, "shaded-background", 1)
        CGStreamer_set_boolean(object, "wait-text", 0)
        CGStreamer_set_boolean(object, "silent", 1)
        element = made
    }

    /// Shows `markup` (`text`, `silent` off), or hides the OSD when it is empty. Returns whether
    /// what is drawn changed.
    @discardableResult
    func show(_ markup: String) -> Bool {
        guard let element, markup != text else { return false }
        text = markup
        let object = UnsafeMutableRawPointer(element)
        CGStreamer_set_string(object, "text", markup)
        CGStreamer_set_boolean(object, "silent", markup.isEmpty ? 1 : 0)
        return true
    }

    /// Drops the reference (the filter chain keeps its own until the pipeline goes).
    func release() {
        if let element { gst_object_unref(UnsafeMutableRawPointer(element)) }
        element = nil
    }
}

/// How the OSD looks and how long it stays (`StandardFeatures.osd`).
public struct OSDSettings: Sendable, Hashable {
    /// Shown at all (false: no element is added; `Player.showOSD` does nothing).
    public var enabled = true
    /// How long a message stays after the last change (mpv: 1 s; here 1.5 s); while paused the
    /// OSD then goes back to `Paused` instead of hiding.
    public var duration: Duration = .milliseconds(1500)
    /// Pango font, scaled with the picture's width (640 pixels: as given).
    public var fontDescription = "Sans Bold 20"
    /// ARGB text colour (`textoverlay` `color`): a warm yellow, told apart from white subtitles.
    public var colour: UInt32 = 0xFFFF_D23C
    /// A seek that jumps, or the pointer over the bottom strip of the picture, also shows a bar
    /// along the bottom and a picture of the target time above it (mpv's thumbnail scripts;
    /// `--osd-seek-preview`). Only with a picture source (``OSDFeature/init(settings:describe:previewSource:)``).
    public var seekPreview = true

    /// The defaults.
    public init() {}
}
