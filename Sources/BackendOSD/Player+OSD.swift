import BackendCore

/// The on-screen display (``OSDFeature``). Any thread; runs on the loop thread
/// (`Player.withFeature(_:_:)`). Does nothing without a video window or an ``OSDFeature``.
extension Player {
    /// Shows `message` (nil: none) and, with `progress`, the position/duration and a bar, for
    /// ``OSDSettings/duration`` (mpv's `show-text` / `show-progress`, key `o`); while paused it is
    /// drawn on the paused picture at once, and `Paused` comes back after it.
    public func showOSD(message: String? = nil, progress: Bool = true) {
        withFeature(OSDFeature.self) { feature, _ in feature.show(message: message, progress: progress) }
    }
}
