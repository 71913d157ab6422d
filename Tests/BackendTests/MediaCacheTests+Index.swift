@testable import BackendCache
@testable import BackendCore
import Backend
import Foundation
import XCTest

/// A damaged index: the entries that read are kept, nothing the index does not prove ours is
/// deleted, a newer format is left alone, and each case is said once.
extension MediaCacheTests {
    /// Stores `names` (10 bytes each) as `http://x/<name>`.
    func store(_ cache: MediaCache, _ names: [String]) throws {
        for name in names {
            try cache.store(uri: "http://x/\(name)", file: download(cache, "http://x/\(name)", count: 10), expectedSize: 10)
        }
    }

    /// The index as JSON objects, for editing it as a hostile hand would.
    func indexObject() throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/index.json"))) as? [String: Any])
    }

    func writeIndex(_ object: [String: Any]) throws {
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: dir + "/index.json"))
    }

    /// A corrupt index serves nothing it cannot prove, deletes no file, keeps a copy and says so.
    func testACorruptIndexDeletesNoFileKeepsACopyAndSaysSo() throws {
        let cache = MediaCache(directory: dir)
        try store(cache, ["a", "b"])
        try Data("{not json".utf8).write(to: URL(fileURLWithPath: dir + "/index.json"))
        let notice = try XCTUnwrap(cache.repair())
        XCTAssertTrue(notice.contains("is corrupt (not a JSON object)"), notice)
        XCTAssertTrue(notice.contains("index.json.corrupt"), notice)
        XCTAssertTrue(notice.contains("2 cached file(s) no longer listed are kept"), notice)
        XCTAssertNil(try cache.repair(), "said once: the index is whole again")
        XCTAssertEqual(try String(contentsOfFile: dir + "/index.json.corrupt", encoding: .utf8), "{not json")
        XCTAssertNil(try cache.lookup("http://x/a"))
        XCTAssertEqual(files().filter(CacheRepair.isKey).count, 2, "no file was deleted")
        try store(cache, ["a"])
        XCTAssertNotNil(try cache.lookup("http://x/a"))
        XCTAssertEqual(files().filter(CacheRepair.isKey).count, 2)
        try cache.clear()
        XCTAssertEqual(files().filter(CacheRepair.isKey), [], "clear deletes the unlisted files too")
    }

    /// One entry of the wrong type loses that entry only; its file stays, and a copy of the old
    /// index is kept without replacing an earlier copy.
    func testAPartlyWrongTypedIndexKeepsTheEntriesThatRead() throws {
        let cache = MediaCache(directory: dir)
        try store(cache, ["a", "b", "c"])
        var index = try indexObject()
        var entries = try XCTUnwrap(index["entries"] as? [[String: Any]])
        let broken = try XCTUnwrap(entries.firstIndex { $0["uri"] as? String == "http://x/b" })
        entries[broken]["size"] = "ten"
        entries.append(["uri": 7])
        index["entries"] = entries + ["not an object"] as [Any]
        try writeIndex(index)
        FileManager.default.createFile(atPath: dir + "/index.json.corrupt", contents: Data("an earlier copy".utf8))
        let notice = try XCTUnwrap(cache.repair())
        XCTAssertTrue(notice.hasPrefix("3 of 5 entries of the cache index"), notice)
        XCTAssertTrue(notice.contains("index.json.corrupt-2"), notice)
        XCTAssertTrue(notice.contains("1 cached file(s) no longer listed are kept"), notice)
        XCTAssertEqual(Set(try cache.entries().map(\.uri)), ["http://x/a", "http://x/c"])
        XCTAssertNotNil(try cache.lookup("http://x/a"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir + "/" + MediaCache.key(for: "http://x/b")), "the dropped entry's file stays")
        XCTAssertEqual(try String(contentsOfFile: dir + "/index.json.corrupt", encoding: .utf8), "an earlier copy")
        XCTAssertTrue(try String(contentsOfFile: dir + "/index.json.corrupt-2", encoding: .utf8).contains("\"ten\""))
    }

    /// An index of a newer format version is another gstplay's: nothing is read, changed or
    /// deleted; every operation says why, and the player's lookup says the cache is unusable.
    func testANewerIndexVersionIsLeftAloneWithItsFiles() throws {
        let cache = MediaCache(directory: dir)
        try store(cache, ["a", "b"])
        var index = try indexObject()
        index["version"] = 2
        try writeIndex(index)
        let before = try Data(contentsOf: URL(fileURLWithPath: dir + "/index.json"))
        for operation in [{ _ = try cache.entries() }, { _ = try cache.lookup("http://x/a") }, { try cache.clear() },
                          { _ = try cache.remove("http://x/a") }, { try self.store(cache, ["c"]) }] as [() throws -> Void] {
            XCTAssertThrowsError(try operation()) { error in
                XCTAssertTrue("\(error)".contains("is of format version 2, newer than this gstplay reads (1)"), "\(error)")
            }
        }
        XCTAssertNil(cache.find("http://x/a"))
        XCTAssertNotNil(cache.lookUpForPlay("http://x/a").unusable)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: dir + "/index.json")), before, "the index is untouched")
        XCTAssertEqual(files().filter(CacheRepair.isKey).count, 2, "no file was deleted")
    }

    /// An entry whose key is not the SHA-256 of its URI proves nothing: it is dropped, and no file
    /// is deleted for it (whatever its key names).
    func testAnEntryWhoseKeyIsNotItsURIsHashDeletesNothing() throws {
        let cache = MediaCache(directory: dir)
        try store(cache, ["a", "b"])
        var index = try indexObject()
        var entries = try XCTUnwrap(index["entries"] as? [[String: Any]])
        let b = try XCTUnwrap(entries.firstIndex { $0["uri"] as? String == "http://x/b" })
        entries[b]["key"] = MediaCache.key(for: "http://x/a")   // a's file, with b's (other) size
        entries[b]["size"] = 99
        index["entries"] = entries
        try writeIndex(index)
        XCTAssertEqual(try cache.entries().map(\.uri), ["http://x/a"])
        XCTAssertEqual(files().filter(CacheRepair.isKey).count, 2, "no file was deleted")
        XCTAssertNotNil(try cache.lookup("http://x/a"))
    }

    /// A cache whose `partial/` cannot take a file (read-only: here `/sys/kernel`, where even root
    /// cannot create one) refuses to start a download instead of handing out a template that fails.
}
