@testable import BackendCache
@testable import BackendCore
import Foundation
import XCTest

/// A cache index is a file anyone with the user's rights may edit: an entry whose `key` is not a
/// SHA-256 in hex (`../victim`, an absolute path) must never name a file outside the cache
/// directory. Before the check, the repair step that runs under every cache operation (even
/// `gstplay cache list`, ``MediaCache/entries()``) deleted `<dir>/../victim`.
final class CacheKeyContainmentTests: XCTestCase {
    private var parent: String!
    private var dir: String { parent + "/cache" }
    private var victim: String { parent + "/victim" }

    override func setUpWithError() throws {
        parent = NSTemporaryDirectory() + "gstplay-cache-keys-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: victim))
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: parent) }

    /// Writes an index of `entries` (`uri`, `key`, `size`) as a hostile editor would.
    private func writeIndex(_ entries: [(uri: String, key: String, size: Int)]) throws {
        let list = entries.map { ["uri": $0.uri, "key": $0.key, "size": $0.size, "storedAt": 1.0, "lastUsed": 1.0] as [String: Any] }
        let data = try JSONSerialization.data(withJSONObject: ["version": 1, "entries": list])
        try data.write(to: URL(fileURLWithPath: dir + "/index.json"))
    }

    func testAKeyThatClimbsOutOfTheDirectoryDeletesNothing() throws {
        try writeIndex([(uri: "http://x/a", key: "../victim", size: 1), (uri: "http://x/b", key: victim, size: 1)])
        let cache = MediaCache(directory: dir)
        XCTAssertEqual(try cache.entries(), [], "entries whose key is not a SHA-256 are dropped")
        XCTAssertTrue(FileManager.default.fileExists(atPath: victim), "the file outside the cache is untouched")
        XCTAssertEqual(try String(contentsOfFile: victim, encoding: .utf8), "keep me")
    }

    func testRemoveClearAndLookupNeverFollowAHostileKey() throws {
        try writeIndex([(uri: "http://x/a", key: "../victim", size: 7)])
        let cache = MediaCache(directory: dir)
        XCTAssertNil(try cache.lookup("http://x/a"))
        XCTAssertNil(try cache.remove("http://x/a"))
        try writeIndex([(uri: "http://x/a", key: "../victim", size: 7)])
        try cache.clear()
        XCTAssertNil(cache.find("http://x/a"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: victim))
    }

    func testOnlyAHexSHA256NamesAFile() {
        let cache = MediaCache(directory: dir)
        func entry(_ key: String) -> MediaCache.Entry {
            MediaCache.Entry(uri: "u", key: key, size: 1, storedAt: 0, lastUsed: 0)
        }
        let good = MediaCache.key(for: "u")
        XCTAssertEqual(cache.ownedPath(of: entry(good)), dir + "/" + good)
        for bad in ["../victim", "/etc/passwd", "", ".", "..", good.uppercased(), good + "/..", String(good.dropLast()) + "/"] {
            XCTAssertNil(cache.ownedPath(of: entry(bad)), bad)
        }
    }
}
