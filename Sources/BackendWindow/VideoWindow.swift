import BackendCore
import CGStreamer
import Glibc

/// The video window: the app's own (``setRenderTarget(_:)``) or the one the sink opens, its title,
/// fullscreen, keys typed into it, the render rectangle and the video gravity.
///
/// **Thread:** the loop thread only. It holds a reference on the element that implements
/// `GstVideoOverlay` (the sink, or the element of a sink bin found with `gst_bin_get_by_interface`)
/// and on the `videocrop` it made for playbin's `video-filter`; ``teardown()`` drops both and
/// closes the X connection.
final class VideoWindow {
    /// A key typed into the video window (`GstNavigation` key-press; X keysym names such as
    /// `space`, `Left`, `q`, `f`, and with Shift the symbol typed: `S`, `greater`, ``keyName(_:modifiers:lookup:)``).
    struct Key: Sendable, Equatable {
        /// The keysym name the sink reported.
        var name: String
    }

    private var overlay: UnsafeMutablePointer<GstElement>?
    private var aspectElement: UnsafeMutablePointer<GstElement>?
    private var crop: UnsafeMutablePointer<GstElement>?
    /// The Backend's own X connection (title, fullscreen, cursor, destroy watch, screensaver fallback).
    let x11 = X11Connection()

    /// The app's window (``setRenderTarget(_:)``); the sink draws into it and opens none.
    private(set) var renderTarget: UInt?
    /// The window the sink opened itself (`have-window-handle`), while it exists.
    private(set) var ownWindow: UInt?
    private(set) var renderRectangle: RenderRectangle?
    private(set) var gravity: VideoGravity = .fit
    private(set) var isFullscreen = false
    private var mediaSize: VideoSize?
    private var mediaTitle: String?
    private(set) var fallbackTitle: String?
    /// The crop last applied, for tests and to skip unchanged updates.
    private(set) var appliedCrop: VideoCrop = .none

    /// Uses `sink` (the element set as playbin's `video-sink`): keeps a reference on its overlay
    /// element and applies the render target, rectangle and gravity set so far. Returns whether
    /// the sink draws into a window (implements `GstVideoOverlay`); fake sinks do not.
    @discardableResult
    func attach(sink: UnsafeMutablePointer<GstElement>) -> Bool {
        detachSink()
        overlay = Self.overlayElement(in: sink)
        if CGStreamer_has_property(UnsafeMutableRawPointer(sink), "force-aspect-ratio") != 0 {
            aspectElement = sink
        } else if let overlay, CGStreamer_has_property(UnsafeMutableRawPointer(overlay), "force-aspect-ratio") != 0 {
            aspectElement = overlay
        }
        if let aspectElement { _ = gst_object_ref(UnsafeMutableRawPointer(aspectElement)) }
        if let renderTarget { setRenderTarget(renderTarget) }
        if let renderRectangle { setRenderRectangle(renderRectangle) }
        applyGravity()
        return overlay != nil
    }

    /// The `videocrop` made by ``makeCropFilter()``, if any: its sink pad carries the stream's own
    /// size (the video sink's carries the cropped one), so the media size is read there.
    var cropElement: UnsafeMutablePointer<GstElement>? { crop }

    /// A `videocrop` for playbin's `video-filter` (new floating reference; this object keeps its
    /// own), so that ``VideoGravity/fill`` can crop; nil when the plugin is missing.
    func makeCropFilter() -> UnsafeMutablePointer<GstElement>? {
        if crop == nil, let element = gst_element_factory_make("videocrop", "gstplay-fill-crop") {
            _ = gst_object_ref(UnsafeMutableRawPointer(element)) // ours; the floating one goes to playbin
            crop = element
        }
        return crop
    }

    /// Draws into the app's window `handle` (an X11 `Window` id), or into a window of the sink's
    /// own when nil (`gst_video_overlay_set_window_handle`; works before and during playback).
    func setRenderTarget(_ handle: UInt?) {
        renderTarget = handle
        if handle != nil { ownWindow = nil }
        guard let overlay else { return }
        gst_video_overlay_set_window_handle(Self.asOverlay(overlay), guintptr(handle ?? 0))
        expose()
    }

    /// Draws into `rectangle` of the window, or all of it when nil (`gst_video_overlay_set_render_rectangle`,
    /// -1 for "the whole window"). Supported by `xvimagesink` and `glimagesink`; `ximagesink` ignores it.
    func setRenderRectangle(_ rectangle: RenderRectangle?) {
        renderRectangle = rectangle
        if let overlay {
            let r = rectangle ?? RenderRectangle(x: -1, y: -1, width: -1, height: -1)
            _ = gst_video_overlay_set_render_rectangle(Self.asOverlay(overlay), gint(r.x), gint(r.y), gint(r.width), gint(r.height))
        }
        updateCrop()
        expose()
    }

