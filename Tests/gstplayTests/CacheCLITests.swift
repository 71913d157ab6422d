import Foundation
import TestSupport
import XCTest

/// The media cache from the command line: `--cache-dir`, `--no-cache`, the `cache` JSON event,
/// `gstplay cache list|clear|path`, and the default location under `XDG_CACHE_HOME`.
final class CacheCLITests: XCTestCase {
    private var server: HTTPTestServer!
    private var dir: String!

    override func setUpWithError() throws {
        server = try HTTPTestServer()
        dir = NSTemporaryDirectory() + "gstplay-clicache-\(UUID().uuidString)"
    }

    override func tearDown() {
        server.stop()
        try? FileManager.default.removeItem(atPath: dir)
    }

    private func cacheEvents(_ stdout: String) -> [[String: Any]] {
        stdout.split(separator: "\n").compactMap { jsonObject(String($0)) }.filter { $0["event"] as? String == "cache" }
    }

    func testSecondPlayIsACacheHitWithNoRequestAndListAndClearWork() throws {
        let url = server.url("/file/vp8-opus-4s.webm")
        let first = try GstplayProcess.run(["--json", "--cache-dir", dir, url], timeout: 30)
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(cacheEvents(first.stdout).compactMap { $0["state"] as? String }, ["miss", "storing", "stored"], first.stdout)
        let stored = try XCTUnwrap(cacheEvents(first.stdout).last?["path"] as? String)
        XCTAssertTrue(stored.hasPrefix(dir + "/"), stored)

        _ = server.requests(clear: true)
        let second = try GstplayProcess.run(["--json", "--cache-dir", dir, url], timeout: 30)
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertEqual(cacheEvents(second.stdout).compactMap { $0["state"] as? String }, ["hit"])
        XCTAssertEqual(cacheEvents(second.stdout).first?["path"] as? String, stored)
        XCTAssertEqual(server.requests(), [], "a cache hit makes no HTTP request")

        let list = try GstplayProcess.run(["cache", "list", "--cache-dir", dir])
        XCTAssertEqual(list.status, 0, list.stderr)
        XCTAssertTrue(list.stdout.contains("86.3 KiB"), list.stdout)
        XCTAssertTrue(list.stdout.contains(url), list.stdout)
        XCTAssertTrue(list.stdout.contains("1 file(s), 86.3 KiB in \(dir!)"), list.stdout)

        let path = try GstplayProcess.run(["cache", "path", "--cache-dir", dir])
        XCTAssertEqual(path.stdout, dir + "\n")

        let clear = try GstplayProcess.run(["cache", "clear", "--cache-dir", dir])
        XCTAssertEqual(clear.status, 0, clear.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: stored))
        let empty = try GstplayProcess.run(["cache", "list", "--cache-dir", dir])
        XCTAssertTrue(empty.stdout.contains("0 file(s), 0 B"), empty.stdout)
    }

    func testNoCacheStoresNothing() throws {
        let result = try GstplayProcess.run(["--json", "--no-cache", "--cache-dir", dir, server.url("/file/vp8-opus-4s.webm")], timeout: 30)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(cacheEvents(result.stdout).count, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir))
    }

    func testTheDefaultCacheFollowsXDGCacheHome() throws {
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CACHE_HOME"] = dir
        let child = GstplayProcess(["cache", "path"], input: .devNull, environment: environment)
        try child.start()
        XCTAssertEqual(child.waitForExit(), 0)
        XCTAssertEqual(child.stdout, dir + "/gstplay/media\n")
    }

    func testBadCacheOptionsAreUsageErrors() throws {
        for arguments in [["--cache-size", "lots", "x.mp4"], ["--network-timeout", "0", "x.mp4"], ["cache", "shrink"]] {
            let result = try GstplayProcess.run(arguments)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("Error:"), result.stderr)
        }
    }
}
