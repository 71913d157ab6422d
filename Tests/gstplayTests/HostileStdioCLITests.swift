import Foundation
import ProcessProbe
import TestSupport
import XCTest

/// The CLI's bad-input corpus (``CLICorpus``, docs/RELIABILITY.md), stdin and stdout: at EOF,
/// closed at start, and a reader of stdout that goes away.
final class HostileStdioCLITests: XCTestCase, CLICorpus {
    private let webm = GstplayProcess.fixture("vp8-opus-4s.webm")
    private let short = GstplayProcess.fixture("short-0.2s.mp4")
    private let h264 = GstplayProcess.fixture("h264-aac-10s.mp4")

    func testStdinAtEOFFromTheStart() throws {
        for json in [false, true] {
            let outcome = try run("stdin at EOF from the start\(json ? " (--json)" : "")", (json ? ["--json"] : []) + [short])
            assertSane(outcome)
            XCTAssertEqual(outcome.status, 0, outcome.stderr)
            XCTAssertEqual(outcome.errorLines, [])
            if json { XCTAssertEqual(outcome.events("eos").count, 1) }
        }
    }

    /// `gstplay <&- >&-`: descriptors 0 and 1 closed. gstplay opens /dev/null on them first, so
    /// no later descriptor (libdispatch's epoll/eventfd, the media file) takes their numbers.
    func testStdinAndStdoutClosedAtStart() throws {
        let started = Date()
        let child = try launch(["-c", #"exec "$0" "$@" <&- >&-"#, GstplayProcess.binary.path, h264], executable: "/bin/sh")
        XCTAssertTrue(child.waitFor(timeout: 10) { _, err in err.contains("Video: ") }, child.stderr)
        let pid = child.process.processIdentifier
        for fd in [0, 1] {
            let target = ProcessProbe(pid: pid).descriptorTarget(Int32(fd))
            XCTAssertEqual(target, "/dev/null", "fd \(fd)")
        }
        child.process.terminate()
        let outcome = finish("stdin and stdout closed (fd 0 and 1), then SIGTERM", child, started: started)
        XCTAssertEqual(outcome.status, 143, "the signal case: exit 143")
        XCTAssertEqual(outcome.errorLines, [])
    }

    /// The reader of stdout goes away (`gstplay --json … | head -n 1`): no SIGPIPE death.
    /// (`env --default-signal=PIPE`: this test process ignores SIGPIPE, and children would inherit
    /// that; gstplay must ignore it by itself.)
    func testStdoutReaderGoesAway() throws {
        let started = Date()
        let child = try launch(["--default-signal=PIPE", "/bin/bash", "-c", #""$0" --json "$1" | head -n 1 >/dev/null; exit ${PIPESTATUS[0]}"#,
                                GstplayProcess.binary.path, webm], input: .devNull, executable: "/usr/bin/env")
        let outcome = finish("stdout reader goes away (| head -n 1)", child, started: started)
        assertSane(outcome)
        XCTAssertEqual(outcome.status, 0, "played to the end, writes to the closed pipe ignored: \(outcome.stderr)")
    }
}
