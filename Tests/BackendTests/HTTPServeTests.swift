import Backend
import Foundation
import HTTPServe
import TestSupport
import XCTest

/// HTTPServe on its own (the server of the web remote and of casting): a file under a random path
/// with `Range`, a route behind the token, loopback by default, a port that is taken.
final class HTTPServeTests: XCTestCase {
    func testServesAFileWithRangeAndGuardsRoutesWithTheToken() throws {
        VenvScript.assertInstalled()
        let token = AccessToken.random()
        XCTAssertEqual(token.text.count, 32)
        XCTAssertNotEqual(token, AccessToken.random(), "fresh per call")
        let server = try HTTPServer(token: token)
        defer { server.close() }
        XCTAssertEqual(server.address, "127.0.0.1")
        XCTAssertGreaterThan(server.port, 0)
        server.route("/hello") { request, responder in responder.respond(.text("hello \(request.method)")) }

        let file = TestMedia.vp8
        let bytes = try XCTUnwrap(FileManager.default.contents(atPath: file))
        let path = server.serveFile(file, contentType: "video/webm")
        XCTAssertTrue(path.hasPrefix("/files/") && path.hasSuffix("/vp8-opus-4s.webm"), path)
        let full = RemoteSession.script("remote_clients.py", ["http", "GET", server.baseURL + path]).json
        XCTAssertEqual(full?["status"] as? Int, 200, "\(full ?? [:])")
        XCTAssertEqual(full?["length"] as? Int, bytes.count)
        XCTAssertEqual(full?["sum"] as? Int, bytes.reduce(0) { ($0 + Int($1)) % 65536 }, "the file's bytes")
        let part = RemoteSession.script("remote_clients.py", ["http", "GET", server.baseURL + path, "--range", "100-1123"]).json
        XCTAssertEqual(part?["status"] as? Int, 206, "\(part ?? [:])")
        XCTAssertEqual(part?["length"] as? Int, 1024)
        XCTAssertEqual(part?["sum"] as? Int, bytes[100...1123].reduce(0) { ($0 + Int($1)) % 65536 })
        XCTAssertEqual(RemoteSession.script("remote_clients.py", ["http", "GET", server.baseURL + "/files/0/x"]).json?["status"] as? Int, 404)

        XCTAssertEqual(RemoteSession.script("remote_clients.py", ["http", "GET", server.baseURL + "/hello"]).json?["status"] as? Int, 401)
        let hello = RemoteSession.script("remote_clients.py", ["http", "GET", server.baseURL + "/hello?token=" + token.text]).json
        XCTAssertEqual(hello?["body"] as? String, "hello GET")

        XCTAssertThrowsError(try HTTPServer(port: server.port, token: token), "the port is taken") { error in
            XCTAssertTrue("\(error)".contains("cannot listen on 127.0.0.1:\(server.port)"), "\(error)")
        }
        XCTAssertThrowsError(try HTTPServer(address: "not-an-address", token: token))
    }
}

/// The request clock against a real HTTP client, GStreamer's souphttpsrc (what the renderers
/// casting reaches run): paused for three times the limit (here 1 s) — long enough for the
/// server to close a connection left idle (whether souphttpsrc's was idle or still mid-answer is
/// not observed) — then a seek and play to the end: no error.
final class HTTPServeIdleTests: XCTestCase {
    func testAPausedGStreamerClientSurvivesItsIdleConnectionBeingClosed() throws {
        var limits = HTTPLimits()
        limits.requestTimeout = 1
        let server = try HTTPServer(token: AccessToken.random(), limits: limits)
        defer { server.close() }
        let url = server.baseURL + server.serveFile(TestMedia.h264, contentType: "video/mp4")
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder)
        defer { player.shutdown() }
        player.load(url)
        player.play()
        XCTAssertTrue(recorder.waitFor("playing", timeout: 20) { events in
            events.contains { if case .stateChanged(_, .playing) = $0 { return true } else { return false } }
        })
        player.pause()
        // Longer than the limit and the clock's once-a-second check: the connection, if idle, is closed.
        Thread.sleep(forTimeInterval: 3)
        player.seek(to: MediaTime(seconds: 8))
        player.play()
        XCTAssertTrue(recorder.waitFor("EOS", timeout: 30) { $0.contains(where: \.isEndOfStream) })
        XCTAssertNil(recorder.events.lazy.compactMap(\.error).first)
    }
}
