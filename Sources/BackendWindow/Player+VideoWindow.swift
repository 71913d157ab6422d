import BackendCore

/// The video window: embedding into an app's window, the render rectangle, gravity, fullscreen.
/// Every method is safe from any thread and runs on the loop thread
/// (``WindowFeature``, queued with `Player.withFeature(_:_:)` like the other commands); a
/// player without a ``WindowFeature`` ignores them.
extension Player {
    /// Draws the video into the app's window `windowHandle` (an X11 `Window` id as `UInt`) instead
    /// of a window of the sink's own; nil goes back to the sink's own window
    /// (`gst_video_overlay_set_window_handle`). Set it before `load(_:startAt:)` so that the sink never
    /// opens a window; changing it during playback works with `xvimagesink`, `ximagesink` and
    /// `glimagesink`. The app keeps the window alive until `shutdown()` or until it sets another.
    public func setRenderTarget(windowHandle: UInt?) {
        withFeature(WindowFeature.self) { feature, _ in feature.window.setRenderTarget(windowHandle) }
    }

    /// Draws into `rectangle` of the window (window pixels), or the whole window when nil
    /// (`gst_video_overlay_set_render_rectangle`; `xvimagesink`, `glimagesink`).
    public func setRenderRectangle(_ rectangle: RenderRectangle?) {
        withFeature(WindowFeature.self) { feature, _ in feature.window.setRenderRectangle(rectangle) }
    }

    /// Redraws the last frame and re-reads the window's size (for ``VideoGravity/fill``); call it
    /// when the app's window was exposed or resized (`gst_video_overlay_expose`).
    public func expose() {
        withFeature(WindowFeature.self) { feature, _ in feature.window.expose() }
    }

    /// How the picture fills the window: ``VideoGravity/fit`` (default, bars),
    /// ``VideoGravity/fill`` (cropped with `videocrop`), ``VideoGravity/stretch`` (distorted);
    /// sink `force-aspect-ratio`. Fill needs a real video sink (not a fake or disabled one).
    public func setVideoGravity(_ gravity: VideoGravity) {
        withFeature(WindowFeature.self) { feature, _ in feature.window.setGravity(gravity) }
    }

    /// Toggles fullscreen on the window the sink opened (not on an app's render target):
    /// EWMH `_NET_WM_STATE_FULLSCREEN` with a window manager, else the window is resized to the
    /// screen. Publishes ``WindowEvent/fullscreenChanged(_:)`` when it changed.
    public func toggleFullscreen() {
        withFeature(WindowFeature.self) { feature, _ in feature.toggleFullscreen() }
    }

    /// Makes the sink's own window fullscreen (or not), as ``toggleFullscreen()`` does: at once
    /// when the window exists, else as soon as the sink opens it (so a player can start
    /// fullscreen; a window opened for a later item follows the last choice, also one made with
    /// ``toggleFullscreen()``). Publishes ``WindowEvent/fullscreenChanged(_:)`` when it changed.
    public func setFullscreen(_ fullscreen: Bool) {
        withFeature(WindowFeature.self) { feature, _ in feature.setFullscreen(fullscreen) }
    }
}
