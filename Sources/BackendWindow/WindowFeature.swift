import BackendCore
import CGStreamer
import GLibSupport

/// The video window as a `PlayerFeature`: the app's render target or the
/// sink's own window, its title (the media's title tag, else the file name), fullscreen, keys,
/// mouse clicks and the wheel typed into it, the pointer hidden over playing video, a clean
/// close, the screensaver kept off while video plays, the render rectangle and the video
/// gravity. Its own target because it links Xlib: a player made without it links no libX11.
///
/// **Thread:** every method runs on the player's loop thread (`PlayerFeature`), except `init`
/// (the caller's, before the player exists); the public API is the `Player` extension
/// (`setRenderTarget(windowHandle:)`, `toggleFullscreen()`…), which queues its work there with
/// `Player.withFeature(_:_:)`. Its state is touched on that thread only (it is not `Sendable`: `Player` holds it through a `LoopConfined` handle).
public final class WindowFeature: PlayerFeature, MessageInterceptor {
    /// The window's state and GStreamer/Xlib calls (loop thread).
    let window = VideoWindow()
    /// The core's context, kept from ``attach(to:)`` (loop thread).
    var context: FeatureContext?
    /// Reads the media's title from the media info (the umbrella reads the tracks feature's tags).
    private let mediaTitle: @Sendable (MediaInfo) -> String?
    /// Told every pointer motion over the window, in the video's pixels (loop thread).
    let pointerMoved: ((Double, Double) -> Void)?
    /// Keeps the screensaver off while video plays (D-Bus, else Xlib).
    let screenSaver: ScreenSaverInhibitor
    /// Single and double clicks (``WindowFeature+Pointer``).
    var clicks = ClickCounter()
    /// The timer that reports a single click once the double-click interval passed.
    var clickTimer: TimerSource?
    /// The timer that hides the pointer after ``pointerIdle`` without motion.
    var pointerTimer: TimerSource?
    /// The watch on the Backend's X connection (its window's `DestroyNotify`).
    var displayWatch: TimerSource?
    /// The player's state, from its events: the pointer hides and the screensaver is held only while playing.
    var state: PlayerState = .idle
    /// The sink's own window whose `DestroyNotify` the display watch looks for.
    var watchedWindow: UInt?
    /// The window was closed and reported (``WindowEvent/closed``): reported once per window.
    var closeReported = false
    /// Fullscreen as last asked for (``setFullscreen(_:)`` or a toggle): a window the sink opens
    /// later (the first, or a new one for the next item) starts so.
    var wantsFullscreen = false

    /// A window feature for one player. `mediaTitle` reads the media's title (a container-scope
    /// title tag) from the media info published at preroll; nil (the default) titles the window
    /// with the file name only. With `DISPLAY` set, the Backend's X connection opens here, before
    /// the player probes its sinks: an X server that resets when its last client disconnects
    /// (Xvfb or Xorg started without `-noreset`, as under some launchers) then cannot refuse a
    /// sink between two probes (it made one start in two pick `glimagesink` instead of `ximagesink`).
    /// `pointerMoved` is told every pointer motion over the window at (x, y) in the video's
    /// pixels, on the loop thread (the umbrella passes it to the OSD's seek preview).
    public init(mediaTitle: @escaping @Sendable (MediaInfo) -> String? = { _ in nil },
                pointerMoved: ((Double, Double) -> Void)? = nil) {
        self.mediaTitle = mediaTitle
        self.pointerMoved = pointerMoved
        screenSaver = ScreenSaverInhibitor(x11: window.x11)
        window.openDisplay()
    }

    /// Intercepts bus messages (`ExtensionOrder/videoWindow`), uses the video sink's
    /// `GstVideoOverlay` and, when the sink draws into a window, adds a `videocrop` as the first
    /// video filter (for ``VideoGravity/fill``; the core then reads the media size on the filter
    /// chain's sink pad, before the crop).
    public func attach(to context: FeatureContext) {
        self.context = context
        context.interceptMessages(self, order: .videoWindow)
        guard let video = context.video.sink, window.attach(sink: video), let crop = window.makeCropFilter() else { return }
        context.video.addFilter(crop, order: .videoWindow)
    }

