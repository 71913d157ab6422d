import Foundation
import Glibc
import ProcessProbe
import TestSupport
import XCTest

/// The web remote against hostile clients: the token and the body's size are checked from the
/// headers before any body is read (a `Content-Length: 1500000000` without the token took the
/// process to 3 GB; `Expect: 100-continue` was answered `100 Continue`); a request that never
/// ends gets 408 (they were held forever); thumbnails are made two at a time (100 at once started
/// 537 threads); `Host`/`Origin` must be this server's, not a DNS rebinding's; a token file
/// others may read is refused.
final class RemoteHardeningTests: XCTestCase {
    override func setUpWithError() throws {
        VenvScript.assertInstalled()
    }

    func testABigBodyIsRefusedFromItsHeadersWithoutGrowingThePlayer() throws {
        let session = try RemoteSession(["--remote=0", "--loop", TestMedia.vp8])
        defer { session.stop() }
        let probe = ProcessProbe(pid: session.child.process.processIdentifier)
        XCTAssertNotNil(session.client(["http", "GET", session.base + "/api/status", "--token", session.token]).json)
        let before = try XCTUnwrap(probe.rssKiB)

        // No token, 1.5 GB announced, up to 256 MiB sent: the answer comes while the body is being
        // sent (before, libsoup read and kept it all and answered only at its end).
        let unauthenticated = session.client(["post-big", session.base, "--send", "256"]).json
        XCTAssertEqual(unauthenticated?["status"] as? Int, 401, "\(unauthenticated ?? [:])")
        let sent = unauthenticated?["sent"] as? Int ?? .max
        XCTAssertLessThan(sent, 256 << 20, "answered before the body was sent: \(unauthenticated ?? [:])")
        // With the token but over the limit: 413, likewise.
        let tooBig = session.client(["post-big", session.base, "--token", session.token, "--send", "256"]).json
        XCTAssertEqual(tooBig?["status"] as? Int, 413, "\(tooBig ?? [:])")
        let after = try XCTUnwrap(probe.rssKiB)
        XCTAssertLessThan(after - before, 64 << 10, "RSS grew from \(before) KiB to \(after) KiB: a body was kept")

        // Expect: 100-continue without the token: 401, never 100.
        let expect = session.client(["post-big", session.base, "--expect"]).json
        XCTAssertEqual(expect?["status"] as? Int, 401, "\(expect ?? [:])")
        XCTAssertEqual(expect?["continue"] as? Bool, false)

        // A normal command still goes through.
        let pause = session.client(["http", "POST", session.base + "/api/command", "--token", session.token, "--body", "pause"]).json
        XCTAssertEqual(pause?["status"] as? Int, 200, "\(pause ?? [:])")
    }

    /// Headers that never end: 408 and the connection closed (the limit is 10 s; waited up to 40).
    func testARequestThatNeverEndsIsClosed() throws {
        let session = try RemoteSession(["--remote=0", "--loop", TestMedia.vp8])
        defer { session.stop() }
        let result = session.client(["half", session.base, "--wait", "40"], timeout: 90).json
        XCTAssertEqual(result?["status"] as? Int, 408, "\(result ?? [:])")
        XCTAssertEqual(result?["closed"] as? Bool, true, "\(result ?? [:])")
        XCTAssertEqual(session.client(["http", "GET", session.base + "/api/status", "--token", session.token]).json?["status"] as? Int, 200)
    }

    /// A kept-alive connection that asks nothing more is closed after the limit without an
    /// answer nobody asked for (a 408 there could pass for the answer to its next request).
    func testAnIdleKeptAliveConnectionIsClosedQuietly() throws {
        let session = try RemoteSession(["--remote=0", "--loop", TestMedia.vp8])
        defer { session.stop() }
        let result = session.client(["idle", session.base, "--token", session.token, "--wait", "40"], timeout: 90).json
        XCTAssertEqual(result?["status"] as? Int, 200, "\(result ?? [:])")
        XCTAssertEqual(result?["closed"] as? Bool, true, "\(result ?? [:])")
        XCTAssertEqual(result?["after"] as? String, "", "nothing sent after the answer")
        // A WebSocket is not an idle HTTP connection: silent for longer than the limit, still served.
        let quiet = session.client(["quiet-ws", session.base, "--token", session.token, "--seconds", "15"], timeout: 90).json
        XCTAssertEqual(quiet?["answered"] as? Bool, true, "\(quiet ?? [:])")
    }

