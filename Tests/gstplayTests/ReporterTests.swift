import Backend
import BackendControl
import Synchronization
import TestSupport
import XCTest
@testable import gstplay

/// What the user sees for each event in each mode, captured through pipes.
final class ReporterTests: XCTestCase {
    private struct Capture {
        let out = Pipe()
        let err = Pipe()
        var output: Output { Output(stdout: out.fileHandleForWriting.fileDescriptor, stderr: err.fileHandleForWriting.fileDescriptor) }

        func finish() -> (stdout: String, stderr: String) {
            try? out.fileHandleForWriting.close()
            try? err.fileHandleForWriting.close()
            return (String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self),
                    String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
        }
    }

    private let size = VideoSize(codedWidth: 720, height: 576, parNumerator: 64, parDenominator: 45)
    private let item = EventItem(index: 0, count: 2, location: "clip.mp4")
    private let video = MediaInfo(uri: "file:///clip.mp4", isLive: false, isSeekable: true, duration: MediaTime(seconds: 10),
                                  hasVideo: true, hasAudio: true, subtitleStreams: 0)

    private func feed(_ reporter: EventReporter) {
        reporter.report(.sinksChosen(video: "fakevideosink", audio: "fakeaudiosink", reason: "no display"), item: nil)
        reporter.report(.uriLoaded("file:///clip.mp4"), item: item)
        reporter.report(.stateChanged(from: .idle, to: .opening), item: item)
        reporter.report(.mediaSize(size), item: item)
        reporter.report(.mediaSize(size), item: item)
        reporter.report(.mediaInfo(video), item: item)
        reporter.report(.position(MediaTime(seconds: 1), duration: MediaTime(seconds: 10)), item: item)
        reporter.report(.warning(PlayerError(kind: .stream, element: "qtdemux0", message: "odd")), item: item)
        reporter.report(.mediaSize(VideoSize(codedWidth: 640, height: 480, parNumerator: 1, parDenominator: 1)), item: item)
        reporter.failure(location: "clip.mp4", error: PlayerError(kind: .resource, element: "source", message: "Resource not found."))
    }

    func testTextMode() {
        let capture = Capture()
        feed(EventReporter(output: capture.output, mode: .text(statusLine: false), quiet: false))
        let (out, err) = capture.finish()
        XCTAssertEqual(out, "")
        XCTAssertEqual(err, """
            gstplay: note: no display (video sink 'fakevideosink', audio sink 'fakeaudiosink')
            Now playing clip.mp4 (1/2)
            Video: 1024x576
            gstplay: warning: clip.mp4: qtdemux0: odd
            Video: 640x480
            gstplay: error: clip.mp4: Resource not found.

            """)
    }

    /// The size of what audio-only media shows (a visualiser, cover art: 480x480) is not the
    /// media's video: no `Video:` line, before or after its media info (it printed `Video: 480x480`).
    func testAudioOnlyMediaGetsNoVideoLine() {
        let capture = Capture()
        let reporter = EventReporter(output: capture.output, mode: .text(statusLine: false), quiet: false)
        let picture = VideoSize(codedWidth: 480, height: 480, parNumerator: 1, parDenominator: 1)
        var audio = video
        audio.hasVideo = false
        reporter.report(.uriLoaded("file:///song.ogg"), item: item)
        reporter.report(.mediaSize(picture), item: item)
        reporter.report(.mediaInfo(audio), item: item)
        reporter.report(.mediaSize(VideoSize(codedWidth: 640, height: 480, parNumerator: 1, parDenominator: 1)), item: item)
        reporter.report(.uriLoaded("file:///clip.mp4"), item: item)
        reporter.report(.mediaSize(size), item: item)
        reporter.report(.mediaInfo(video), item: item)
        XCTAssertEqual(capture.finish().stderr, "Now playing clip.mp4 (1/2)\nNow playing clip.mp4 (1/2)\nVideo: 1024x576\n")
    }

    func testQuietModeKeepsOnlyErrors() {
        let capture = Capture()
        feed(EventReporter(output: capture.output, mode: .text(statusLine: true), quiet: true))
        let (out, err) = capture.finish()
        XCTAssertEqual(out, "")
        XCTAssertEqual(err, "gstplay: error: clip.mp4: Resource not found.\n")
    }

    /// With `--json` the reporter writes no event: the dispatcher does (``PlayerControl/report(_:)``),
    /// for the console and every client alike; the human error line still goes to stderr.
    func testJSONModeLeavesTheEventLinesToTheControl() {
        let capture = Capture()
        feed(EventReporter(output: capture.output, mode: .json, quiet: false))
        let (out, err) = capture.finish()
        XCTAssertEqual(out, "")
        XCTAssertEqual(err, "gstplay: error: clip.mp4: Resource not found.\n")
    }

