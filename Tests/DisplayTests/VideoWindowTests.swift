@testable import BackendCore
@testable import BackendWindow
import Backend
import CGStreamer
import CX11
import XCTest

/// ``VideoWindow`` on a bare playbin: the sink's own window (title, keys, fullscreen, a real frame)
/// and an app's window under a private Xvfb, and the fill crop on fake sinks.
final class VideoWindowTests: XCTestCase {
    /// These tests make elements themselves: GStreamer must be initialised also when a test runs
    /// alone in its process (`swift test --parallel`), not only after another test did it.
    override func setUp() { GStreamerRuntime.ensureInitialized() }

    func testOwnWindowIsTitledShowsTheFrameTakesKeysAndGoesFullscreen() throws {
        let server = try XvfbServer(width: 1280, height: 1024)
        try withDisplay(server) {
            let window = VideoWindow()
            defer { window.teardown() }
            let sink = try XCTUnwrap(gst_element_factory_make("ximagesink", nil))
            window.attach(sink: sink)
            window.setFallbackTitle("par-64-45.mkv")
            let pipeline = RawPlaybin(file: DisplayMedia.nonSquare, videoSink: sink)
            pipeline.setState(GST_STATE_PLAYING)
            XCTAssertTrue(pipeline.pumpElementMessages(timeout: 15) { message in
                _ = window.handleElementMessage(message)
                return window.ownWindow != nil
            }, "no have-window-handle from ximagesink")

            // 720x576 at PAR 64/45 displays as 1024x576; the title is the file name (no title tag).
            let info = try X11Tools.waitForWindow(on: server) { $0.title == "par-64-45.mkv" }
            XCTAssertEqual(info.width, 1024)
            XCTAssertEqual(info.height, 576)
            try X11Tools.assertShowsPicture(info.id, on: server, width: 1024, screenshot: "videowindow-own.png", black: "the window is black")

            try X11Tools.type(["space", "f"], into: info.id, on: server)
            var keys: [String] = []
            XCTAssertTrue(pipeline.pumpElementMessages(timeout: 10) { message in
                if let key = window.handleElementMessage(message) { keys.append(key.name) }
                return keys.count == 2
            }, "keys seen: \(keys)")
            XCTAssertEqual(keys, ["space", "f"])

            // No window manager on Xvfb: the window is resized to cover the screen, then restored.
            XCTAssertEqual(window.toggleFullscreen(), true)
            _ = try X11Tools.waitForWindow(on: server) { $0.id == info.id && $0.width == 1280 && $0.height == 1024 }
            XCTAssertEqual(window.toggleFullscreen(), false)
            _ = try X11Tools.waitForWindow(on: server) { $0.id == info.id && $0.width == 1024 && $0.height == 576 }
        }
    }

    func testRenderTargetDrawsIntoTheAppsWindowAndOpensNoOther() throws {
        let server = try XvfbServer(width: 800, height: 600)
        try withDisplay(server) {
            let display = try XCTUnwrap(XOpenDisplay(nil))
            defer { XCloseDisplay(display) }
            let screen = CX11_default_screen(display)
            let black = CX11_black_pixel(display, screen)
            let appWindow = XCreateSimpleWindow(display, CX11_root_window(display, screen), 0, 0, 400, 300, 0, black, black)
            XStoreName(display, appWindow, "app window")
            XMapWindow(display, appWindow)
            XSync(display, 0)

            let window = VideoWindow()
            defer { window.teardown() }
            window.setRenderTarget(UInt(appWindow))
            let sink = try XCTUnwrap(gst_element_factory_make("ximagesink", nil))
            window.attach(sink: sink)
            let pipeline = RawPlaybin(file: DisplayMedia.h264, videoSink: sink)
            pipeline.setState(GST_STATE_PLAYING)
            // Wait for frames to be drawn: the sink's rendered count (GstBaseSink `stats`).
            let deadline = Date().addingTimeInterval(15)
            while Date() < deadline, Self.renderedFrames(sink) < 10 { Thread.sleep(forTimeInterval: 0.05) }
            XCTAssertGreaterThanOrEqual(Self.renderedFrames(sink), 10)

            let windows = try X11Tools.topLevelWindows(on: server)
            XCTAssertEqual(windows.map(\.title), ["app window"], "the sink opened a window of its own")
            XCTAssertNil(window.ownWindow)
            try X11Tools.assertShowsPicture(String(format: "0x%lx", UInt(appWindow)), on: server, width: 400,
                                            screenshot: "videowindow-render-target.png", black: "nothing was drawn into the app's window")
            XCTAssertNil(window.toggleFullscreen(), "the app's window is the app's business")
            XDestroyWindow(display, appWindow)
            pipeline.setState(GST_STATE_NULL)
        }
    }

    func testFillCropsToTheRenderRectangleAndFitUndoesIt() throws {
        let window = VideoWindow()
        defer { window.teardown() }
        let filter = try XCTUnwrap(window.makeCropFilter())
        let sink = try XCTUnwrap(gst_element_factory_make("fakevideosink", nil))
        window.attach(sink: sink)
        window.setGravity(.fill)
        window.setRenderRectangle(RenderRectangle(x: 0, y: 0, width: 320, height: 120))
        window.mediaSizeChanged(VideoSize(codedWidth: 320, height: 240, parNumerator: 1, parDenominator: 1))
        XCTAssertEqual(window.appliedCrop, VideoCrop(left: 0, right: 0, top: 60, bottom: 60))
        let pipeline = RawPlaybin(file: DisplayMedia.h264, videoSink: sink, videoFilter: filter)
        pipeline.setState(GST_STATE_PLAYING)
        XCTAssertEqual(pipeline.sinkCaps(of: sink)?.width, 320)
        XCTAssertEqual(pipeline.sinkCaps(of: sink)?.height, 120)

        window.setGravity(.fit)
        XCTAssertEqual(window.appliedCrop, .none)
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, pipeline.sinkCaps(of: sink)?.height != 240 { Thread.sleep(forTimeInterval: 0.05) }
        XCTAssertEqual(pipeline.sinkCaps(of: sink)?.height, 240, "the crop was not lifted while playing")
    }

    func testGravityDrivesForceAspectRatio() throws {
        let window = VideoWindow()
        defer { window.teardown() }
        let sink = try XCTUnwrap(gst_element_factory_make("glimagesink", nil) ?? gst_element_factory_make("ximagesink", nil))
        _ = gst_object_ref_sink(UnsafeMutableRawPointer(sink))
        defer { gst_object_unref(UnsafeMutableRawPointer(sink)) }
        window.attach(sink: sink)
        window.setGravity(.stretch)
        XCTAssertEqual(CGStreamer_get_boolean(UnsafeMutableRawPointer(sink), "force-aspect-ratio"), 0)
        window.setGravity(.fit)
        XCTAssertEqual(CGStreamer_get_boolean(UnsafeMutableRawPointer(sink), "force-aspect-ratio"), 1)
    }

    private static func renderedFrames(_ sink: UnsafeMutablePointer<GstElement>) -> UInt64 {
        guard let raw = CGStreamer_get_object(UnsafeMutableRawPointer(sink), "stats") else { return 0 }
        let structure = raw.assumingMemoryBound(to: GstStructure.self)
        defer { gst_structure_free(structure) }
        var rendered: guint64 = 0
        _ = gst_structure_get_uint64(structure, "rendered", &rendered)
        return UInt64(rendered)
    }
}
