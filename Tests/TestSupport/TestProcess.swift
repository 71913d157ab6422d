import CTestIsolation
import Foundation

/// The rule for every test, present and future: **a test process has directories of its own.**
/// Before `main()` each test process (`swift test --parallel` runs one per test) makes
/// `$TMPDIR/gstplay-test-<pid>-XXXXXX` and points `HOME`, `XDG_CACHE_HOME`, `XDG_STATE_HOME`,
/// `XDG_CONFIG_HOME`, `XDG_DATA_HOME`, `XDG_RUNTIME_DIR` and `TMPDIR` into it; it is removed when the
/// process exits (`Tests/CTestIsolation/isolation.c`, linked into every test through this target).
/// So a test writes scratch files under `NSTemporaryDirectory()`, never at a fixed `/tmp` path, uses
/// the default media cache and resume state freely, starts servers on port 0 and Xvfb with
/// `-displayfd`: nothing it does can meet a test running beside it. Any thread.
public enum TestProcess {
    /// This process's private directory (also in the environment as `GSTPLAY_TEST_ROOT`).
    public static var root: String { String(cString: gstplay_test_root()) }

    /// Runs one test of this test binary (`"BackendTests.SomeTests/testName"`) in a child process
    /// (with directories of its own) whose environment is this one's plus `environment`, waits for
    /// it and returns its exit status (0: the test passed). Output goes to /dev/null.
    public static func runChildTest(_ specifier: String, environment: [String: String]) throws -> Int32 {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        child.arguments = [specifier]
        child.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        child.standardOutput = FileHandle.nullDevice
        child.standardError = FileHandle.nullDevice
        try child.run()
        child.waitUntilExit()
        return child.terminationStatus
    }
}
