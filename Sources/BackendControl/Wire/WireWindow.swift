import Backend

/// The video window's part of the `--json` protocol: the `window-key`, `fullscreen`,
/// `window-click`, `window-scroll` and `window-closed` events (`WindowEvent`). Pure; any thread.
public enum WireWindow {
    /// `window-key` event: `{"event":"window-key","key":"space"}` (an X keysym name).
    public struct WindowKey: Encodable, Sendable { var key: String }
    /// `fullscreen` event: `{"event":"fullscreen","fullscreen":true}`.
    public struct Fullscreen: Encodable, Sendable { var fullscreen: Bool }
    /// `window-click` event: `{"button":1,"count":2,"event":"window-click"}` (count 2: a double click).
    public struct Click: Encodable, Sendable { var button: Int; var count: Int }
    /// `window-scroll` event: `{"dx":0,"dy":1,"event":"window-scroll"}` (dy > 0: wheel up).
    public struct Scroll: Encodable, Sendable { var dx: Double; var dy: Double }
    /// `window-closed` event: `{"event":"window-closed"}` (gstplay then exits 0).
    public struct Closed: Encodable, Sendable {}

    /// The line for a window event.
    public static func line(for event: WindowEvent) -> String {
        switch event {
        case .key(let key):
            return Wire.line(WireEvent(event: "window-key", payload: WindowKey(key: key)))
        case .fullscreenChanged(let fullscreen):
            return Wire.line(WireEvent(event: "fullscreen", payload: Fullscreen(fullscreen: fullscreen)))
        case .clicked(let button, let count):
            return Wire.line(WireEvent(event: "window-click", payload: Click(button: button, count: count)))
        case .scrolled(let deltaX, let deltaY):
            return Wire.line(WireEvent(event: "window-scroll", payload: Scroll(dx: deltaX, dy: deltaY)))
        case .closed:
            return Wire.line(WireEvent(event: "window-closed", payload: Closed()))
        }
    }
}