    /// Twenty thumbnails asked at once: at most two are made, the others get 503 with Retry-After.
    func testThumbnailsAreMadeTwoAtATime() throws {
        let session = try RemoteSession(["--remote=0", "--loop", TestMedia.vp8])
        defer { session.stop() }
        XCTAssertTrue(session.child.waitForLine(containing: #""to":"playing""#, timeout: 30), session.child.stdout)
        let result = session.client(["parallel", session.base + "/api/thumbnail.png?t=1", "--token", session.token, "--count", "20"], timeout: 120).json
        let statuses = result?["statuses"] as? [Int] ?? []
        let retry = result?["retry_after"] as? [Any] ?? []
        XCTAssertEqual(statuses.count, 20, "\(result ?? [:])")
        XCTAssertEqual(Set(statuses).subtracting([200, 503]), [], "\(statuses)")
        XCTAssertGreaterThan(statuses.filter { $0 == 200 }.count, 0, "\(statuses)")
        XCTAssertGreaterThan(statuses.filter { $0 == 503 }.count, 0, "twenty at once cannot all be made: \(statuses)")
        for (status, value) in zip(statuses, retry) where status == 503 {
            XCTAssertEqual(value as? String, "1", "503 says when to try again")
        }
        // Once they are done, one more is made.
        XCTAssertTrue(eventually(timeout: .seconds(20)) {
            session.client(["http", "GET", session.base + "/api/thumbnail.png?t=1", "--token", session.token]).json?["status"] as? Int == 200
        })
    }

    /// A DNS rebinding: the page of `evil.example`, resolved to 127.0.0.1, sends its own name as
    /// `Host` and `Origin` (they agree, which is all the old check compared).
    func testOnlyThisServersHostAndOriginPass() throws {
        let session = try RemoteSession(["--remote=0", "--loop", TestMedia.vp8])
        defer { session.stop() }
        let port = session.port
        let rebound = session.client(["upgrade", session.base, "--token", session.token,
                                      "--host", "evil.example:\(port)", "--origin", "http://evil.example:\(port)"]).json
        XCTAssertEqual(rebound?["status"] as? Int, 403, "\(rebound ?? [:])")
        let status = session.client(["http", "GET", session.base + "/api/status", "--token", session.token, "--host", "evil.example:\(port)"]).json
        XCTAssertEqual(status?["status"] as? Int, 403, "\(status ?? [:])")
        XCTAssertEqual(session.client(["http", "GET", session.base + "/", "--host", "evil.example:\(port)"]).json?["status"] as? Int, 403)
        for name in ["localhost", "127.0.0.1"] {
            let own = session.client(["upgrade", session.base, "--token", session.token,
                                      "--host", "\(name):\(port)", "--origin", "http://\(name):\(port)"]).json
            XCTAssertEqual(own?["status"] as? Int, 101, "\(name): \(own ?? [:])")
        }
    }

    func testATokenFileOthersMayReadIsRefused() throws {
        let file = NSTemporaryDirectory() + "remote-token-\(UUID().uuidString.prefix(8))"
        defer { unlink(file) }
        try "exposed-token-0123456789\n".write(toFile: file, atomically: true, encoding: .utf8)
        for mode: mode_t in [0o644, 0o640, 0o604] {
            chmod(file, mode)
            let result = try GstplayProcess.run(["--remote", "--remote-token-file", file, TestMedia.vp8], timeout: 20)
            XCTAssertEqual(result.status, 2, "mode \(String(mode, radix: 8)): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("may be read by others (mode \(String(mode, radix: 8))); make it private: chmod 600"), result.stderr)
        }
    }
}
