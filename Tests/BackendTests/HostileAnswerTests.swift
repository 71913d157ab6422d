@testable import BackendCore
import Backend
import Foundation
import TestSupport
import XCTest

/// Answers no HTTP library would write (the test server's `/raw/…` routes): each ends with one
/// error that says what the server did, not "no data within the network timeout".
final class HostileAnswerTests: XCTestCase {
    private var server: HTTPTestServer!

    override func setUpWithError() throws { server = try HTTPTestServer() }
    override func tearDown() { server.stop() }

    /// The first error of loading `path` with a 2 s network timeout, and the reloads made.
    private func firstError(_ path: String) -> (PlayerError?, Int) {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder) { $0.networkTimeout = .seconds(2) }
        defer { player.shutdown() }
        player.load(server.url(path))
        let error = recorder.waitForValue("error of \(path)", timeout: 60) { $0.error }
        return (error, player.refreshStatistics().networkRetries)
    }

    /// Before: each of these ended with "the server sent no data within the network timeout, or
    /// the connection was lost" after one reload (libsoup's "Could not parse HTTP response" reaches
    /// only the debug log). The probe now reads the answer's head and names it; final, no reload.
    func testAnswersThatAreNotHTTPAreNamed() {
        let cases = [
            ("/raw/endless-header/mp3-4s.mp3", "its headers do not end within 64 KiB"),
            ("/raw/nul-header/mp3-4s.mp3", "a NUL byte in its headers"),
            ("/raw/http09/mp3-4s.mp3", "it does not begin with an HTTP status line: an HTTP/0.9 or non-HTTP answer"),
            ("/raw/long-location/mp3-4s.mp3", "its headers do not end within 64 KiB"),
            ("/raw/negative-length/mp3-4s.mp3", "Content-Length '-5' is not a byte count"),
        ]
        for (path, reason) in cases {
            let (error, retries) = firstError(path)
            XCTAssertEqual(error?.message, "the server's answer is not valid HTTP (\(reason))", path)
            XCTAssertEqual(error?.cause, .invalidResponse, path)
            XCTAssertEqual(error?.kind, .network, path)
            XCTAssertEqual(retries, 0, "\(path): the server's answer is its final word")
        }
    }

    /// `Content-Length` 1000 more than the body, then the connection held silent (the silent
    /// route) or closed: after the reload once from the start (the server ignores Range), the
    /// second answer's bytes play to their end, then one warning carries the byte counts
    /// (before: the item failed with "the server stopped after R of the N bytes it announced
    /// (Content-Length): …" after that reload, nothing played). MP3 and WebM.
    func testABodyShorterThanItsContentLengthPlaysWhatArrived() throws {
        for route in ["short-body", "short-body-close"] {
            for (fixture, duration) in [("mp3-4s.mp3", 4.0), ("vp8-opus-4s.webm", 4.0)] {
                try assertPlaysWhatArrived("/raw/\(route)/\(fixture)", fixture: fixture, duration: duration)
            }
        }
    }

    /// What arrived does not play (an MP4 without its `moov`), or ends before its duration (a
    /// truncated MP4 under a too large `Content-Length`): the item still ends with the error
    /// that names the short body, as before.
    func testAShortBodyThatDoesNotPlayToItsEndKeepsItsError() {
        for (fixture, size) in [("no-moov.mp4", 33394), ("truncated.mp4", 68982)] {
            let (error, _) = firstError("/raw/short-body-close/\(fixture)")
            XCTAssertEqual(error?.kind, .network, fixture)
            XCTAssertTrue(error?.message.hasPrefix("the server stopped after \(size) of the \(size + 1000) bytes it announced (Content-Length): ") ?? false,
                          "\(fixture): \(String(describing: error))")
        }
    }

    /// Without download buffering (``PlayerConfiguration/progressiveDownload`` off) no file holds
    /// what arrived: the item ends with the error that names the short body.
    func testAShortBodyWithoutDownloadBufferingKeepsItsError() {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder) { $0.networkTimeout = .seconds(2); $0.progressiveDownload = false }
        defer { player.shutdown() }
        player.load(server.url("/raw/short-body-close/mp3-4s.mp3"))
        let error = recorder.waitForValue("error", timeout: 60) { $0.error }
        XCTAssertTrue(error?.message.hasPrefix("the server stopped after 33482 of the 34482 bytes it announced (Content-Length): ") ?? false,
                      "\(String(describing: error))")
    }

    private func assertPlaysWhatArrived(_ path: String, fixture: String, duration: Double, line: UInt = #line) throws {
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: TestMedia.root.appendingPathComponent("Fixtures/\(fixture)").path)[.size] as? Int)
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder) { $0.networkTimeout = .seconds(2) }
        defer { player.shutdown() }
        let uri = server.url(path)
        player.load(uri)
        recorder.waitFor("EOS or error of \(path)", timeout: 90) { events in
            events.contains(where: \.isEndOfStream) || events.contains { $0.error != nil }
        }
        let events = recorder.events
        XCTAssertNil(events.lazy.compactMap(\.error).first, path, line: line)
        let end = events.lazy.compactMap { if case .endOfStream(let position) = $0 { return position } else { return nil } }.first
        XCTAssertGreaterThan(end?.seconds ?? 0, duration - 0.5, "\(path): played to the end of what arrived", line: line)
        let warnings = events.compactMap { if case .warning(let warning) = $0 { return warning } else { return nil } }
        XCTAssertEqual(warnings.map(\.message), ["the server cannot resume the download (it ignores Range requests) — downloading it again from the start",
                                                 "the server sent \(size) of the \(size + 1000) bytes it announced (Content-Length): played what arrived"],
                       "\(path): the reload once (a reset or a stall may be transient), then the bytes of the second answer", line: line)
        XCTAssertEqual(warnings.last?.kind, .network, path, line: line)
        XCTAssertEqual(player.refreshStatistics().networkRetries, 1, path, line: line)
        XCTAssertEqual(player.snapshot.uri, uri, "\(path): the player still names the server's URI", line: line)
        let endIndex = events.firstIndex(where: \.isEndOfStream) ?? 0
        let warningIndex = events.lastIndex { if case .warning = $0 { return true } else { return false } } ?? .max
        XCTAssertLessThan(warningIndex, endIndex, "\(path): the warning comes with the end of the item", line: line)
    }

    /// A body sent gzip-encoded although identity was asked for: libsoup decodes it, so the file
    /// holds 33482 bytes against a Content-Length of about 4000. It plays and is stored decoded
    /// (before: discarded as "incomplete download: 33482 of 3929 bytes").
    func testAGzipEncodedBodyPlaysAndIsStoredDecoded() throws {
        let directory = NSTemporaryDirectory() + "gstplay-gzip-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let cache = MediaCache(directory: directory)
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder, standard: { $0.cache = cache })
        defer { player.shutdown() }
        let uri = server.url("/raw/gzip/mp3-4s.mp3")
        player.load(uri)
        recorder.waitFor("EOS or error", timeout: 30) { events in
            events.contains(where: \.isEndOfStream) || events.contains { $0.error != nil }
        }
        XCTAssertNil(recorder.events.lazy.compactMap(\.error).first)
        let statuses = { recorder.events.compactMap { if case .status(let status)? = $0.payload(as: CacheEvent.self) { return status } else { return nil } } }
        XCTAssertTrue(recorder.waitFor("stored or discarded", timeout: 10) { _ in statuses().contains { $0.state == .stored || $0.state == .discarded } })
        XCTAssertEqual(statuses().last?.state, .stored, "\(statuses())")
        let entry = try XCTUnwrap(cache.find(uri))
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: cache.path(of: entry))),
                       try Data(contentsOf: TestMedia.root.appendingPathComponent("Fixtures/mp3-4s.mp3")), "the decoded file")
    }
}

