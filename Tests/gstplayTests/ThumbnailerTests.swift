import Backend
import Foundation
import TestSupport
import XCTest

/// The freedesktop thumbnailer `share/thumbnailers/gstplay.thumbnailer`
/// (the file `make install` installs) run as a file manager runs it: its `Exec` line with
/// `%i`/`%u`/`%o`/`%s` expanded from the file, the program named by `TryExec` (the built
/// gstplay). The PNG is decoded back with GStreamer and its size and pixels checked.
final class ThumbnailerTests: XCTestCase {
    private var scratch: URL!

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("gstplay-thumbnailer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: scratch)
    }

    /// The `[Thumbnailer Entry]` group of the file, as key → value.
    private func entry() throws -> [String: String] {
        let path = GstplayProcess.packageRoot.appendingPathComponent("share/thumbnailers/gstplay.thumbnailer").path
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var group = "", keys: [String: String] = [:]
        for line in text.split(separator: "\n").map(String.init) where !line.hasPrefix("#") && !line.isEmpty {
            if line.hasPrefix("[") { group = line; continue }
            guard group == "[Thumbnailer Entry]", let equals = line.firstIndex(of: "=") else { continue }
            keys[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        return keys
    }

    /// Expands the Exec line as the Thumbnail Managing Standard says (one argument per word;
    /// `%i` path, `%u` URI, `%o` output, `%s` size, `%%` a percent sign) and runs it: the first
    /// word must be the `TryExec` program, which is the gstplay under test.
    private func runThumbnailer(input: String, output: String, size: Int) throws -> GstplayProcess {
        let keys = try entry()
        let exec = try XCTUnwrap(keys["Exec"]), program = try XCTUnwrap(keys["TryExec"])
        let uri = URL(fileURLWithPath: input).absoluteString
        let words = exec.split(separator: " ").map { word in
            word.replacingOccurrences(of: "%%", with: "\u{0}")
                .replacingOccurrences(of: "%i", with: input).replacingOccurrences(of: "%u", with: uri)
                .replacingOccurrences(of: "%o", with: output).replacingOccurrences(of: "%s", with: String(size))
                .replacingOccurrences(of: "\u{0}", with: "%")
        }
        XCTAssertEqual(words.first, program, "Exec runs the TryExec program")
        XCTAssertEqual(program, "gstplay")
        let process = GstplayProcess(Array(words.dropFirst()), input: .devNull)
        try process.start()
        XCTAssertNotNil(process.waitForExit(timeout: 20), "the thumbnailer ends")
        return process
    }

    func testTheEntryNamesGstplayAndTheVideoTypes() throws {
        let keys = try entry()
        XCTAssertEqual(keys["TryExec"], "gstplay")
        let exec = try XCTUnwrap(keys["Exec"])
        for code in ["%o", "%s"] { XCTAssertTrue(exec.contains(code), "Exec uses \(code): \(exec)") }
        XCTAssertTrue(exec.contains("%u") || exec.contains("%i"), exec)
        let types = Set(try XCTUnwrap(keys["MimeType"]).split(separator: ";").map(String.init))
        for type in ["video/mp4", "video/webm", "video/x-matroska", "video/ogg"] { XCTAssertTrue(types.contains(type), type) }
        XCTAssertFalse(types.contains { $0.hasPrefix("audio/") }, "no audio types: they have no picture")
    }

    func testThreeVideosGiveAPictureOfAtMostTheSize() throws {
        // (fixture, size, expected PNG size): display size scaled down to fit size × size, never up.
        let cases: [(String, Int, [Int])] = [
            ("h264-aac-10s.mp4", 256, [256, 192]),
            ("vp8-opus-4s.webm", 128, [128, 96]),
            ("par-64-45.mkv", 256, [256, 144]),      // 720×576 at PAR 64/45 displays 1024×576
            ("theora-vorbis-4s.ogg", 512, [320, 240]), // smaller than the size: kept as it is
        ]
        for (name, size, expected) in cases {
            let output = scratch.appendingPathComponent("\(name).png").path
            let run = try runThumbnailer(input: GstplayProcess.fixture(name), output: output, size: size)
            XCTAssertEqual(run.process.terminationStatus, 0, "\(name): \(run.stderr)")
            let data = try XCTUnwrap(FileManager.default.contents(atPath: output), name)
            let image = try XCTUnwrap(DecodedImage.decode(data), name)
            XCTAssertEqual([image.width, image.height], expected, name)
            XCTAssertLessThanOrEqual(max(image.width, image.height), size, name)
            XCTAssertGreaterThan(image.brightnessDeviation, 10, "\(name): not a uniform picture")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: scratch.path).count, cases.count, "no temporary files left")
    }

    func testABlackStartGivesALaterNonUniformFrame() throws {
        // black-start-4s.webm: black for 3 s (also at 1/3 and 2/3 of it), SMPTE bars in the last second.
        let output = scratch.appendingPathComponent("black.png").path
        let run = try runThumbnailer(input: GstplayProcess.fixture("black-start-4s.webm"), output: output, size: 128)
        XCTAssertEqual(run.process.terminationStatus, 0, run.stderr)
        let image = try XCTUnwrap(DecodedImage.decode(try XCTUnwrap(FileManager.default.contents(atPath: output))))
        XCTAssertFalse(image.isBlack)
        XCTAssertGreaterThan(image.brightnessDeviation, 30, "the bars, not the black start")
    }

    func testAudioOnlyAndBrokenFilesFailAndWriteNothing() throws {
        for name in ["audio-only-4s.ogg", "garbage.bin", "empty.mp4", "no-moov.mp4", "missing.mp4"] {
            let output = scratch.appendingPathComponent("\(name).png").path
            let run = try runThumbnailer(input: GstplayProcess.fixture(name), output: output, size: 256)
            XCTAssertEqual(run.process.terminationStatus, 1, "\(name): \(run.stderr)")
            XCTAssertEqual(GstplayProcess.completeLines(run.stderr).count, 1, "\(name): one line: \(run.stderr)")
            XCTAssertTrue(run.stderr.hasPrefix("gstplay: error: "), run.stderr)
            XCTAssertEqual(run.stdout, "")
            XCTAssertFalse(FileManager.default.fileExists(atPath: output), "\(name): nothing written")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: scratch.path), [], "no temporary files left")
    }

