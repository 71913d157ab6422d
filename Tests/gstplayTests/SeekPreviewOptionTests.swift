import Backend
@testable import gstplay
import Foundation
import TestSupport
import XCTest

/// `--osd-seek-preview=yes|no` becomes `StandardFeatures.osd.seekPreview` (on by default); any
/// other value is a usage error (exit 2), and `gstplay.conf` takes it as every long option.
final class SeekPreviewOptionTests: XCTestCase {
    func testTheOptionTurnsThePreviewOnOrOff() throws {
        XCTAssertTrue(try GstplayCommand.parse(["x.mp4"]).makeOptions().standardFeatures().osd.seekPreview)
        XCTAssertTrue(try GstplayCommand.parse(["--osd-seek-preview=yes", "x.mp4"]).makeOptions().standardFeatures().osd.seekPreview)
        XCTAssertFalse(try GstplayCommand.parse(["--osd-seek-preview", "no", "x.mp4"]).makeOptions().standardFeatures().osd.seekPreview)
        XCTAssertFalse(try GstplayCommand.parse(["--osd-seek-preview=OFF", "x.mp4"]).makeOptions().standardFeatures().osd.seekPreview)
    }

    func testAnotherValueIsAUsageError() throws {
        let run = try GstplayProcess.run(["--osd-seek-preview=maybe", "x.mp4"])
        XCTAssertEqual(run.status, 2)
        XCTAssertTrue(run.stderr.contains("gstplay: error: --osd-seek-preview must be yes or no (got 'maybe')"), run.stderr)
    }

    func testTheConfigFileSetsIt() throws {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("seek-preview-conf-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: config.appendingPathComponent("gstplay"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: config) }
        try "osd-seek-preview=maybe\n".write(to: config.appendingPathComponent("gstplay/gstplay.conf"), atomically: true, encoding: .utf8)
        let run = try GstplayProcess.run(["x.mp4"], environment: ProcessInfo.processInfo.environment.merging(["XDG_CONFIG_HOME": config.path]) { $1 })
        XCTAssertEqual(run.status, 2, "the file's value is checked as the option's: \(run.stderr)")
        XCTAssertTrue(run.stderr.contains("osd-seek-preview"), run.stderr)
    }
}
