@testable import BackendCore
import Backend
import Foundation
import TestSupport
import XCTest

/// Small files over a slow HTTP link: each must play to the end, fetching its
/// body once. Without download buffering (``PlayerConfiguration/progressiveDownload``) oggdemux
/// reads the Ogg body three times (first bytes, a duration scan from offset 0, the seek back)
/// and on a 40 KB/s link sometimes never prerolls; docs/RELIABILITY.md has the trace.
final class SlowHTTPTests: XCTestCase {
    private var server: HTTPTestServer!

    override func setUpWithError() throws { server = try HTTPTestServer() }
    override func tearDown() { server.stop() }

    /// Plays `file` served at `rate` bytes/s in `chunk`-byte writes; asserts EOS without an
    /// error within `timeout`, the duration, and that the body was requested only once.
    private func assertPlaysOnce(_ file: String, rate: Int, chunk: Int, duration: Double, timeout: TimeInterval,
                                 file source: StaticString = #filePath, line: UInt = #line) {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder)
        defer { player.shutdown() }
        player.load(server.url("/file/\(file)?rate=\(rate)&chunk=\(chunk)"))
        recorder.waitFor("EOS of \(file)", timeout: timeout, file: source, line: line) { events in
            events.contains(where: \.isEndOfStream) || events.contains { $0.error != nil }
        }
        XCTAssertNil(recorder.events.lazy.compactMap(\.error).first, file: source, line: line)
        XCTAssertTrue(recorder.events.contains(where: \.isEndOfStream), file: source, line: line)
        XCTAssertEqual(player.duration?.seconds ?? 0, duration, accuracy: 0.1, file: source, line: line)
        let gets = server.requests().filter { $0.path.hasPrefix("/file/\(file)") }
        XCTAssertEqual(gets.count, 1, "the body is fetched once: \(gets)", file: source, line: line)
    }

    /// The reported case: a ~110 KB Theora/Vorbis Ogg at 40 KB/s (the body takes 2.9 s).
    func testThrottledOggPlaysWithOneRequest() {
        assertPlaysOnce("theora-vorbis-2s-400k.ogg", rate: 40_000, chunk: 32_768, duration: 2, timeout: 20)
    }

    /// WebM at 40 KB/s.
    func testThrottledWebMPlaysWithOneRequest() {
        assertPlaysOnce("vp8-opus-4s.webm", rate: 40_000, chunk: 32_768, duration: 4, timeout: 20)
    }

    /// MP3 below its bitrate (8 KB/s of media at 6 KB/s): buffers, then plays to the end.
    func testThrottledMP3PlaysWithOneRequest() {
        assertPlaysOnce("mp3-4s.mp3", rate: 6_000, chunk: 2_048, duration: 4.05, timeout: 25)
    }
}