    /// Redraws the last frame (`gst_video_overlay_expose`); call after the window was resized or
    /// uncovered. Also recomputes the fill crop for the window's new size.
    func expose() {
        updateCrop()
        guard let overlay, overlay.pointee.current_state.rawValue >= GST_STATE_PAUSED.rawValue else { return }
        gst_video_overlay_expose(Self.asOverlay(overlay))
    }

    /// Sets the gravity: `force-aspect-ratio` on the sink, and the crop for ``VideoGravity/fill``.
    func setGravity(_ gravity: VideoGravity) {
        self.gravity = gravity
        applyGravity()
    }

    /// The stream's display size changed (or went away): the fill crop depends on it.
    func mediaSizeChanged(_ size: VideoSize?) {
        mediaSize = size
        updateCrop()
    }

    /// The title tag of the media; it wins over the file name.
    func setMediaTitle(_ title: String?) {
        mediaTitle = title
        applyTitle()
    }

    /// Opens the X connection now when `DISPLAY` is set (``X11Connection/open()``).
    func openDisplay() {
        if let display = getenv("DISPLAY"), display.pointee != 0 { x11.open() }
    }

    /// The pointer is hidden over the sink's own window (``WindowFeature`` idle timer).
    var pointerHidden = false

    /// A real video sink is attached and the media has a picture: video is on screen while playing.
    var showsVideo: Bool { overlay != nil && mediaSize != nil }

    /// The sink's own window was closed or destroyed: forget it (no title, fullscreen or crop for it).
    func forgetOwnWindow() {
        ownWindow = nil
        isFullscreen = false
    }

    /// The title to use while the media has no title tag (the file name).
    func setFallbackTitle(_ title: String?) {
        fallbackTitle = title
        applyTitle()
    }

    /// Toggles fullscreen on the window the sink opened (the app's own window is the app's
    /// business). Returns the new state, or nil when there is no such window or no X display.
    func toggleFullscreen() -> Bool? {
        guard renderTarget == nil, let ownWindow else { return nil }
        guard x11.setFullscreen(!isFullscreen, on: ownWindow) else { return nil }
        isFullscreen.toggle()
        expose()
        return isFullscreen
    }

    /// Looks at an element message from the bus: `have-window-handle` records the sink's window
    /// (and titles it); a `GstNavigation` key press is returned as a ``Key``
    /// (`gst_navigation_message_parse_event`, `gst_navigation_event_parse_key_event`).
    func handleElementMessage(_ message: UnsafeMutablePointer<GstMessage>) -> Key? {
        if let structure = gst_message_get_structure(message), gst_structure_has_name(structure, "have-window-handle") != 0 {
            var handle: guint64 = 0
            if renderTarget == nil, gst_structure_get_uint64(structure, "window-handle", &handle) != 0, handle != 0 {
                ownWindow = UInt(handle)
                isFullscreen = false
                applyTitle()
                updateCrop()
            }
            return nil
        }
        guard gst_navigation_message_get_type(message) == GST_NAVIGATION_MESSAGE_EVENT else { return nil }
        var event: UnsafeMutablePointer<GstEvent>?
        guard gst_navigation_message_parse_event(message, &event) != 0, let event else { return nil }
        defer { gst_event_unref(event) }
        guard gst_navigation_event_get_type(event) == GST_NAVIGATION_EVENT_KEY_PRESS else { return nil }
        var key: UnsafePointer<gchar>?
        guard gst_navigation_event_parse_key_event(event, &key) != 0, let key else { return nil }
        var state = GST_NAVIGATION_MODIFIER_NONE
        let modifiers = gst_navigation_event_parse_modifier_state(event, &state) != 0 ? UInt32(state.rawValue) : 0
        return Key(name: Self.keyName(String(cString: key), modifiers: modifiers, lookup: x11.keysymName))
    }

