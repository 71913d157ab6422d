import Foundation
import TestSupport
import XCTest

/// The `S` key on a real pseudo-terminal names its files with `--screenshot-template` in
/// `--screenshot-directory` (made when missing), numbering them with `%n` as mpv does.
extension TerminalTests {
    func testSKeyWritesTemplateNamedFilesIntoTheScreenshotDirectory() throws {
        let directory = NSTemporaryDirectory() + "gstplay-shots-\(UUID().uuidString)/new"
        defer { try? FileManager.default.removeItem(atPath: (directory as NSString).deletingLastPathComponent) }
        try session(arguments: ["--keep-open", "--screenshot-directory", directory, "--screenshot-template", "%F-%n",
                                GstplayProcess.fixture("h264-aac-10s.mp4")]) { pty, _, exited, _, screen in
            let names = ["h264-aac-10s-0001.png", "h264-aac-10s-0002.png"]
            for name in names {
                pty.send("S")
                XCTAssertTrue(pty.read(into: &screen, timeout: 20) { $0.contains("snapshot: \(directory)/\(name)") }, screen)
            }
            XCTAssertEqual(names.filter { FileManager.default.fileExists(atPath: directory + "/" + $0) }, names)
            pty.send("q")
            XCTAssertEqual(exited.wait(timeout: .now() + 20), .success, screen)
        }
    }
}
