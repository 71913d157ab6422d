import Foundation
import TestSupport
import XCTest

/// `--remote` from outside — the URL, the token on every request, the HTTP API through
/// the one dispatcher, loopback only unless `--remote-bind`, and bad options.
final class RemoteCLITests: XCTestCase {
    override func setUpWithError() throws {
        VenvScript.assertInstalled()
    }

    func testPrintsURLAndEveryAPIRequestNeedsTheToken() throws {
        let session = try RemoteSession(["--remote=0", "--loop", TestMedia.vp8])
        XCTAssertTrue(session.child.waitForLine(containing: #""to":"playing""#), session.child.stdout)
        XCTAssertEqual(session.token.count, 32, session.url)

        let status = session.client(["http", "GET", session.base + "/api/status", "--token", session.token]).json
        XCTAssertEqual(status?["status"] as? Int, 200, "\(status ?? [:])")
        let reply = (status?["body"] as? String).flatMap(jsonObject)
        XCTAssertEqual((reply?["data"] as? [String: Any])?["state"] as? String, "playing", "\(status ?? [:])")

        for token in [nil, "0123456789abcdef0123456789abcdef", String(session.token.dropLast())] {
            let refused = session.client(["http", "GET", session.base + "/api/status"] + (token.map { ["--token", $0] } ?? [])).json
            XCTAssertEqual(refused?["status"] as? Int, 401, "token \(token ?? "none"): \(refused ?? [:])")
            let command = session.client(["http", "POST", session.base + "/api/command", "--body", "pause"] + (token.map { ["--token", $0] } ?? [])).json
            XCTAssertEqual(command?["status"] as? Int, 401, "\(command ?? [:])")
        }
        XCTAssertEqual(session.client(["http", "GET", session.base + "/api/snapshot.png"]).json?["status"] as? Int, 401)
        XCTAssertFalse(session.child.stdout.contains(#""to":"paused""#), "a refused request must not reach the player")

        let paused = session.client(["http", "POST", session.base + "/api/command", "--token", session.token, "--body", "pause"]).json
        XCTAssertEqual(paused?["status"] as? Int, 200, "\(paused ?? [:])")
        XCTAssertTrue(session.child.waitForLine(containing: #""to":"paused""#), session.child.stdout)
        let bad = session.client(["http", "POST", session.base + "/api/command", "--token", session.token, "--body", "frobnicate"]).json
        XCTAssertEqual(bad?["status"] as? Int, 400, "\(bad ?? [:])")

        let page = session.client(["http", "GET", session.base + "/"]).json
        XCTAssertEqual(page?["status"] as? Int, 200)
        XCTAssertTrue((page?["body"] as? String)?.contains("<title>gstplay remote</title>") == true)
        session.stop()
    }

    func testSnapshotAndThumbnailArePictures() throws {
        let session = try RemoteSession(["--remote=0", "--loop", TestMedia.vp8])
        XCTAssertTrue(session.child.waitForLine(containing: #""to":"playing""#), session.child.stdout)
        let directory = FileManager.default.temporaryDirectory.path
        for (path, name) in [("/api/snapshot.png", "snapshot.png"), ("/api/thumbnail.png?t=2", "thumb.png")] {
            let file = directory + "/remote-" + name
            let result = session.client(["http", "GET", session.base + path, "--token", session.token, "--save", file]).json
            XCTAssertEqual(result?["status"] as? Int, 200, "\(path): \(result ?? [:])")
            XCTAssertEqual(result?["type"] as? String, "image/png")
            let image = try XCTUnwrap(DecodedImage.decode(try XCTUnwrap(FileManager.default.contents(atPath: file))), path)
            XCTAssertGreaterThan(image.width, 100, path)
            XCTAssertFalse(image.isBlack, path)
            XCTAssertGreaterThan(image.brightnessDeviation, 5, "\(path): not one flat colour")
        }
        session.stop()
    }

    func testListensOnLoopbackOnlyUnlessRemoteBind() throws {
        let session = try RemoteSession(["--remote=0", "--loop", TestMedia.vp8])
        let listening = session.listeningAddresses()
        XCTAssertEqual(listening, [String(format: "0100007F:%04X", session.port)], "only 127.0.0.1:PORT")
        XCTAssertFalse(session.child.stderr.contains("warning"), session.child.stderr)
        session.stop()

        let exposed = try RemoteSession(["--remote=0", "--remote-bind", "0.0.0.0", "--loop", TestMedia.vp8])
        XCTAssertEqual(exposed.listeningAddresses(), [String(format: "00000000:%04X", exposed.port)])
        XCTAssertTrue(exposed.child.stderr.contains("warning: the web remote listens on 0.0.0.0"), exposed.child.stderr)
        XCTAssertTrue(exposed.url.hasPrefix("http://127.0.0.1:"), exposed.url)
        exposed.stop()
    }

    func testTokenFileIsUsed() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("remote-token").path
        try "my-own-token-0123456789\n".write(toFile: file, atomically: true, encoding: .utf8)
        chmod(file, 0o600)      // a token file others may read is refused (RemoteHardeningTests)
        let session = try RemoteSession(["--remote=0", "--remote-token-file", file, TestMedia.vp8])
        XCTAssertEqual(session.token, "my-own-token-0123456789")
        XCTAssertEqual(session.client(["http", "GET", session.base + "/api/status", "--token", session.token]).json?["status"] as? Int, 200)
        session.stop()
    }

    func testBadRemoteOptionsExitWithOneLine() throws {
        for (arguments, code, text) in [
            (["--remote=http", TestMedia.vp8], Int32(2), "--remote=PORT needs a port number"),
            (["--remote-bind", "127.0.0.1", TestMedia.vp8], 2, "--remote-bind needs --remote"),
            (["--remote", "--remote-bind", "not-an-address", TestMedia.vp8], 5, "is not an IP address"),
            (["--remote", "--remote-token-file", "/nonexistent/token", TestMedia.vp8], 2, "cannot read"),
        ] {
            let result = try GstplayProcess.run(arguments, timeout: 20)
            XCTAssertEqual(result.status, code, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(text), "\(arguments): \(result.stderr)")
        }
    }
}
