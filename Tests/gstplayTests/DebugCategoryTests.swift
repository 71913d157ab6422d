import Foundation
import TestSupport
import XCTest

/// The engine's diagnostics go through GStreamer's debug log, category `gstplay`,
/// so `GST_DEBUG=gstplay*:6` shows them like any element's lines, and nothing shows without it.
final class DebugCategoryTests: XCTestCase {
    private func play(debug: String?) throws -> (status: Int32?, stderr: String) {
        var environment = ProcessInfo.processInfo.environment
        environment["GST_DEBUG"] = debug
        environment["GST_DEBUG_NO_COLOR"] = "1"
        environment["GST_DEBUG_FILE"] = nil
        let run = try GstplayProcess.run(["--json", GstplayProcess.fixture("short-0.2s.mp4")], environment: environment)
        return (run.status, run.stderr)
    }

    func testGSTDebugShowsTheEngineCategoryWithTheCallersPlace() throws {
        let run = try play(debug: "gstplay*:6")
        XCTAssertEqual(run.status, 0, run.stderr)
        let lines = run.stderr.split(separator: "\n").filter { $0.contains(" DEBUG ") && $0.contains(" gstplay ") }
        XCTAssertTrue(lines.contains { $0.contains("Engine+Bus.swift") && $0.contains("bus state-changed from") },
                      "no engine bus line in the gstplay category:\n\(run.stderr.prefix(2000))")
    }

    func testWithoutGSTDebugTheCategoryIsSilent() throws {
        let run = try play(debug: nil)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertFalse(run.stderr.contains("bus state-changed"), run.stderr)
        // Another category's threshold does not let gstplay's lines through.
        let other = try play(debug: "GST_STATES:4")
        XCTAssertFalse(other.stderr.contains(" gstplay "), String(other.stderr.prefix(2000)))
    }
}
