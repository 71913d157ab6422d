import Foundation
import HTTPServe
import TestSupport
import XCTest

/// Issue 25: HTTPServe on its own (what casting, issue 27, will reuse): a file under a random path
/// with `Range`, a route behind the token, loopback by default, a port that is taken.
final class HTTPServeTests: XCTestCase {
    func testServesAFileWithRangeAndGuardsRoutesWithTheToken() throws {
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: RemoteSession.python), "run `make test-venv`")
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