    func testUsageErrorsExitTwo() throws {
        let clip = GstplayProcess.fixture("vp8-opus-4s.webm")
        let out = scratch.appendingPathComponent("x.png").path
        for arguments in [["thumbnail", clip], ["thumbnail", "-s", "0", clip, out], ["thumbnail", "-s", "abc", clip, out]] {
            let run = try GstplayProcess.run(arguments)
            XCTAssertEqual(run.status, 2, "\(arguments): \(run.stderr)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: out))
        }
    }

    /// One tile is "1 frame", not "1 frames".
    func testSummariesCountInTheSingular() throws {
        let sheet = scratch.appendingPathComponent("one.png").path
        let one = try GstplayProcess.run(["thumbnails", GstplayProcess.fixture("colour-steps-4s.webm"), "--count", "1", "-o", sheet])
        XCTAssertEqual(one.status, 0, one.stderr)
        XCTAssertTrue(one.stdout.contains("wrote \(sheet): 1 frame in 1×1, "), one.stdout)
        let dir = scratch.appendingPathComponent("frames").path
        let single = try GstplayProcess.run(["thumbnails", GstplayProcess.fixture("colour-steps-4s.webm"), "--times", "1", "--out-dir", dir])
        XCTAssertEqual(single.status, 0, single.stderr)
        XCTAssertTrue(single.stdout.hasPrefix("wrote 1 image (240x180) to \(dir)"), single.stdout)
        let two = try GstplayProcess.run(["thumbnails", GstplayProcess.fixture("colour-steps-4s.webm"), "--count", "2", "-o", sheet])
        XCTAssertTrue(two.stdout.contains(": 2 frames in 2×1, "), two.stdout)
    }
}
