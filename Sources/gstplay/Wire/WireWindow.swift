import Backend

/// The video window's part of the `--json` protocol: the `window-key` and `fullscreen` events
/// (``WindowEvent``). Pure; any thread.
enum WireWindow {
    /// `window-key` event: `{"event":"window-key","key":"space"}` (an X keysym name).
    struct WindowKey: Encodable, Sendable { var key: String }
    /// `fullscreen` event: `{"event":"fullscreen","fullscreen":true}`.
    struct Fullscreen: Encodable, Sendable { var fullscreen: Bool }

    /// The line for a window event.
    static func line(for event: WindowEvent) -> String {
        switch event {
        case .key(let key):
            return Wire.line(WireEvent(event: "window-key", payload: WindowKey(key: key)))
        case .fullscreenChanged(let fullscreen):
            return Wire.line(WireEvent(event: "fullscreen", payload: Fullscreen(fullscreen: fullscreen)))
        }
    }
}
