import BackendCore

/// How drawn subtitles look (``SubtitleRendering/overlay``): shown or hidden, their size and
/// their height on the picture, like mpv's `sub-visibility`, `sub-scale` and `sub-pos`. A plain
/// value; the tracks feature applies it to playbin's `subtitleoverlay` and its `textoverlay`
/// renderer on the loop thread and, for elements playbin adds later, on the streaming thread that
/// adds them.
public struct SubtitleStyle: Sendable, Hashable, Codable {
    /// Drawn (true, the default) or hidden (`subtitleoverlay` `silent`); cue events go on either way.
    public var visible = true
    /// Font size factor: 1 is `Sans 28` at 640 pixels of video width (the renderer scales the
    /// font with the picture); `subtitleoverlay` `font-desc`. Clamped to 0.1…10.
    public var scale = 1.0
    /// Height of the text on the picture in percent: 100 the bottom (default), 0 the top
    /// (the renderer's `valignment=position` and `ypos`); nil keeps the renderer's default
    /// (on the baseline near the bottom).
    public var position: Double?

    /// The defaults: visible, scale 1, the renderer's own position.
    public init(visible: Bool = true, scale: Double = 1.0, position: Double? = nil) {
        self.visible = visible
        self.scale = scale
        self.position = position
    }

    /// The Pango font description for ``scale`` (`Sans 28` at scale 1).
    public var fontDescription: String {
        let size = (28 * min(max(scale, 0.1), 10) * 10).rounded() / 10
        return "Sans \(size)"
    }

    /// `ypos` for the renderer (0 top … 1 bottom), nil for the default position.
    var rendererYPosition: Double? { position.map { min(max($0, 0), 100) / 100 } }
}
