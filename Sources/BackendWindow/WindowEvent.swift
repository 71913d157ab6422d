import BackendCore

/// The video window's events (`PlayerEvent.feature(_:)`, read with
/// `event.payload(as: WindowEvent.self)`), published on the loop thread by ``WindowFeature``.
public enum WindowEvent: FeatureEventPayload {
    /// A key was pressed in the video window (`GstNavigation` key event from the sink): X keysym
    /// names such as `space`, `Left`, `Right`, `Up`, `Down`, `q`, `f`; with Shift (or Caps Lock)
    /// held, the symbol typed, as the keyboard maps it: `S`, `greater`, `less`, `question`. The
    /// frontend decides what it does.
    case key(String)
    /// The sink's own window entered (true) or left (false) fullscreen (`Player.toggleFullscreen()`).
    case fullscreenChanged(Bool)
    /// A mouse button was clicked in the video window (`GstNavigation` `mouse-button-press`):
    /// `button` 1 left, 2 middle, 3 right; `count` 1 for a single click (published once the
    /// double-click interval passed without a second press), 2 for a double click (published at
    /// the second press). The frontend decides what it does.
    case clicked(button: Int, count: Int)
    /// The mouse wheel turned over the video window (`GstNavigation` `mouse-scroll`, or buttons
    /// 4–7 on sinks that report the wheel as buttons): `deltaY` > 0 up (away from the user),
    /// `deltaX` > 0 right, one notch each.
    case scrolled(deltaX: Double, deltaY: Double)
    /// The sink's own window was closed: the window manager's close button (`WM_DELETE_WINDOW`,
    /// which the sink turns into a "window was closed" error) or the window was destroyed. The
    /// player is stopped (no error is reported and the queue does not move on); the frontend
    /// decides what follows (gstplay exits 0).
    case closed
}
