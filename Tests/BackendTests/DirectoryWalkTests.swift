import DirectoryWalk
import Foundation
import XCTest

/// ``DirectoryNames`` (GLib's `GDir`), the one directory listing of the cache, the resume store and
/// ProcessProbe. Under `make test-asan` the large directory also checks that no name is read past
/// its entry (the old `readdir` loops did).
final class DirectoryWalkTests: XCTestCase {
    func testListsEveryNameOnceWithoutDotEntriesAndNilForAMissingDirectory() throws {
        let dir = NSTemporaryDirectory() + "gstplay-dirwalk-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        XCTAssertEqual(DirectoryNames.list(dir), [], "an empty directory: no `.`, no `..`")
        // Short and 255-byte names, more than fill one 32 KB getdents buffer several times.
        var expected = Set((0..<2000).map { "f\($0)" })
        expected.insert(String(repeating: "n", count: 255))
        expected.insert("é ü")
        for name in expected { XCTAssertTrue(FileManager.default.createFile(atPath: dir + "/" + name, contents: nil), name) }
        let listed = try XCTUnwrap(DirectoryNames.list(dir))
        XCTAssertEqual(listed.count, expected.count, "each name once")
        XCTAssertEqual(Set(listed), expected)
        XCTAssertNil(DirectoryNames.list(dir + "/missing"))
        XCTAssertNil(DirectoryNames.list(dir + "/f1"), "a file is not a directory")
    }
}
