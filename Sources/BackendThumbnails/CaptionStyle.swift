import BackendCore
import CGStreamer

/// How captions look on thumbnails and contact-sheet tiles: bold, bottom left, on a shaded
/// band, a fixed font size from the image width (no `auto-resize`, which scales fonts to a
/// 640-pixel-wide frame). Applied to a `textoverlay`. Loop or worker thread that owns it.
enum CaptionStyle {
    /// The Pango font size for images `width` pixels wide.
    static func fontSize(forWidth width: Int) -> Int { max(7, width / 24) }

    /// Sets the style properties on a `textoverlay` (not the text).
    static func apply(to overlay: UnsafeMutablePointer<GstElement>, width: Int) {
        let text = UnsafeMutableRawPointer(overlay)
        CGStreamer_set_string(text, "font-desc", "Sans Bold \(fontSize(forWidth: width))")
        CGStreamer_set_from_string(text, "valignment", "bottom")
        CGStreamer_set_from_string(text, "halignment", "left")
        CGStreamer_set_boolean(text, "shaded-background", 1)
        CGStreamer_set_boolean(text, "auto-resize", 0)
        CGStreamer_set_int(text, "xpad", 4)
        CGStreamer_set_int(text, "ypad", 4)
    }

    /// The caption for a frame time: `H:MM:SS.mmm`.
    static func text(for time: MediaTime) -> String { time.formatted(fractionDigits: 3) }
}