    /// Lets the screensaver go, removes the timers and the display watch, drops the overlay and
    /// crop references and closes the X connection.
    public func teardown() {
        screenSaver.teardown()
        clickTimer?.destroy()
        pointerTimer?.destroy()
        displayWatch?.destroy()
        clickTimer = nil
        pointerTimer = nil
        displayWatch = nil
        window.teardown()
        context = nil
    }

    /// Forgets the old media's title and size; the new media's file name is the title until the
    /// media info names a title.
    public func resetForNewMedia(uri: String?) {
        window.reset()
        window.setFallbackTitle(uri.map(VideoWindow.displayName(ofURI:)))
    }

    /// Tag messages (the title is put back), the sink's `have-window-handle` (passed on; its
    /// window is then watched), `GstNavigation`
    /// keys and mouse input (consumed, published as ``WindowEvent``), and the error a sink posts
    /// when its window was closed (consumed: the player stops, ``WindowEvent/closed``).
    public func intercept(_ message: UnsafeMutablePointer<GstMessage>) -> MessageDisposition {
        switch CGStreamer_message_type(message) {
        case GST_MESSAGE_ELEMENT:
            if let key = window.handleElementMessage(message) {
                context?.publish(WindowEvent.key(key.name))
                return .consumed
            }
            if let input = PointerInput(message: message) {
                handle(input)
                return .consumed
            }
            if window.ownWindow != nil, window.ownWindow != watchedWindow { ownWindowAppeared() }
        case GST_MESSAGE_TAG:
            window.applyTitle()   // a sink that got a title tag has just retitled its window with it
        case GST_MESSAGE_ERROR where isWindowClosedError(message):
            windowClosed()
            return .consumed
        default: break
        }
        return .proceed
    }

    /// The media size feeds the fill crop; the state decides the pointer and the screensaver; the
    /// media info names the title; a gapless hand-over (`uriLoaded` with no reset) retitles; an
    /// error means the sink went to NULL and its own window is gone.
    public func observe(_ event: PlayerEvent) {
        switch event {
        case .mediaSize(let size): window.mediaSizeChanged(size)
        case .mediaInfo(let info): window.setMediaTitle(mediaTitle(info))
        case .uriLoaded(let uri) where VideoWindow.displayName(ofURI: uri) != window.fallbackTitle:
            window.setMediaTitle(nil)
            window.setFallbackTitle(VideoWindow.displayName(ofURI: uri))
        case .stateChanged(_, let to): state = to
        case .error: window.sinkStopped()
        default: break
        }
        updatePlayingVideo()
    }

    /// Toggles fullscreen and publishes ``WindowEvent/fullscreenChanged(_:)`` when it changed.
    func toggleFullscreen() {
        guard let fullscreen = window.toggleFullscreen() else { return }
        wantsFullscreen = fullscreen
        context?.publish(WindowEvent.fullscreenChanged(fullscreen))
    }

    /// Makes the sink's window fullscreen or not, now if it exists, else when it appears.
    func setFullscreen(_ fullscreen: Bool) {
        if window.isFullscreen != fullscreen { toggleFullscreen() }
        wantsFullscreen = fullscreen   // also without a window yet: ownWindowAppeared() applies it
    }

    /// Holds the screensaver and arms the pointer timer while video plays; lets both go otherwise.
    private func updatePlayingVideo() {
        let playing = state == .playing && window.showsVideo
        screenSaver.setInhibited(playing)
        if !playing { showPointer() } else if pointerTimer == nil, !window.pointerHidden { armPointerTimer() }
    }
}

public extension ExtensionOrder {
    /// The video window's rank among the message interceptors (after adaptive streaming: it
    /// consumes navigation input and its window's closing error) and among the video filters
    /// (its crop, the only filter of the standard features, sees the stream's own picture).
    static let videoWindow = ExtensionOrder(400)
}
