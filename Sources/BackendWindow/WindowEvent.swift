import BackendCore

/// The video window's events (`PlayerEvent.feature(_:)`, read with
/// `event.payload(as: WindowEvent.self)`), published on the loop thread by ``WindowFeature``.
public enum WindowEvent: FeatureEventPayload {
    /// A key was pressed in the video window (`GstNavigation` key event from the sink): X keysym
    /// names such as `space`, `Left`, `Right`, `Up`, `Down`, `q`, `f`. The frontend decides what it does.
    case key(String)
    /// The sink's own window entered (true) or left (false) fullscreen (`Player.toggleFullscreen()`).
    case fullscreenChanged(Bool)
}