/// ``HTTPAnswerCheck`` on bytes.
final class HTTPAnswerCheckTests: XCTestCase {
    private func problem(_ text: String, ended: Bool = true) -> String? { HTTPAnswerCheck.problem(in: Array(text.utf8), ended: ended) }

    func testValidHeadsPass() {
        XCTAssertNil(problem("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello"))
        XCTAssertNil(problem("HTTP/1.0 404 Not Found\n\n"))
        XCTAssertNil(problem("HTTP/1.1 200 OK\r\nContent-Length:  12 \r\n\r\n"))
        XCTAssertNil(problem(""), "no answer at all: the timeout's own text fits")
        XCTAssertNil(problem("ICY 200 OK\r\nicy-name: x\r\n\r\n"), "SHOUTcast: libsoup reads it")
        XCTAssertNil(problem("HTT", ended: false), "a head still arriving")
        XCTAssertNil(problem("HTTP/1.1 200 OK\r\nX-A: b", ended: false))
    }

    func testBrokenHeadsAreNamed() {
        XCTAssertEqual(problem("ID3\u{3}\0\0"), "it does not begin with an HTTP status line: an HTTP/0.9 or non-HTTP answer")
        XCTAssertEqual(problem("HTTP/1.1 200 OK\r\nX: a\0b\r\n\r\n"), "a NUL byte in its headers")
        XCTAssertEqual(problem("HTTP/2 200\r\n\r\n"), "its status line 'HTTP/2 200' is not HTTP/1.x")
        XCTAssertEqual(problem("HTTP/1.1 200 OK\r\nContent-Length: -5\r\n\r\n"), "Content-Length '-5' is not a byte count")
        XCTAssertEqual(problem("HTTP/1.1 200 OK\r\nX-Endless: " + String(repeating: "a", count: 70_000), ended: false),
                       "its headers do not end within 64 KiB")
        XCTAssertEqual(problem("HTTP/1.1 200 OK\r\nX-A: b"), "it ended within its headers")
    }

    func testAnnouncedSizeIsTheWholeBody() {
        XCTAssertEqual(ResponseHead.announcedSize(status: 200, contentLength: "1000", contentRange: nil), 1000)
        XCTAssertEqual(ResponseHead.announcedSize(status: 206, contentLength: "100", contentRange: "bytes 900-999/1000"), 1000)
        XCTAssertNil(ResponseHead.announcedSize(status: 206, contentLength: "100", contentRange: nil))
        XCTAssertNil(ResponseHead.announcedSize(status: 200, contentLength: nil, contentRange: nil))
    }
}
