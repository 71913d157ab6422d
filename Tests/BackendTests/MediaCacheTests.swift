@testable import BackendCache
@testable import BackendCore
import Backend
import Foundation
import GLibSupport
import ProcessProbe
import XCTest

/// ``MediaCache`` on a real directory: keys, complete-only stores, LRU eviction, repair after a
/// crash, two processes sharing it, and `kill -9` during a download and during an index write.
final class MediaCacheTests: XCTestCase {
    var dir: String!

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "gstplay-cache-\(UUID().uuidString)"
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    /// Writes `count` bytes of `byte` to a new partial download of `uri`; returns its path.
    func download(_ cache: MediaCache, _ uri: String, count: Int, byte: UInt8 = 0x41) throws -> String {
        var template = Array(try cache.partialTemplate(for: uri).utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        XCTAssertGreaterThanOrEqual(fd, 0)
        let bytes = [UInt8](repeating: byte, count: count)
        XCTAssertEqual(bytes.withUnsafeBytes { write(fd, $0.baseAddress, count) }, count)
        close(fd)
        return String(cString: template)
    }

    func files(_ sub: String = "") -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir + sub)) ?? []).sorted()
    }

    func testKeyIsTheSHA256OfTheURI() {
        XCTAssertEqual(MediaCache.key(for: "abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertTrue(CacheRepair.isKey(MediaCache.key(for: "http://127.0.0.1/a.webm")))
    }

    /// The directory is the caller's (gstplay's XDG default: CacheCLITests); the size limit has a default.
    func testTheDefaultSizeLimitIsTwoGiB() {
        XCTAssertEqual(MediaCache.defaultSizeLimit, 2 * 1024 * 1024 * 1024)
    }

    func testACompleteDownloadIsStoredAndFound() throws {
        let cache = MediaCache(directory: dir)
        let uri = "http://127.0.0.1/a.webm"
        XCTAssertNil(try cache.lookup(uri))
        let partial = try download(cache, uri, count: 1000)
        let stored = try cache.store(uri: uri, file: partial, expectedSize: 1000, etag: "\"e1\"", lastModified: "Mon, 23 Nov 2026 10:00:00 GMT")
        XCTAssertFalse(FileManager.default.fileExists(atPath: partial), "moved, not copied")
        let found = try XCTUnwrap(cache.lookup(uri))
        XCTAssertEqual(found.size, 1000)
        XCTAssertEqual(found.etag, "\"e1\"")
        XCTAssertEqual(found.lastModified, "Mon, 23 Nov 2026 10:00:00 GMT")
        XCTAssertGreaterThanOrEqual(found.lastUsed, stored.lastUsed)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: cache.path(of: found))), Data(repeating: 0x41, count: 1000))
        XCTAssertEqual(files(), ["index.json", "lock", MediaCache.key(for: uri), "partial"].sorted())
        // The index is plain JSON with these fields.
        let index = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/index.json"))) as? [String: Any]
        let entry = try XCTUnwrap((index?["entries"] as? [[String: Any]])?.first)
        XCTAssertEqual(Set(entry.keys), ["uri", "key", "size", "etag", "lastModified", "storedAt", "lastUsed"])
    }

    func testFindReadsWithoutWritingAndTouchMarksTheUse() throws {
        let cache = MediaCache(directory: dir)
        XCTAssertNil(cache.find("http://x/a"), "no directory yet: nothing, and nothing created")
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir))
        let stored = try cache.store(uri: "http://x/a", file: download(cache, "http://x/a", count: 10), expectedSize: 10)
        let index = try Data(contentsOf: URL(fileURLWithPath: dir + "/index.json"))
        XCTAssertEqual(cache.find("http://x/a"), stored)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: dir + "/index.json")), index, "find does not write")
        try cache.touch("http://x/a")
        XCTAssertGreaterThan(try XCTUnwrap(cache.entries().first).lastUsed, stored.lastUsed)
        truncate(dir + "/" + MediaCache.key(for: "http://x/a"), 5)
        XCTAssertNil(cache.find("http://x/a"), "a file of the wrong size is not served")
    }

    func testAnIncompleteDownloadIsRefusedAndDeleted() throws {
        let cache = MediaCache(directory: dir)
        let partial = try download(cache, "http://x/b", count: 500)
        XCTAssertThrowsError(try cache.store(uri: "http://x/b", file: partial, expectedSize: 1000)) { error in
            XCTAssertEqual("\(error)", "incomplete download: 500 of 1000 bytes")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: partial))
        XCTAssertEqual(try cache.entries(), [])
    }

    func testLeastRecentlyUsedFilesAreEvictedOverTheLimit() throws {
        let cache = MediaCache(directory: dir, sizeLimit: 350)
        for name in ["a", "b", "c"] {
            try cache.store(uri: "http://x/\(name)", file: download(cache, "http://x/\(name)", count: 100), expectedSize: 100)
        }
        XCTAssertNotNil(try cache.lookup("http://x/a"))  // a is now more recent than b and c
        try cache.store(uri: "http://x/d", file: download(cache, "http://x/d", count: 100), expectedSize: 100)
        XCTAssertEqual(try cache.entries().map(\.uri), ["http://x/c", "http://x/a", "http://x/d"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/" + MediaCache.key(for: "http://x/b")))
        XCTAssertEqual(try cache.totalSize(), 300)
        // A file larger than the whole limit is not kept.
        XCTAssertThrowsError(try cache.store(uri: "http://x/big", file: download(cache, "http://x/big", count: 400), expectedSize: 400))
        XCTAssertEqual(try cache.entries().count, 3)
    }

    func testRemoveAndClear() throws {
        let cache = MediaCache(directory: dir)
        for name in ["a", "b"] {
            try cache.store(uri: "http://x/\(name)", file: download(cache, "http://x/\(name)", count: 10), expectedSize: 10)
        }
        try cache.remove("http://x/a")
        XCTAssertEqual(try cache.entries().map(\.uri), ["http://x/b"])
        try cache.clear()
        XCTAssertEqual(try cache.entries(), [])
        XCTAssertEqual(files().filter(CacheRepair.isKey), [])
    }

    func testRepairRemovesWhatACrashLeaves() throws {
        let cache = MediaCache(directory: dir)
        try cache.store(uri: "http://x/kept", file: download(cache, "http://x/kept", count: 10), expectedSize: 10)
        try cache.store(uri: "http://x/gone", file: download(cache, "http://x/gone", count: 10), expectedSize: 10)
        try cache.store(uri: "http://x/cut", file: download(cache, "http://x/cut", count: 10), expectedSize: 10)
        // A file deleted behind the cache's back, one truncated, an unlisted one (kept: the index
        // does not prove it is the cache's), a dead writer's partial download and index
        // temporary, and a live process's (our own) partial download.
        unlink(dir + "/" + MediaCache.key(for: "http://x/gone"))
        truncate(dir + "/" + MediaCache.key(for: "http://x/cut"), 5)
        let orphan = dir + "/" + MediaCache.key(for: "http://x/orphan")
        FileManager.default.createFile(atPath: orphan, contents: Data([1, 2, 3]))
        let dead = deadPID()
        FileManager.default.createFile(atPath: dir + "/partial/\(dead)-\(MediaCache.key(for: "u"))-abcdef", contents: Data([1]))
        FileManager.default.createFile(atPath: dir + "/index.json.tmp-\(dead)", contents: Data("{".utf8))
        let live = try download(cache, "http://x/live", count: 3)
        XCTAssertEqual(try cache.entries().map(\.uri), ["http://x/kept"])
        XCTAssertEqual(files(), ["index.json", "lock", MediaCache.key(for: "http://x/kept"), MediaCache.key(for: "http://x/orphan"),
                                 "partial"].sorted())
        XCTAssertEqual(files("/partial"), [(live as NSString).lastPathComponent])
    }

    func testAReadOnlyPartialDirectoryRefusesTheDownload() throws {
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: dir + "/partial", withDestinationPath: "/sys/kernel")
        let cache = MediaCache(directory: dir)
        XCTAssertThrowsError(try cache.partialTemplate(for: "http://x/a")) { error in
            XCTAssertTrue("\(error)".contains("cannot write downloads into"), "\(error)")
            XCTAssertTrue("\(error)".contains("Permission denied"), "\(error)")
        }
    }

    func testAnUnwritableDirectoryIsAProblemNotACrash() {
        let cache = MediaCache(directory: "/proc/gstplay-cache")
        XCTAssertThrowsError(try cache.lookup("http://x/a")) { XCTAssertTrue("\($0)".contains("cannot create the cache directory"), "\($0)") }
    }

    /// A pid that no process has (a child that has exited and been reaped).
    private func deadPID() -> pid_t {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/true")
        try? child.run()
        child.waitUntilExit()
        return child.processIdentifier
    }

    // MARK: Child processes

    /// Not a test on its own: the child of the multi-process tests (env `GSTPLAY_CACHE_CHILD`
    /// = `mode:dir:name`). `store`: stores 40 files named after `name`; `download`: writes a
    /// partial download slowly, forever; `index`: stores one file and stops inside the index write.
    func testChildWorksOnTheCache() throws {
        guard let spec = ProcessInfo.processInfo.environment["GSTPLAY_CACHE_CHILD"] else {
            throw XCTSkip("only runs as the child of the MediaCacheTests multi-process tests")
        }
        let parts = spec.split(separator: ":", maxSplits: 2).map(String.init)
        let cache = MediaCache(directory: parts[1])
        switch parts[0] {
        case "store":
            for n in 0..<40 {
                let uri = "http://x/\(parts[2])/\(n)"
                try cache.store(uri: uri, file: download(cache, uri, count: 64), expectedSize: 64)
            }
        case "download":
            var template = Array(try cache.partialTemplate(for: "http://x/slow").utf8CString)
            let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            while true {
                _ = [UInt8](repeating: 7, count: 1024).withUnsafeBytes { write(fd, $0.baseAddress, 1024) }
                usleep(1000)
            }
        default:
            // `index`: the file size limit (RLIMIT_FSIZE) cuts the first index write at 4096 bytes and
            // the kernel raises SIGXFSZ inside that write(2); the handler stops the process there
            // (SIGSTOP), so the parent's SIGKILL lands inside the index write on every run, at any speed.
            // GLib's `g_file_set_contents_full` first reserves the whole size (`fallocate`, best
            // effort): that raises the first SIGXFSZ, which the handler lets pass.
            var limit = rlimit()
            getrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &limit)
            limit.rlim_cur = rlim_t(Self.indexWriteStop)
            XCTAssertEqual(setrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &limit), 0)
            signal(SIGXFSZ) { _ in
                MediaCacheTests.fileSizeSignals += 1
                if MediaCacheTests.fileSizeSignals > 1 { raise(SIGSTOP) }
            }
            try cache.store(uri: "http://x/child", file: download(cache, "http://x/child", count: 16), expectedSize: 16)
            XCTFail("the store finished: the index write was not cut at the file size limit")
        }
    }

    private func startChild(_ mode: String, name: String = "") throws -> Process {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        child.arguments = ["BackendTests.MediaCacheTests/testChildWorksOnTheCache"]
        var environment = ProcessInfo.processInfo.environment
        environment["GSTPLAY_CACHE_CHILD"] = "\(mode):\(dir!):\(name)"
        // Under `make test-asan` (full DWARF stacks on every malloc) a child decoding a 1000-entry
        // index is slow; children are killed or check nothing at exit: fast stacks.
        if ProcessProbe.underSanitizer { environment["ASAN_OPTIONS"] = (environment["ASAN_OPTIONS"].map { $0 + ":" } ?? "") + "fast_unwind_on_malloc=1" }
        child.environment = environment
        child.standardOutput = FileHandle.nullDevice
        child.standardError = FileHandle.nullDevice
        try child.run()
        return child
    }

    func testTwoProcessesStoringAtOnceLoseNothing() throws {
        let children = try ["one", "two"].map { try startChild("store", name: $0) }
        for child in children {
            child.waitUntilExit()
            XCTAssertEqual(child.terminationStatus, 0)
        }
        let uris = Set(try MediaCache(directory: dir).entries().map(\.uri))
        XCTAssertEqual(uris.count, 80, "every store of both processes is in the index")
        XCTAssertEqual(files().filter(CacheRepair.isKey).count, 80)
    }

    func testKillDuringADownloadLeavesNoPartialFile() throws {
        let cache = MediaCache(directory: dir)
        try cache.store(uri: "http://x/kept", file: download(cache, "http://x/kept", count: 100), expectedSize: 100)
        let child = try startChild("download")
        let prefix = "\(child.processIdentifier)-"
        XCTAssertTrue(waitUntil(timeout: 20) { self.files("/partial").contains { $0.hasPrefix(prefix) } }, "the child started its download")
        usleep(50_000)
        kill(child.processIdentifier, SIGKILL)
        child.waitUntilExit()
        XCTAssertEqual(child.terminationReason, .uncaughtSignal)
        XCTAssertEqual(try cache.entries().map(\.uri), ["http://x/kept"])
        XCTAssertEqual(files("/partial"), [], "the dead download is removed")
        XCTAssertNotNil(try cache.lookup("http://x/kept"))
    }

    /// SIGXFSZ signals the `index` child has had (its handler's count; the child is single-threaded).
    nonisolated(unsafe) private static var fileSizeSignals = 0

    /// The child's file size limit: where its index write stops (the index is larger).
    private static let indexWriteStop = 4096

    /// `kill -9` inside an index write, at a known point: the child stops itself in the middle of
    /// writing its `index.json.XXXXXX` (see `testChildWorksOnTheCache`), the parent sees it stopped
    /// with a half-written temp file, then kills it. Three times; the index stays whole each time.
    func testKillDuringAnIndexWriteLeavesAWholeIndex() throws {
        let cache = MediaCache(directory: dir)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) // reading never creates it
        XCTAssertEqual(try cache.entries(), [])
        let count = 1000  // more keys than one 32 KB readdir buffer holds: how ASan found the old loop reading past an entry
        for n in 0..<count {
            let key = MediaCache.key(for: "http://x/\(n)")
            FileManager.default.createFile(atPath: dir + "/" + key, contents: Data([1]))
        }
        let entries = (0..<count).map { MediaCache.Entry(uri: "http://x/\($0)", key: MediaCache.key(for: "http://x/\($0)"), size: 1,
                                                         etag: nil, lastModified: nil, storedAt: 1, lastUsed: Double($0)) }
        try JSONEncoder().encode(MediaCache.IndexFile(entries: entries)).write(to: URL(fileURLWithPath: cache.indexPath))
        XCTAssertGreaterThan(try Data(contentsOf: URL(fileURLWithPath: cache.indexPath)).count, 2 * Self.indexWriteStop)
        for attempt in 0..<3 {
            let child = try startChild("index")
            let probe = ProcessProbe(pid: child.processIdentifier)
            let stopped = waitUntil(timeout: 120) { probe.state == "T" || !child.isRunning } && probe.state == "T"
            // Only the child writes, so the one temporary index is its own (`g_file_set_contents_full`).
            let temps = files().filter { AtomicFile.isTemporary($0, of: "index.json") }
            XCTAssertEqual(temps.count, 1, "attempt \(attempt): \(temps)")
            let written = temps.first.flatMap { (try? FileManager.default.attributesOfItem(atPath: dir + "/" + $0))?[.size] as? Int }
            kill(child.processIdentifier, SIGKILL)
            child.waitUntilExit()
            XCTAssertTrue(stopped, "attempt \(attempt): the child never stopped inside its index write")
            XCTAssertEqual(written, Self.indexWriteStop, "attempt \(attempt): killed with a half-written temp index")
            XCTAssertEqual(child.terminationReason, .uncaughtSignal)
            XCTAssertEqual(child.terminationStatus, SIGKILL)
            let after = try cache.entries().filter { $0.uri != "http://x/child" }
            XCTAssertEqual(after.count, count, "attempt \(attempt): every other entry survives")
        }
        XCTAssertEqual(files().filter { AtomicFile.isTemporary($0, of: "index.json") }, [])
        XCTAssertEqual(files("/partial"), [])
        try cache.store(uri: "http://x/after", file: download(cache, "http://x/after", count: 5), expectedSize: 5)
        XCTAssertNotNil(try cache.lookup("http://x/after"))
    }

    private func waitUntil(timeout: TimeInterval, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition() { return true }
            usleep(200)
        }
        return condition()
    }
}
