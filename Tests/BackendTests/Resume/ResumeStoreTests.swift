import Backend
@testable import BackendResume
import Foundation
import XCTest

/// ``ResumeStore`` on real files: keys, finished items, corrupt/unreadable/read-only state,
/// and a writer killed with SIGKILL in the middle of a save.
final class ResumeStoreTests: XCTestCase {
    private var dir = ""

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "gstplay-resume-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        chmod(dir, 0o700)
        try? FileManager.default.removeItem(atPath: dir)
    }

    private func media(_ name: String, bytes: Int = 100) -> String {
        let path = dir + "/" + name
        FileManager.default.createFile(atPath: path, contents: Data(repeating: 7, count: bytes))
        return "file://" + path
    }

    func testSavesAndRestoresPerURIAndKeepsOtherEntries() throws {
        let store = ResumeStore(directory: dir + "/state")
        let a = media("a.ogg"), b = media("b.ogg")
        try store.save(uri: a, position: MediaTime(seconds: 12.5), duration: MediaTime(seconds: 100))
        try store.save(uri: b, position: MediaTime(seconds: 3), duration: MediaTime(seconds: 100))
        try store.save(uri: "http://127.0.0.1/x", position: MediaTime(seconds: 7), duration: nil)
        XCTAssertEqual(try store.position(for: a), MediaTime(seconds: 12.5))
        XCTAssertEqual(try store.position(for: b), MediaTime(seconds: 3))
        XCTAssertEqual(try store.position(for: "http://127.0.0.1/x"), MediaTime(seconds: 7))
        XCTAssertNil(try store.position(for: media("c.ogg")))
        let entry = try XCTUnwrap(store.entries().first { $0.uri == a })
        XCTAssertEqual(entry.size, 100)
        XCTAssertNotNil(entry.mtime)
        XCTAssertEqual(store.path, dir + "/state/resume.json")
    }

    func testAChangedFileDoesNotResume() throws {
        let store = ResumeStore(directory: dir)
        let a = media("a.ogg")
        try store.save(uri: a, position: MediaTime(seconds: 5), duration: MediaTime(seconds: 60))
        _ = media("a.ogg", bytes: 200)
        XCTAssertNil(try store.position(for: a))
    }

    func testFinishedItemsAreForgotten() throws {
        let store = ResumeStore(directory: dir)
        let a = media("a.ogg")
        try store.save(uri: a, position: MediaTime(seconds: 50), duration: MediaTime(seconds: 100))
        try store.save(uri: a, position: MediaTime(seconds: 95.5), duration: MediaTime(seconds: 100))
        XCTAssertNil(try store.position(for: a), "less than 5 % left: forgotten")
        try store.save(uri: a, position: MediaTime(seconds: 94), duration: MediaTime(seconds: 100))
        XCTAssertEqual(try store.position(for: a), MediaTime(seconds: 94))
    }

    func testForgetOneAndForgetAll() throws {
        let store = ResumeStore(directory: dir)
        let a = media("a.ogg"), b = media("b.ogg")
        try store.save(uri: a, position: MediaTime(seconds: 5), duration: nil)
        try store.save(uri: b, position: MediaTime(seconds: 6), duration: nil)
        try store.forget(uri: a)
        XCTAssertEqual(try store.entries().map(\.uri), [b])
        try store.forgetAll()
        XCTAssertFalse(FileManager.default.fileExists(atPath: store.path))
        try store.forgetAll() // a missing file is fine
    }

    func testCorruptFileIsReportedCopiedAsideAndNeverCrashes() throws {
        let store = ResumeStore(directory: dir)
        let broken = Data("{\"version\":1,\"entries\":[{\"uri\":".utf8)
        FileManager.default.createFile(atPath: store.path, contents: broken)
        XCTAssertThrowsError(try store.position(for: media("a.ogg"))) {
            XCTAssertTrue(String(describing: $0).contains("is corrupt (not a JSON object)"), "\($0)")
        }
        try store.save(uri: media("a.ogg"), position: MediaTime(seconds: 1), duration: nil)
        XCTAssertEqual(try store.entries().count, 1)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: store.path + ".corrupt")), broken, "the broken file is kept for inspection")
    }

    /// Writes a state file holding `entries` (JSON objects) under `version`.
    private func writeState(_ store: ResumeStore, version: Any = 1, entries: [Any]) throws {
        let object: [String: Any] = ["version": version, "entries": entries]
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: store.path))
    }

    /// Bad entries (wrong types, impossible positions) cost only themselves: the others resume,
    /// one line says what was dropped, and the damaged file is kept aside.
    func testBadEntriesAreDroppedAndTheOthersKept() throws {
        let store = ResumeStore(directory: dir)
        let good = media("good.ogg"), other = media("other.ogg")
        let key = ResumeStore.fileKey(good), otherKey = ResumeStore.fileKey(other)
        func entry(_ uri: String, _ position: Any, duration: Double? = nil) -> [String: Any] {
            var object: [String: Any] = ["uri": uri, "position": position, "savedAt": 1]
            if uri == good { object["size"] = key.size; object["mtime"] = key.mtime }
            if uri == other { object["size"] = otherKey.size; object["mtime"] = otherKey.mtime }
            if let duration { object["duration"] = duration }
            return object
        }
        try writeState(store, entries: [entry(good, 12.5), entry("http://x/type", "twelve"), entry("http://x/negative", -50),
                                        entry("http://x/huge", 1e300), entry("http://x/past", 500, duration: 100),
                                        ["position": 3], 42, entry(other, 7, duration: 60), entry("http://x/tiny", 2e-301)])
        XCTAssertNil(try store.position(for: "http://x/negative"), "an impossible position is never resumed")
        XCTAssertNil(try store.position(for: "http://x/huge"))
        XCTAssertNil(try store.position(for: "http://x/past"))
        XCTAssertNil(try store.position(for: "http://x/tiny"), "a sub-millisecond position (a MediaTime of 0) is the start")
        XCTAssertEqual(try store.position(for: good), MediaTime(seconds: 12.5), "the good entries are used before the repair")
        let notice = try XCTUnwrap(store.repair())
        XCTAssertTrue(notice.contains("dropped 7 of 9 entries"), notice)
        XCTAssertTrue(notice.contains("kept the other 2"), notice)
        XCTAssertTrue(notice.contains("resume.json.corrupt"), notice)
        XCTAssertNil(try store.repair(), "said once: the file is whole again")
        XCTAssertEqual(try store.position(for: good), MediaTime(seconds: 12.5))
        XCTAssertEqual(try store.position(for: other), MediaTime(seconds: 7))
        XCTAssertTrue(try String(contentsOfFile: store.path + ".corrupt", encoding: .utf8).contains("twelve"))
    }

    /// A second damaged file never replaces the copy of the first.
    func testASecondCorruptionKeepsTheFirstCopy() throws {
        let store = ResumeStore(directory: dir)
        FileManager.default.createFile(atPath: store.path, contents: Data("first".utf8))
        XCTAssertNotNil(try store.repair())
        FileManager.default.createFile(atPath: store.path, contents: Data("second".utf8))
        let notice = try XCTUnwrap(store.repair())
        XCTAssertTrue(notice.contains("resume.json.corrupt-2"), notice)
        XCTAssertEqual(try String(contentsOfFile: store.path + ".corrupt", encoding: .utf8), "first")
        XCTAssertEqual(try String(contentsOfFile: store.path + ".corrupt-2", encoding: .utf8), "second")
    }

    /// A file of a newer format version is another gstplay's: left as it is, not used, not saved over.
    func testANewerVersionIsLeftAloneAndNotUsed() throws {
        let store = ResumeStore(directory: dir)
        let a = media("a.ogg")
        try writeState(store, version: 999, entries: [["uri": a, "position": 5, "savedAt": 1]])
        let before = try Data(contentsOf: URL(fileURLWithPath: store.path))
        for operation in [{ _ = try store.position(for: a) }, { try store.repair() },
                          { try store.save(uri: a, position: MediaTime(seconds: 9), duration: nil) }] as [() throws -> Void] {
            XCTAssertThrowsError(try operation()) {
                XCTAssertTrue(String(describing: $0).contains("is of format version 999, newer than this gstplay reads (1)"), "\($0)")
            }
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: store.path)), before, "the file is untouched")
        XCTAssertFalse(FileManager.default.fileExists(atPath: store.path + ".corrupt"))
    }

    /// Impossible positions are not stored either.
    func testImpossiblePositionsAreNotSaved() throws {
        let store = ResumeStore(directory: dir)
        for seconds in [-50, 1e300, ResumeStore.maximumPosition + 1, 2e-301, 0.0009] {
            try store.save(uri: "http://x/a", position: MediaTime(seconds: seconds), duration: nil)
            XCTAssertNil(try store.position(for: "http://x/a"), "\(seconds)")
        }
        try store.save(uri: "http://x/a", position: MediaTime(seconds: 30), duration: MediaTime(seconds: 100))
        XCTAssertEqual(try store.entries().first?.duration, 100)
    }

    func testAFailedSaveLeavesTheStateFileAndItsEntriesAlone() throws {
        // Works as root too: a file size limit (RLIMIT_FSIZE, SIGXFSZ ignored) makes the write of
        // the temporary file fail with EFBIG, so the atomic write fails before the state file is touched.
        let store = ResumeStore(directory: dir)
        let a = media("a.ogg")
        try store.save(uri: a, position: MediaTime(seconds: 5), duration: nil)
        let before = try Data(contentsOf: URL(fileURLWithPath: store.path))
        var saved = rlimit()
        getrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &saved)
        var limited = saved
        limited.rlim_cur = 16
        let oldHandler = signal(SIGXFSZ, SIG_IGN)
        XCTAssertEqual(setrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &limited), 0)
        XCTAssertThrowsError(try store.save(uri: media("b.ogg"), position: MediaTime(seconds: 2), duration: nil)) {
            XCTAssertTrue(String(describing: $0).contains("cannot save the resume state"), "\($0)")
        }
        XCTAssertEqual(setrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &saved), 0)
        signal(SIGXFSZ, oldHandler)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: store.path)), before, "a failed save never touches the state file")
        XCTAssertEqual(temporaries(), [], "GLib removes the temporary file of a failed write")
        XCTAssertEqual(try store.position(for: a), MediaTime(seconds: 5), "the other entries survive")
        XCTAssertNil(try store.position(for: media("b.ogg")))
    }

    /// The temporary files of state writes in `dir` (`resume.json.XXXXXX`, `g_file_set_contents_full`).
    private func temporaries() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).filter {
            $0.hasPrefix("resume.json.") && $0.count == "resume.json.".count + 6
        }
    }

    func testUnreadableFileAndReadOnlyDirectoryWarnAndKeepTheEntries() throws {
        // Permission bits bind only non-root users; as root the same failures are covered by
        // testAFailedSaveLeavesTheStateFileAndItsEntriesAlone and testStatePathThatCannotBeReadWarnsAndNeverCrashes.
        guard getuid() != 0 else { throw XCTSkip("root ignores permission bits; the root-proof variants above run instead") }
        let store = ResumeStore(directory: dir)
        let a = media("a.ogg")
        try store.save(uri: a, position: MediaTime(seconds: 5), duration: nil)
        let before = try Data(contentsOf: URL(fileURLWithPath: store.path))
        chmod(store.path, 0)
        XCTAssertThrowsError(try store.position(for: a)) { XCTAssertTrue(String(describing: $0).contains("Permission denied")) }
        XCTAssertThrowsError(try store.save(uri: media("b.ogg"), position: MediaTime(seconds: 2), duration: nil))
        chmod(store.path, 0o600)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: store.path)), before, "an unreadable file is never overwritten")
        chmod(dir, 0o500)
        XCTAssertThrowsError(try store.save(uri: media("c.ogg"), position: MediaTime(seconds: 2), duration: nil)) {
            XCTAssertTrue(String(describing: $0).contains("cannot save the resume state"), "\($0)")
        }
        chmod(dir, 0o700)
        XCTAssertEqual(try store.position(for: a), MediaTime(seconds: 5), "the other entries survive")
    }

    func testStatePathThatCannotBeReadWarnsAndNeverCrashes() throws {
        // Works as root too: the state file's name is taken by a directory.
        let store = ResumeStore(directory: dir)
        try FileManager.default.createDirectory(atPath: store.path, withIntermediateDirectories: true)
        XCTAssertThrowsError(try store.position(for: media("a.ogg"))) {
            XCTAssertTrue(String(describing: $0).contains("cannot read resume state"), "\($0)")
        }
        XCTAssertThrowsError(try store.save(uri: media("a.ogg"), position: MediaTime(seconds: 1), duration: nil))
        var isDirectory: ObjCBool = false
        XCTAssertTrue(FileManager.default.fileExists(atPath: store.path, isDirectory: &isDirectory) && isDirectory.boolValue)
    }

    // MARK: kill -9 during a save

    /// Not a test on its own: the child process of ``testStateSurvivesSIGKILLDuringSave``.
    /// Saves in a loop until killed.
    func testChildKeepsSaving() throws {
        guard let directory = ProcessInfo.processInfo.environment["GSTPLAY_RESUME_CHILD_DIR"] else {
            throw XCTSkip("only runs as the child of testStateSurvivesSIGKILLDuringSave")
        }
        let store = ResumeStore(directory: directory)
        var n = 0.0
        while true {
            n += 1
            try store.save(uri: "http://127.0.0.1/child", position: MediaTime(seconds: n), duration: nil)
        }
    }

    func testStateSurvivesSIGKILLDuringSave() throws {
        let store = ResumeStore(directory: dir)
        // A big state makes each save take long enough to be caught mid-write.
        let original = (0..<20_000).map {
            ResumeStore.Entry(uri: "http://127.0.0.1/item/\($0)/" + String(repeating: "x", count: 60), size: nil, mtime: nil,
                              position: Double($0) + 1, savedAt: 0)
        }
        try JSONEncoder().encode(ResumeStore.StateFile(entries: original)).write(to: URL(fileURLWithPath: store.path))
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        var caughtMidWrite = 0
        for attempt in 0..<15 where caughtMidWrite < 3 {
            let child = Process()
            child.executableURL = URL(fileURLWithPath: executable)
            child.arguments = ["BackendTests.ResumeStoreTests/testChildKeepsSaving"]
            child.environment = ProcessInfo.processInfo.environment.merging(["GSTPLAY_RESUME_CHILD_DIR": dir]) { $1 }
            child.standardOutput = FileHandle.nullDevice
            child.standardError = FileHandle.nullDevice
            try child.run()
            // Wait (up to 20 s) for the child to be inside a save: its temp file exists (only the
            // child writes, so any `resume.json.XXXXXX` is its own).
            let deadline = Date().addingTimeInterval(20)
            var seen = false
            while Date() < deadline {
                if !temporaries().isEmpty {
                    // Vary the moment: right away, or a little into the write.
                    if attempt % 3 != 0 { usleep(useconds_t(attempt * 1500)) }
                    seen = true
                    break
                }
                usleep(200)
            }
            kill(child.processIdentifier, SIGKILL)
            child.waitUntilExit()
            XCTAssertEqual(child.terminationReason, .uncaughtSignal)
            if seen && !temporaries().isEmpty { caughtMidWrite += 1 }
            // Whatever the moment, the state file is whole and keeps every other entry.
            let entries = try store.entries()
            XCTAssertTrue(entries.filter { !$0.uri.hasSuffix("/child") } == original, "attempt \(attempt): \(entries.count) entries")
        }
        print("ResumeStoreTests: killed mid-write \(caughtMidWrite) time(s)")
        XCTAssertGreaterThan(caughtMidWrite, 0, "the child was never killed with its temp file open: the test proved nothing")
        // The next save cleans the dead writer's temp file.
        try store.save(uri: "http://127.0.0.1/after", position: MediaTime(seconds: 1), duration: nil)
        XCTAssertEqual(temporaries(), [])
    }
}
