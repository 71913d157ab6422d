import Foundation
import TestSupport
import XCTest

/// The CLI's bad-input corpus (``CLICorpus``, docs/RELIABILITY.md), files and locations: missing,
/// empty, corrupt, truncated, undecodable, unreadable, and URIs gstplay cannot open.
final class HostileFileCLITests: XCTestCase, CLICorpus {
    private let short = GstplayProcess.fixture("short-0.2s.mp4")
    private let h264 = GstplayProcess.fixture("h264-aac-10s.mp4")
    private let allDecoders = "avdec_h264:NONE,openh264dec:NONE,avdec_aac:NONE,avdec_aac_fixed:NONE,avdec_aac_latm:NONE,faad:NONE,fdkaacdec:NONE"
    private var scratch: URL!

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("gstplay-hostile-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        chmod(scratch.path, 0o755)
    }

    override func tearDown() {
        if let scratch { try? FileManager.default.removeItem(at: scratch) }
    }

    func testMissingFile() throws {
        let outcome = try run("missing file", ["Fixtures/does-not-exist.mp4"])
        assertOneItemError(outcome, input: "Fixtures/does-not-exist.mp4", ["Resource not found."])
    }

    func testEmptyArgumentIsAUsageError() throws {
        let outcome = try run("empty argument", ["  "])
        assertSane(outcome)
        XCTAssertEqual(outcome.status, 2, "usage error")
        XCTAssertEqual(outcome.stderrLines.first, "gstplay: error: Empty location '  '", outcome.stderr)
        XCTAssertEqual(outcome.stderrLines.filter { $0.lowercased().contains("error:") }.count, 1, outcome.stderr)
        XCTAssertEqual(outcome.stdout, "")
    }

    func testDirectoryWithNoFiles() throws {
        let empty = scratch.appendingPathComponent("empty").path
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: empty + "/.hidden.mp4", contents: Data("x".utf8)) // hidden files are skipped
        let outcome = try run("directory with no files", [empty])
        assertOneItemError(outcome, input: empty, ["nothing to play (the directory contains no files)"])
    }

    func testDirectoryWithOnlyATextFile() throws {
        let directory = scratch.appendingPathComponent("notes").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let text = String(repeating: "These are notes, not media.\n", count: 40)
        _ = FileManager.default.createFile(atPath: directory + "/notes.txt", contents: Data(text.utf8))
        let outcome = try run("directory with only a text file", [directory])
        assertOneItemError(outcome, input: directory + "/notes.txt", ["This appears to be a text file"])
    }

    func testEmptyFile() throws {
        assertOneItemError(try run("empty file", ["Fixtures/empty.mp4"]), input: "Fixtures/empty.mp4", ["Stream contains no data."])
    }

    func testRandomBytes() throws {
        assertOneItemError(try run("random bytes", ["Fixtures/garbage.bin"]), input: "Fixtures/garbage.bin",
                           ["Could not determine type of stream."])
    }

    func testMoovMissing() throws {
        let outcome = try run("MP4 without moov", ["Fixtures/no-moov.mp4"])
        // decodebin sometimes swallows qtdemux's error (GStreamer 1.22); the open watchdog then reports it.
        let watchdog = outcome.errorLines.first?.contains("no stream became playable") ?? false
        assertOneItemError(outcome, input: "Fixtures/no-moov.mp4", [watchdog ? "no stream became playable" : "This file contains no playable streams."])
    }

    func testTruncatedMP4PlaysWhatIsThereAndWarns() throws {
        let outcome = try run("truncated MP4 (mdat cut)", ["Fixtures/truncated.mp4"])
        assertSane(outcome)
        XCTAssertEqual(outcome.status, 0, outcome.stderr)
        XCTAssertEqual(outcome.errorLines, [])
        XCTAssertEqual(outcome.warningLines.filter { $0.contains("the file may be truncated") }.count, 1, outcome.stderr)
        XCTAssertTrue(outcome.warningLines.contains { $0.hasPrefix("gstplay: warning: Fixtures/truncated.mp4: ") }, outcome.stderr)
    }

    func testNoDecoderAtAll() throws {
        let outcome = try run("no decoder for any stream", [h264], environment: ["GST_PLUGIN_FEATURE_RANK": allDecoders])
        assertOneItemError(outcome, input: h264, ["missing a plug-in", "H.264", "AAC decoder"])
    }

    func testMissingVideoDecoderPlaysTheAudio() throws {
        let outcome = try run("no video decoder", ["--json", "--start", "9", h264],
                              environment: ["GST_PLUGIN_FEATURE_RANK": "avdec_h264:NONE,openh264dec:NONE"])
        assertSane(outcome)
        XCTAssertEqual(outcome.status, 0, outcome.stderr)
        XCTAssertEqual(outcome.errorLines, [])
        let warnings = outcome.events("warning")
        XCTAssertTrue(warnings.contains { $0["kind"] as? String == "missingPlugin" && ($0["missing_plugins"] as? [String])?.first?.contains("H.264") == true },
                      "\(warnings)")
        XCTAssertEqual(outcome.events("eos").count, 1, "the audio played to the end")
        XCTAssertEqual(outcome.events("error").count, 0)
    }

    func testUnsupportedScheme() throws {
        assertOneItemError(try run("unsupported URI scheme", ["foo://x"]), input: "foo://x",
                           ["No URI handler implemented for \"foo\"", "FOO protocol source"])
    }

    func testMalformedURI() throws {
        assertOneItemError(try run("malformed URI", ["http://[::1"]), input: "http://[::1", ["malformed URI 'http://[::1': Invalid IPv6 address"])
    }

    func testUnreadableFile() throws {
        let secret = scratch.appendingPathComponent("secret.mp4").path
        try FileManager.default.copyItem(atPath: short, toPath: secret)
        let started = Date()
        let child: GstplayProcess
        if getuid() == 0 {
            // root reads a 0600 file anyway: run as nobody on a root-owned 0600 copy.
            let setpriv = "/usr/bin/setpriv"
            guard FileManager.default.isExecutableFile(atPath: setpriv) else { throw XCTSkip("no setpriv (util-linux) to drop root") }
            chmod(secret, 0o600)
            var binary = GstplayProcess.binary.path
            if !Self.worldExecutable(binary) {
                binary = scratch.appendingPathComponent("gstplay").path
                try FileManager.default.copyItem(atPath: GstplayProcess.binary.path, toPath: binary)
            }
            let cache = scratch.appendingPathComponent("cache").path
            try FileManager.default.createDirectory(atPath: cache, withIntermediateDirectories: true)
            chmod(cache, 0o777)
            child = try launch(["--reuid=65534", "--regid=65534", "--clear-groups", binary, secret], input: .devNull,
                               environment: ["HOME": scratch.path, "XDG_CACHE_HOME": cache], executable: setpriv)
        } else {
            chmod(secret, 0)
            if access(secret, R_OK) == 0 { throw XCTSkip("this user reads a mode-000 file (capabilities)") }
            child = try launch([secret], input: .devNull)
        }
        let outcome = finish("unreadable file (permissions)", child, started: started)
        assertOneItemError(outcome, input: secret, ["Could not open file", "for reading", "(Permission denied)"])
    }

    /// Every directory on the way to `path` is searchable by others and the file executable by them.
    private static func worldExecutable(_ path: String) -> Bool {
        var url = URL(fileURLWithPath: path).resolvingSymlinksInPath()
        while true {
            var info = stat()
            guard stat(url.path, &info) == 0, info.st_mode & 0o001 != 0 else { return false }
            if url.path == "/" { return true }
            url = url.deletingLastPathComponent()
        }
    }
}
