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
            XCTAssertTrue(result.stderr.hasPrefix("gstplay: error: "), result.stderr)
        }
    }

    // MARK: Damaged index, revalidation, offline use and cache-directory fallbacks

    /// A media directory for an ``HTTPTestServer`` holding one file, `clip` (the VP8 fixture).
    private func clipDirectory() throws -> String {
        let media = dir + "/media"
        try FileManager.default.createDirectory(atPath: media, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: TestMedia.vp8, toPath: media + "/clip")
        return media
    }

    /// Plays `url` (the `clip` of ``clipDirectory()``) once, so it is stored in `cacheDir`, then
    /// replaces the clip on the server with the Theora fixture and forgets the requests so far.
    private func storeThenReplaceClip(_ url: String, cacheDir: String, on local: HTTPTestServer) throws {
        let first = try GstplayProcess.run(["--json", "--cache-dir", cacheDir, url], timeout: 30)
        XCTAssertEqual(cacheEvents(first.stdout).compactMap { $0["state"] as? String }, ["miss", "storing", "stored"], first.stdout)
        let media = dir + "/media"
        try FileManager.default.removeItem(atPath: media + "/clip")
        try FileManager.default.copyItem(atPath: TestMedia.theora, toPath: media + "/clip")
        _ = local.requests(clear: true)
    }

    /// `--cache=offline` asks nothing; `--cache-revalidate 0` revalidates (a replaced
    /// file is downloaded again); `gstplay cache remove URL` forgets one URI.
    /// `gstplay cache list` on a hand-damaged index: the entries that read are listed, one
    /// warning says what was dropped, no file is deleted (it used to list 0 files and delete all
    /// three, silently); an index of a newer version is one error, exit 1, and is left alone.
    func testADamagedIndexKeepsWhatReadsWithOneWarningAndANewerOneIsLeftAlone() throws {
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        var entries: [[String: Any]] = []
        for (uri, size) in [("http://x/a", 3), ("http://x/b", 5), ("http://x/c", 4)] {
            let key = try sha256(uri)
            FileManager.default.createFile(atPath: dir + "/" + key, contents: Data(repeating: 1, count: size))
            entries.append(["uri": uri, "key": key, "size": size, "storedAt": 1_764_000_000, "lastUsed": 1e300])
        }
        entries[1]["size"] = "five"
        let index = URL(fileURLWithPath: dir + "/index.json")
        try JSONSerialization.data(withJSONObject: ["version": 1, "entries": entries]).write(to: index)
        let list = try GstplayProcess.run(["cache", "list", "--cache-dir", dir])
        XCTAssertEqual(list.status, 0, list.stderr)
        XCTAssertTrue(list.stdout.contains("2 file(s), 7 B"), list.stdout)
        XCTAssertEqual(list.stderr.split(separator: "\n").count, 1, list.stderr)
        XCTAssertTrue(list.stderr.hasPrefix("gstplay: warning: media cache: 1 of 3 entries of the cache index"), list.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.count == 64 }.count, 3, "no file deleted")
        let again = try GstplayProcess.run(["cache", "list", "--cache-dir", dir])
        XCTAssertEqual(again.stderr, "", "said once")

        var newer = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: index)) as? [String: Any])
        newer["version"] = 2
        try JSONSerialization.data(withJSONObject: newer).write(to: index)
        let before = try Data(contentsOf: index)
        for action in ["list", "clear"] {
            let run = try GstplayProcess.run(["cache", action, "--cache-dir", dir])
            XCTAssertEqual(run.status, 1, run.stderr)
            XCTAssertTrue(run.stderr.hasPrefix("gstplay: error: media cache: the cache index '\(dir!)/index.json' is of format version 2"), run.stderr)
        }
        XCTAssertEqual(try Data(contentsOf: index), before)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.count == 64 }.count, 3, "no file deleted")
    }

    /// SHA-256 of `text` in lowercase hex (the cache's key), from coreutils' `sha256sum`.
    private func sha256(_ text: String) throws -> String {
        let process = Process(), input = Pipe(), output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(text.utf8))
        try input.fileHandleForWriting.close()
        let digest = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: digest.prefix(64), as: UTF8.self)
    }

    func testOfflineRevalidateAndRemove() throws {
        let local = try HTTPTestServer(media: try clipDirectory())
        defer { local.stop() }
        let url = local.url("/file/clip"), cacheDir = dir + "/cache"
        try storeThenReplaceClip(url, cacheDir: cacheDir, on: local)

        let offline = try GstplayProcess.run(["--json", "--cache=offline", "--cache-revalidate", "0", "--cache-dir", cacheDir, url], timeout: 30)
        XCTAssertEqual(offline.status, 0, offline.stderr)
        XCTAssertEqual(cacheEvents(offline.stdout).compactMap { $0["state"] as? String }, ["hit"], offline.stdout)
        XCTAssertEqual(local.requests(), [], "offline: no request")

        let fresh = try GstplayProcess.run(["--json", "--cache-revalidate", "0", "--cache-dir", cacheDir, url], timeout: 30)
        XCTAssertEqual(fresh.status, 0, fresh.stderr)
        XCTAssertEqual(cacheEvents(fresh.stdout).compactMap { $0["state"] as? String }, ["miss", "storing", "stored"], fresh.stdout)
        XCTAssertNotNil(local.requests().first?.ifNoneMatch, "\(local.requests())")

        let remove = try GstplayProcess.run(["cache", "remove", url, "--cache-dir", cacheDir])
        XCTAssertEqual(remove.status, 0, remove.stderr)
        XCTAssertTrue(remove.stdout.hasPrefix("Removed \(url) ("), remove.stdout)
        let again = try GstplayProcess.run(["cache", "remove", url, "--cache-dir", cacheDir])
        XCTAssertEqual(again.status, 1)
        XCTAssertEqual(again.stderr, "gstplay: error: media cache: not cached: \(url)\n")
        let list = try GstplayProcess.run(["cache", "list", "--cache-dir", cacheDir])
        XCTAssertTrue(list.stdout.contains("0 file(s)"), list.stdout)
        for bad in [["--cache=sometimes", url], ["--cache-revalidate", "-1", url], ["cache", "remove"], ["cache", "list", url]] {
            XCTAssertEqual(try GstplayProcess.run(bad).status, 2, "\(bad)")
        }
    }

    /// Item 4 with the default interval: a server's `max-age=0` makes the next play revalidate
    /// (the replaced file is downloaded again), `no-store` is never kept.
    func testMaxAgeZeroRevalidatesAndNoStoreIsNotKept() throws {
        let local = try HTTPTestServer(media: try clipDirectory())
        defer { local.stop() }
        let url = local.url("/file/clip?cc=max-age%3D0"), cacheDir = dir + "/cache"
        try storeThenReplaceClip(url, cacheDir: cacheDir, on: local)
        let second = try GstplayProcess.run(["--json", "--cache-dir", cacheDir, url], timeout: 30)
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertEqual(cacheEvents(second.stdout).compactMap { $0["state"] as? String }, ["miss", "storing", "stored"], second.stdout)
        let stored = try XCTUnwrap(cacheEvents(second.stdout).last?["path"] as? String)
        XCTAssertEqual(FileManager.default.contents(atPath: stored), FileManager.default.contents(atPath: TestMedia.theora))

        let noStore = local.url("/file/clip?cc=no-store")
        let played = try GstplayProcess.run(["--json", "--cache-dir", cacheDir, noStore], timeout: 30)
        XCTAssertEqual(played.status, 0, played.stderr)
        XCTAssertEqual(cacheEvents(played.stdout).last?["state"] as? String, "discarded", played.stdout)
        let list = try GstplayProcess.run(["cache", "list", "--cache-dir", cacheDir])
        XCTAssertFalse(list.stdout.contains(noStore), list.stdout)
    }

    /// A cache home that is a file (so no download file can go there) still plays, with
    /// and without the cache, and says so in one line.
    func testAnUnusableCacheHomeFallsBackToTheTempDirectory() throws {
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let file = dir + "/not-a-directory"
        XCTAssertTrue(FileManager.default.createFile(atPath: file, contents: Data("x".utf8)))
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CACHE_HOME"] = file
        for arguments in [["--no-cache"], []] {
            let result = try GstplayProcess.run(arguments + [server.url("/file/vp8-opus-4s.webm")], timeout: 30, environment: environment)
            XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)")
            let notes = result.stderr.split(separator: "\n").filter { $0.contains("not a writable directory") }
            XCTAssertEqual(notes.count, 1, "\(arguments): said once: \(result.stderr)")
            XCTAssertTrue(notes.first?.contains("download file in") ?? false, result.stderr)
            XCTAssertFalse(result.stderr.contains("network"), result.stderr)
        }
        environment["TMPDIR"] = file     // g_get_tmp_dir() unusable too: no download file at all
        let result = try GstplayProcess.run(["--no-cache", server.url("/file/vp8-opus-4s.webm")], timeout: 30, environment: environment)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr.components(separatedBy: "playing without a download file").count, 2, result.stderr)
    }

    /// A relative `--cache-dir` is resolved against the working directory; `cache
    /// list`/`clear` on a missing directory create nothing.
    func testARelativeCacheDirIsUnderTheWorkingDirectory() throws {
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let cwd = URL(fileURLWithPath: dir).resolvingSymlinksInPath().path
        let name = "rel-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: "/" + name) }    // what the bug made
        let played = try GstplayProcess.run(["--json", "--cache-dir", name, server.url("/file/vp8-opus-4s.webm")], timeout: 30, directory: cwd)
        XCTAssertEqual(played.status, 0, played.stderr)
        XCTAssertEqual(cacheEvents(played.stdout).last?["state"] as? String, "stored", played.stdout)
        XCTAssertTrue((cacheEvents(played.stdout).last?["path"] as? String)?.hasPrefix(cwd + "/" + name + "/") ?? false, played.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: "/" + name), "nothing under /")
        let path = try GstplayProcess.run(["cache", "path", "--cache-dir", name], directory: cwd)
        XCTAssertEqual(path.stdout, cwd + "/" + name + "\n")
        for action in ["list", "clear"] {
            let missing = "missing-\(UUID().uuidString)"
            defer { try? FileManager.default.removeItem(atPath: "/" + missing) }
            let result = try GstplayProcess.run(["cache", action, "--cache-dir", missing], directory: cwd)
            XCTAssertEqual(result.status, 0, "\(action): \(result.stderr)")
            XCTAssertTrue(result.stdout.contains("0 file(s), 0 B"), result.stdout)
            XCTAssertFalse(FileManager.default.fileExists(atPath: cwd + "/" + missing), "\(action) created the directory")
            XCTAssertFalse(FileManager.default.fileExists(atPath: "/" + missing), "\(action) created it under /")
        }
    }
}
