@testable import BackendCore
import Backend
import CGStreamer
import Foundation
import Glibc
import TestSupport
import XCTest

/// Every test process has directories of its own (`TestProcess`, Tests/CTestIsolation): tests
/// running side by side (`swift test --parallel`) cannot meet in a cache, a state file or /tmp.
final class TestIsolationTests: XCTestCase {
    private static let variables = ["HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME",
                                    "XDG_RUNTIME_DIR", "TMPDIR"]

    func testThisProcessHasItsOwnDirectoriesAndGLibSeesThem() throws {
        let environment = ProcessInfo.processInfo.environment
        let root = try XCTUnwrap(environment["GSTPLAY_TEST_ROOT"], "no private root for this test process")
        XCTAssertTrue(URL(fileURLWithPath: root).lastPathComponent.hasPrefix("gstplay-test-\(getpid())-"), root)
        for variable in Self.variables {
            let path = try XCTUnwrap(environment[variable], variable)
            XCTAssertTrue(path.hasPrefix(root + "/"), "\(variable)=\(path) is outside \(root)")
            var info = stat()
            XCTAssertEqual(stat(path, &info), 0, "\(variable)=\(path) does not exist")
            XCTAssertEqual(info.st_mode & S_IFMT, S_IFDIR, "\(variable)=\(path) is not a directory")
        }
        var runtime = stat()
        stat(environment["XDG_RUNTIME_DIR"] ?? "/", &runtime)
        XCTAssertEqual(runtime.st_mode & 0o777, 0o700, "XDG_RUNTIME_DIR is private (XDG Base Directory spec)")
        // GLib caches these on first use: they must have been set before it.
        XCTAssertEqual(String(cString: g_get_user_cache_dir()), environment["XDG_CACHE_HOME"])
        XCTAssertEqual(String(cString: g_get_user_state_dir()), environment["XDG_STATE_HOME"])
        XCTAssertEqual(String(cString: g_get_tmp_dir()), environment["TMPDIR"])
        XCTAssertEqual(String(cString: g_get_home_dir()), environment["HOME"])
        XCTAssertTrue(NSTemporaryDirectory().hasPrefix(root + "/"), NSTemporaryDirectory())
        // GStreamer keeps the user's plugin registry instead of rescanning every plugin per process.
        XCTAssertFalse((environment["GST_REGISTRY"] ?? root).hasPrefix(root), "GST_REGISTRY is the shared one")
        if let report = environment["GSTPLAY_TEST_ISOLATION_REPORT"] { try root.write(toFile: report, atomically: true, encoding: .utf8) }
    }

    func testAnotherTestProcessGetsOtherDirectoriesRemovedAtItsExit() throws {
        let root = try XCTUnwrap(ProcessInfo.processInfo.environment["GSTPLAY_TEST_ROOT"])
        XCTAssertEqual(TestProcess.root, root)
        let report = NSTemporaryDirectory() + "isolation-report"
        let status = try TestProcess.runChildTest("BackendTests.TestIsolationTests/testThisProcessHasItsOwnDirectoriesAndGLibSeesThem",
                                                  environment: ["GSTPLAY_TEST_ISOLATION_REPORT": report])
        XCTAssertEqual(status, 0, "the child test passed")
        let childRoot = try String(contentsOfFile: report, encoding: .utf8)
        XCTAssertNotEqual(childRoot, root)
        XCTAssertFalse(FileManager.default.fileExists(atPath: childRoot), "\(childRoot) was removed when the child exited")
    }
}
