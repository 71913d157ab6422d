import BackendCore
import CGStreamer

/// The mouse in the video window, as the sink reports it: `GstNavigation` events the X sinks post
/// on the bus as navigation messages when nothing upstream handled them (`ximagesink`,
/// `xvimagesink`, `glimagesink` with `handle-events`, the default). Pure parsing; any thread.
enum PointerInput: Equatable {
    /// A button went down (`mouse-button-press`; 1 left, 2 middle, 3 right).
    case press(button: Int)
    /// The wheel turned (`mouse-scroll`; or buttons 4–7, which X sinks may report as presses):
    /// `deltaY` > 0 up, `deltaX` > 0 right.
    case scroll(deltaX: Double, deltaY: Double)
    /// The pointer moved over the window (`mouse-move`) to (`x`, `y`): the video's pixels, as
    /// the sink translates its window's coordinates (a drag with a button held moves too).
    case motion(x: Double, y: Double)

    /// The pointer input in a navigation message, nil for anything else (keys, releases)
    /// (`gst_navigation_message_parse_event`, `gst_navigation_event_parse_mouse_button_event`,
    /// `gst_navigation_event_parse_mouse_scroll_event`, `gst_navigation_event_parse_mouse_move_event`).
    init?(message: UnsafeMutablePointer<GstMessage>) {
        guard gst_navigation_message_get_type(message) == GST_NAVIGATION_MESSAGE_EVENT else { return nil }
        var event: UnsafeMutablePointer<GstEvent>?
        guard gst_navigation_message_parse_event(message, &event) != 0, let event else { return nil }
        defer { gst_event_unref(event) }
        var x = 0.0, y = 0.0
        switch gst_navigation_event_get_type(event) {
        case GST_NAVIGATION_EVENT_MOUSE_BUTTON_PRESS:
            var button: gint = 0
            guard gst_navigation_event_parse_mouse_button_event(event, &button, &x, &y) != 0 else { return nil }
            self = PointerInput(button: Int(button))
        case GST_NAVIGATION_EVENT_MOUSE_SCROLL:
            var deltaX = 0.0, deltaY = 0.0
            guard gst_navigation_event_parse_mouse_scroll_event(event, &x, &y, &deltaX, &deltaY) != 0 else { return nil }
            self = .scroll(deltaX: deltaX, deltaY: deltaY)
        case GST_NAVIGATION_EVENT_MOUSE_MOVE:
            guard gst_navigation_event_parse_mouse_move_event(event, &x, &y) != 0 else { return nil }
            self = .motion(x: x, y: y)
        default:
            return nil
        }
    }

    /// A press of X button `button`: 4/5 are the wheel up/down, 6/7 left/right (pure).
    init(button: Int) {
        switch button {
        case 4: self = .scroll(deltaX: 0, deltaY: 1)
        case 5: self = .scroll(deltaX: 0, deltaY: -1)
        case 6: self = .scroll(deltaX: -1, deltaY: 0)
        case 7: self = .scroll(deltaX: 1, deltaY: 0)
        default: self = .press(button: button)
        }
    }
}

/// Tells single clicks from double clicks: a second press of the same button within
/// ``interval`` is a double click (reported at once); a single click is reported when the
/// interval passed without one (``expire(at:)``), so that a double click never also acts as a
/// single one. Pure (times are monotonic nanoseconds); loop thread.
struct ClickCounter {
    /// The double-click interval (GTK's default `gtk-double-click-time` is 400 ms).
    static let interval: UInt64 = 400_000_000

    /// The press waiting to become a single or a double click.
    private(set) var pending: (button: Int, time: UInt64)?

    /// A press of `button` at `time`: the clicks now known, as (button, count) — a double click,
    /// or an earlier single click of another button; empty while this press waits.
    mutating func press(button: Int, at time: UInt64) -> [(button: Int, count: Int)] {
        if let pending, pending.button == button, time &- pending.time <= Self.interval {
            self.pending = nil
            return [(button, 2)]
        }
        let earlier = pending.map { [($0.button, 1)] } ?? []
        pending = (button, time)
        return earlier
    }

    /// The single click whose interval ended by `time`, if any.
    mutating func expire(at time: UInt64) -> (button: Int, count: Int)? {
        guard let pending, time &- pending.time >= Self.interval else { return nil }
        self.pending = nil
        return (pending.button, 1)
    }
}
