import BackendCore

/// Drawn subtitles: shown or hidden, size, height. Any thread; applied on the loop
/// thread (`Player.withFeature(_:_:)`) to playbin's `subtitleoverlay`. Cue events are published
/// whether subtitles are drawn or hidden. A player without a ``TracksFeature`` ignores them.
extension Player {
    /// How drawn subtitles look now (the tracks feature's snapshot section). Any thread.
    public var subtitleStyle: SubtitleStyle { snapshot.features[TracksSnapshot.self]?.subtitleStyle ?? SubtitleStyle() }

    /// Whether subtitles are drawn on the picture (a video window with ``SubtitleRendering/automatic``,
    /// or ``SubtitleRendering/overlay``); false: cue events only. Any thread.
    public var subtitlesDrawn: Bool { snapshot.features[TracksSnapshot.self]?.subtitlesDrawn ?? false }

    /// Replaces the style of drawn subtitles (`subtitleoverlay` `silent`/`font-desc`, the
    /// renderer's `valignment`/`ypos`); it shows from the next video frame.
    public func setSubtitleStyle(_ style: SubtitleStyle) {
        withFeature(TracksFeature.self) { feature, _ in feature.restyleSubtitles { $0 = style } }
    }

    /// Shows (true) or hides (false) drawn subtitles (mpv's `sub-visibility`).
    public func setSubtitlesVisible(_ visible: Bool) {
        withFeature(TracksFeature.self) { feature, _ in feature.restyleSubtitles { $0.visible = visible } }
    }

    /// Toggles ``SubtitleStyle/visible`` (mpv's `v` key).
    public func toggleSubtitleVisibility() {
        withFeature(TracksFeature.self) { feature, _ in feature.restyleSubtitles { $0.visible.toggle() } }
    }
}
