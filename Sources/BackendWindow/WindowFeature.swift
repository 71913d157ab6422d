import BackendCore
import CGStreamer

/// The video window as a `PlayerFeature` (issue #10): the app's render target or the sink's own
/// window, its title (tag or file name), fullscreen, keys typed into it, the render rectangle and
/// the video gravity. Its own target because it links Xlib: a player made without it links no libX11.
///
/// **Thread:** every method runs on the player's loop thread (`PlayerFeature`); the public API
/// is the `Player` extension (`setRenderTarget(windowHandle:)`, `toggleFullscreen()`…), which queues
/// its work there with `Player.withFeature(_:_:)`. `@unchecked Sendable` because its state
/// (`VideoWindow`) is touched on that thread only.
public final class WindowFeature: PlayerFeature, @unchecked Sendable {
    /// The window's state and GStreamer/Xlib calls (loop thread).
    let window = VideoWindow()
    /// The core's context, kept from ``attach(to:)`` (loop thread).
    private var context: FeatureContext?

    /// A window feature for one player.
    public init() {}

    /// Uses the video sink's `GstVideoOverlay` and, when the sink draws into a window, sets a
    /// `videocrop` as playbin's `video-filter` (for ``VideoGravity/fill``; the core then reads the
    /// media size on the filter's sink pad, before the crop).
    public func attach(to context: FeatureContext) {
        self.context = context
        guard let video = context.videoSink, let playbin = context.playbin, window.attach(sink: video),
              let crop = window.makeCropFilter() else { return }
        CGStreamer_set_object(UnsafeMutableRawPointer(playbin), "video-filter", UnsafeMutableRawPointer(crop))
    }

    /// Drops the overlay and crop references and closes the X connection.
    public func teardown() {
        window.teardown()
        context = nil
    }

    /// Forgets the old media's title and size; the new media's file name is the title until a
    /// title tag arrives.
    public func resetForNewMedia(uri: String?) {
        window.reset()
        window.setFallbackTitle(uri.map(VideoWindow.displayName(ofURI:)))
    }

    /// Title tags (`GST_MESSAGE_TAG`, passed on), the sink's `have-window-handle` (passed on) and
    /// `GstNavigation` key presses (consumed, published as ``WindowEvent/key(_:)``).
    public func handle(message: UnsafeMutablePointer<GstMessage>) -> MessageDisposition {
        switch CGStreamer_message_type(message) {
        case GST_MESSAGE_TAG:
            withTags(of: message) { window.absorb(tags: $0) }
        case GST_MESSAGE_ELEMENT:
            if let key = window.handleElementMessage(message) {
                context?.publish(WindowEvent.key(key.name))
                return .consumed
            }
        default: break
        }
        return .proceed
    }

    /// The media size feeds the fill crop; an error means the sink went to NULL and its own window is gone.
    public func observe(_ event: PlayerEvent) {
        switch event {
        case .mediaSize(let size): window.mediaSizeChanged(size)
        case .error: window.sinkStopped()
        default: break
        }
    }

    /// Toggles fullscreen and publishes ``WindowEvent/fullscreenChanged(_:)`` when it changed.
    func toggleFullscreen() {
        if let fullscreen = window.toggleFullscreen() { context?.publish(WindowEvent.fullscreenChanged(fullscreen)) }
    }
}
