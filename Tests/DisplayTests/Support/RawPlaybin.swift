@testable import BackendCore
import Backend
import CGStreamer
import Foundation
import XCTest

/// A bare `playbin` driven from the test thread, for components that take raw pointers
/// (``VideoWindow``, ``SinkProbe``): the test polls the bus itself.
final class RawPlaybin {
    let playbin: UnsafeMutablePointer<GstElement>
    private let bus: OpaquePointer

    /// playbin on `file` (a path) with the given sink factories (names) and an optional video filter
    /// (floating references are taken over by playbin).
    init(file: String, videoSink: UnsafeMutablePointer<GstElement>, audioSink: String = "fakeaudiosink",
         videoFilter: UnsafeMutablePointer<GstElement>? = nil) {
        GStreamerRuntime.ensureInitialized()
        playbin = gst_element_factory_make("playbin", nil)!
        _ = gst_object_ref_sink(UnsafeMutableRawPointer(playbin))
        let object = UnsafeMutableRawPointer(playbin)
        CGStreamer_set_string(object, "uri", "file://" + file)
        CGStreamer_set_object(object, "video-sink", UnsafeMutableRawPointer(videoSink))
        CGStreamer_set_object(object, "audio-sink", UnsafeMutableRawPointer(gst_element_factory_make(audioSink, nil)!))
        if let videoFilter { CGStreamer_set_object(object, "video-filter", UnsafeMutableRawPointer(videoFilter)) }
        bus = OpaquePointer(gst_element_get_bus(playbin)!)
    }

    /// Sets the state and waits up to `timeout` seconds for it (`gst_element_get_state`).
    func setState(_ state: GstState, timeout: TimeInterval = 15, file: StaticString = #filePath, line: UInt = #line) {
        let change = gst_element_set_state(playbin, state)
        XCTAssertNotEqual(change, GST_STATE_CHANGE_FAILURE, "set_state failed", file: file, line: line)
        var current = GST_STATE_VOID_PENDING
        let result = gst_element_get_state(playbin, &current, nil, GstClockTime(timeout * 1e9))
        XCTAssertEqual(result, GST_STATE_CHANGE_SUCCESS, "state \(state) not reached", file: file, line: line)
    }

    /// Pops bus messages (up to `timeout` seconds) and hands element messages to `handle` until it
    /// returns true; returns whether it did. Errors end the wait.
    @discardableResult
    func pumpElementMessages(timeout: TimeInterval, _ handle: (UnsafeMutablePointer<GstMessage>) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let types = GstMessageType(GST_MESSAGE_ELEMENT.rawValue | GST_MESSAGE_ERROR.rawValue)
            guard let message = gst_bus_timed_pop_filtered(UnsafeMutablePointer(bus), 100_000_000, types) else { continue }
            defer { gst_message_unref(message) }
            if CGStreamer_message_type(message) == GST_MESSAGE_ERROR { return false }
            if handle(message) { return true }
        }
        return false
    }

    /// The display size on the video sink's sink pad (what reached the sink).
    func sinkCaps(of sink: UnsafeMutablePointer<GstElement>) -> (width: Int, height: Int)? {
        guard let pad = gst_element_get_static_pad(sink, "sink") else { return nil }
        defer { gst_object_unref(UnsafeMutableRawPointer(pad)) }
        guard let caps = gst_pad_get_current_caps(pad) else { return nil }
        defer { gst_caps_unref(caps) }
        var width: gint = 0, height: gint = 0, parN: gint = 1, parD: gint = 1
        guard CGStreamer_video_caps_size(caps, &width, &height, &parN, &parD) != 0 else { return nil }
        return (Int(width), Int(height))
    }

    deinit {
        gst_element_set_state(playbin, GST_STATE_NULL)
        gst_object_unref(UnsafeMutableRawPointer(bus))
        gst_object_unref(UnsafeMutableRawPointer(playbin))
    }
}

/// Paths of the committed fixtures.
enum DisplayMedia {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static func path(_ name: String) -> String { root.appendingPathComponent("Fixtures/\(name)").path }
    static let h264 = path("h264-aac-10s.mp4")
    static let nonSquare = path("par-64-45.mkv")
}

/// `DISPLAY` for code in this process (the Backend's own X connection, the X sinks), set for the
/// duration of `body` and restored after. Tests run one at a time; the lock keeps it so.
func withDisplay<T>(_ server: XvfbServer, _ body: () throws -> T) rethrows -> T {
    try withDisplay(named: server.display, body)
}

/// `DISPLAY` set to `name` for the duration of `body` (see ``withDisplay(_:_:)``).
func withDisplay<T>(named name: String, _ body: () throws -> T) rethrows -> T {
    displayLock.lock()
    defer { displayLock.unlock() }
    let previous = getenv("DISPLAY").map { String(cString: $0) }
    setenv("DISPLAY", name, 1)
    defer {
        if let previous { setenv("DISPLAY", previous, 1) } else { unsetenv("DISPLAY") }
    }
    return try body()
}

private let displayLock = NSLock()