    func testWireEventLinesAddBufferingMessages() {
        var wire = WireEventLines()
        let lines = [100, 40, 80, 100, 100].flatMap { wire.lines(for: .buffering(percent: $0), item: (0, 2), loadID: nil) }
        XCTAssertEqual(lines.filter { $0.contains(#""event":"message""#) },
                       [#"{"event":"message","text":"Buffering 40%"}"#, #"{"event":"message","text":"Buffering 80%"}"#,
                        #"{"event":"message","text":"Buffering complete"}"#], "complete once, after buffering")
        XCTAssertEqual(lines.filter { $0.contains(#""event":"buffering""#) }.count, 5)
    }

    func testStatusLineIsRedrawnAroundNotes() {
        let capture = Capture()
        let player = Mutex(PlayerSnapshot())                      // the player's snapshot, as each event leaves it
        let reporter = EventReporter(output: capture.output, mode: .text(statusLine: true), quiet: false, columns: { 60 },
                                     snapshot: { player.withLock { $0 } })
        player.withLock { $0.state = .playing }
        reporter.report(.stateChanged(from: .ready, to: .playing), item: item)
        player.withLock { $0.position = MediaTime(seconds: 5); $0.duration = MediaTime(seconds: 10) }
        reporter.report(.position(MediaTime(seconds: 5), duration: MediaTime(seconds: 10)), item: item)
        reporter.note("hello")
        player.withLock { $0.rate = 1.5 }
        reporter.report(.rateChanged(1.5), item: item)
        let (out, err) = capture.finish()
        XCTAssertEqual(err, "hello\n")
        let draws = out.components(separatedBy: "\r").filter { !$0.isEmpty }
        guard draws.count == 5 else { return XCTFail("expected 5 draws: \(draws)") }
        XCTAssertTrue(draws[0].hasPrefix("Playing   0:00:00 / -:--:-- ["), draws[0])
        XCTAssertTrue(draws[1].hasPrefix("Playing   0:00:05 / 0:00:10 [=============>"), draws[1])
        XCTAssertEqual(draws[2], "\u{1B}[K", "cleared before the note")
        XCTAssertEqual(draws[3], StatusLine(state: .playing, position: MediaTime(seconds: 5), duration: MediaTime(seconds: 10)).render(columns: 60) + "\u{1B}[K",
                       "redrawn after the note")
        XCTAssertTrue(draws[4].hasSuffix("] rate 1.5\u{1B}[K"), draws[4])
        for draw in draws { XCTAssertLessThanOrEqual(draw.replacingOccurrences(of: "\u{1B}[K", with: "").count, 59) }
    }

    func testMissingPluginsAreNamedOnce() {
        XCTAssertEqual(ErrorText.text(of: PlayerError(kind: .missingPlugin, message: "missing plugin: AC-3", missingPlugins: ["AC-3"])),
                       "missing plugin: AC-3")
        XCTAssertEqual(ErrorText.text(of: PlayerError(kind: .core, message: "No decoder", missingPlugins: ["AC-3"])),
                       "No decoder (missing: AC-3)")
        XCTAssertEqual(ErrorText.text(of: PlayerError(kind: .network, message: "Not Found", httpStatus: 404)), "Not Found (HTTP 404)")
    }

    func testTheSystemReasonFromTheDebugTextIsShown() {
        let denied = PlayerError(kind: .resource, message: "Could not open file \"/x\" for reading.",
                                 debug: "gstfilesrc.c(557): gst_file_src_start (): /GstFileSrc:source:\nsystem error: Permission denied")
        XCTAssertEqual(ErrorText.text(of: denied), "Could not open file \"/x\" for reading. (Permission denied)")
        let missing = PlayerError(kind: .resource, message: "Resource not found.", debug: "gstfilesrc.c(553): …:\nNo such file \"/x\"")
        XCTAssertEqual(ErrorText.text(of: missing), "Resource not found.", "no `system error:` line, nothing added")
        let named = PlayerError(kind: .resource, message: "Permission denied here", debug: "x\nsystem error: Permission denied")
        XCTAssertEqual(ErrorText.text(of: named), "Permission denied here", "not repeated")
        XCTAssertNil(ErrorText.systemReason(inDebug: "system error: \n"))
        XCTAssertEqual(ErrorText.systemReason(inDebug: "a\nsystem error: bad\u{7}thing"), "bad\\u0007thing")
    }

    /// "Internal data stream error." says nothing of why; GStreamer's debug text does.
    func testWhyAStreamingThreadStoppedIsShown() {
        let unlinked = PlayerError(kind: .stream, element: "qtdemux0", message: "Internal data stream error.",
                                   debug: "../gst/isomp4/qtdemux.c(6619): gst_qtdemux_loop (): /GstPlayBin:thumbnails/GstQTDemux:qtdemux0:\nstreaming stopped, reason not-linked (-1)")
        XCTAssertEqual(unlinked.streamingStopReason, "not-linked")
        XCTAssertEqual(ErrorText.text(of: unlinked), "Internal data stream error. (streaming stopped: not-linked)")
        XCTAssertEqual(unlinked.description, "qtdemux0: Internal data stream error. (streaming stopped: not-linked)")
        let ownError = PlayerError(kind: .stream, message: "Internal data stream error.", debug: "…:\nstreaming stopped, reason error (-5)")
        XCTAssertNil(ownError.streamingStopReason, "an element's own error: already the message")
        XCTAssertNil(PlayerError(kind: .stream, message: "x", debug: "streaming stopped, reason \u{1b}[2J").streamingStopReason, "letters and dashes only")
    }
}