    /// The keysym name a key press stands for. The X sinks report the key's unshifted symbol
    /// (`XkbKeycodeToKeysym(…, 0, 0)`: Shift+S arrives as `s`, `>` as `period`) and the modifier
    /// state beside it (`GstNavigationModifierType`, X's own mask bits); with Shift or Lock held,
    /// `lookup` (the keyboard's mapping, ``X11Connection/keysymName(_:modifiers:)``) gives the
    /// symbol typed — `S`, `greater`, `question` — so the window's keys match the terminal's.
    /// Without an answer a letter is upper-cased and other keys stay as reported. Pure but for `lookup`.
    static func keyName(_ name: String, modifiers: UInt32, lookup: (String, UInt32) -> String?) -> String {
        let shiftOrLock = UInt32(GST_NAVIGATION_MODIFIER_SHIFT_MASK.rawValue | GST_NAVIGATION_MODIFIER_LOCK_MASK.rawValue)
        guard modifiers & shiftOrLock != 0 else { return name }
        if let typed = lookup(name, modifiers) { return typed }
        guard modifiers & UInt32(GST_NAVIGATION_MODIFIER_SHIFT_MASK.rawValue) != 0, name.count == 1,
              let letter = name.first, letter.isASCII, letter.isLowercase else { return name }
        return letter.uppercased()
    }

    /// The sink went to NULL: its own window is gone (a new one comes with the next `have-window-handle`).
    func sinkStopped() {
        ownWindow = nil
        isFullscreen = false
    }

    /// Forgets the media (title, size) for a new load; keeps the target, rectangle and gravity.
    func reset() {
        mediaTitle = nil
        fallbackTitle = nil
        mediaSize = nil
        updateCrop()
    }

    /// Drops every reference and closes the X connection; idempotent.
    func teardown() {
        detachSink()
        if let crop { gst_object_unref(UnsafeMutableRawPointer(crop)) }
        crop = nil
        ownWindow = nil
        x11.close()
    }

    // MARK: - Internals

    private func detachSink() {
        if let overlay { gst_object_unref(UnsafeMutableRawPointer(overlay)) }
        if let aspectElement { gst_object_unref(UnsafeMutableRawPointer(aspectElement)) }
        overlay = nil
        aspectElement = nil
    }

    /// Titles the sink's own window (again: the X sinks retitle it themselves, "title : program",
    /// when a title tag reaches them).
    func applyTitle() {
        guard let ownWindow, let title = mediaTitle ?? fallbackTitle else { return }
        x11.setTitle(TerminalText.escaped(title), of: ownWindow)   // a tag or file name: no raw controls to the WM
    }

    private func applyGravity() {
        if let aspectElement {
            CGStreamer_set_boolean(UnsafeMutableRawPointer(aspectElement), "force-aspect-ratio", gravity == .stretch ? 0 : 1)
        }
        updateCrop()
    }

    /// The size of the area the video is drawn into: the render rectangle, else the window's size.
    private func areaSize() -> (width: Int, height: Int)? {
        if let renderRectangle, renderRectangle.width > 0, renderRectangle.height > 0 {
            return (renderRectangle.width, renderRectangle.height)
        }
        guard let window = renderTarget ?? ownWindow else { return nil }
        return x11.size(of: window)
    }

    private func updateCrop() {
        guard let crop else { return }
        var wanted = VideoCrop.none
        if gravity == .fill, let mediaSize, let area = areaSize() {
            wanted = VideoCrop.filling(mediaSize, areaWidth: area.width, areaHeight: area.height)
        }
        guard wanted != appliedCrop else { return }
        appliedCrop = wanted
        let object = UnsafeMutableRawPointer(crop)
        CGStreamer_set_int(object, "left", gint(wanted.left))
        CGStreamer_set_int(object, "right", gint(wanted.right))
        CGStreamer_set_int(object, "top", gint(wanted.top))
        CGStreamer_set_int(object, "bottom", gint(wanted.bottom))
    }

    /// `sink` itself when it implements `GstVideoOverlay`, else the first element of the bin that
    /// does (`gst_bin_get_by_interface`); a new reference or nil.
    static func overlayElement(in sink: UnsafeMutablePointer<GstElement>) -> UnsafeMutablePointer<GstElement>? {
        let object = UnsafeMutableRawPointer(sink)
        if g_type_check_instance_is_a(object.assumingMemoryBound(to: GTypeInstance.self), gst_video_overlay_get_type()) != 0 {
            _ = gst_object_ref(object)
            return sink
        }
        guard CGStreamer_is_bin(object) != 0 else { return nil }
        return gst_bin_get_by_interface(CGStreamer_as_bin(object), gst_video_overlay_get_type())
    }

    private static func asOverlay(_ element: UnsafeMutablePointer<GstElement>) -> OpaquePointer {
        OpaquePointer(element)
    }
}

extension VideoWindow {
    /// The window title for `uri` without a title tag: its file name (``MediaLocation/displayName(ofURI:)``).
    static func displayName(ofURI uri: String) -> String { MediaLocation.displayName(ofURI: uri) }
}
