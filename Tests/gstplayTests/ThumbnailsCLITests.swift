import Backend
import Foundation
import TestSupport
import XCTest
@testable import BackendControl
@testable import gstplay

/// `gstplay thumbnails` end to end (the built binary on real fixtures) and its pure parts.
/// Pixels are checked in BackendTests (ThumbnailGeneratorTests, ContactSheetTests); here the
/// files, their PNG headers, the exit codes and the one-line errors.
final class ThumbnailsCLITests: XCTestCase {
    private var scratch: URL!

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("gstplay-thumbs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: scratch)
    }

    /// Width and height from a PNG's IHDR chunk (nil when it is not a PNG).
    private func pngSize(_ path: String) -> [Int]? {
        guard let data = FileManager.default.contents(atPath: path), data.count > 24,
              Array(data.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] else { return nil }
        let bytes = [UInt8](data)
        func be32(_ at: Int) -> Int { bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
        return [be32(16), be32(20)]
    }

    private func contents() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: scratch.path).sorted()
    }

    func testContactSheetIsOnePNGOfTheGrid() throws {
        let sheet = scratch.appendingPathComponent("sheet.png").path
        let run = try GstplayProcess.run(["thumbnails", GstplayProcess.fixture("colour-steps-4s.webm"),
                                          "--count", "8", "--columns", "4", "--width", "160", "-o", sheet])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stderr, "", "no progress bar without a terminal")
        // 4 columns × 160 + 5 gaps of 4; 2 rows × 120 + 3 gaps of 4.
        XCTAssertEqual(pngSize(sheet), [660, 252])
        XCTAssertEqual(try contents(), ["sheet.png"], "no temporary file left")
        XCTAssertTrue(run.stdout.contains("wrote \(sheet): 8 frames in 4×2, 660x252"), run.stdout)
    }

    func testPixelAspectRatioAndDefaultCountInTheSheet() throws {
        let sheet = scratch.appendingPathComponent("par.png").path
        let run = try GstplayProcess.run(["thumbnails", GstplayProcess.fixture("par-64-45.mkv"), "-o", sheet, "-q"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stdout, "", "--quiet")
        // 16 tiles of 240x135 (1024x576 display size scaled to 240 wide) in 4 columns.
        XCTAssertEqual(pngSize(sheet), [4 * 240 + 5 * 4, 4 * 135 + 5 * 4])
    }

    func testOutDirWritesOnePNGPerTime() throws {
        let dir = scratch.appendingPathComponent("frames").path
        let run = try GstplayProcess.run(["thumbnails", GstplayProcess.fixture("colour-steps-4s.webm"),
                                          "--times", "0.5,1:01.5,2.5", "--accurate", "--width", "100", "--out-dir", dir])
        XCTAssertEqual(run.status, 1, "1:01.5 is past the end of a 4 s clip")
        XCTAssertTrue(run.stderr.contains("past the end"), run.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir), "nothing written, not even the directory")

        let ok = try GstplayProcess.run(["thumbnails", GstplayProcess.fixture("colour-steps-4s.webm"),
                                         "--times", "0.5,1.5,2.5", "--accurate", "--width", "100", "--out-dir", dir])
        XCTAssertEqual(ok.status, 0, ok.stderr)
        let names = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        XCTAssertEqual(names, ["colour-steps-4s-1-00-00-00.500.png", "colour-steps-4s-2-00-00-01.500.png",
                               "colour-steps-4s-3-00-00-02.500.png"])
        for name in names { XCTAssertEqual(pngSize(dir + "/" + name), [100, 75], name) }
    }

    func testBadInputsGiveOneLineAndNoFile() throws {
        let sheet = scratch.appendingPathComponent("s.png").path
        let cases: [(args: [String], status: Int32, text: String)] = [
            ([GstplayProcess.fixture("audio-only-4s.ogg"), "-o", sheet], 1, "no video stream"),
            ([GstplayProcess.packageRoot.appendingPathComponent("Fixtures").path, "-o", sheet], 1, "is a directory"),
            ([GstplayProcess.fixture("missing.mp4"), "-o", sheet], 1, "missing.mp4"),
            ([GstplayProcess.fixture("garbage.bin"), "-o", sheet], 1, "garbage.bin"),
            ([GstplayProcess.fixture("colour-steps-4s.webm"), "--times", "1,9", "-o", sheet], 1, "0:00:09.000 is past the end"),
            ([GstplayProcess.fixture("colour-steps-4s.webm"), "-o", "/nonexistent-dir/s.png"], 1, "cannot write /nonexistent-dir/s.png"),
            ([GstplayProcess.fixture("colour-steps-4s.webm"), "-o", "/proc/s.png"], 1, "cannot write /proc/s.png"),
            ([GstplayProcess.fixture("colour-steps-4s.webm"), "-o", scratch.path], 1, "is a directory"),
            ([GstplayProcess.fixture("colour-steps-4s.webm")], 2, "give -o sheet.png or --out-dir DIR"),
            ([GstplayProcess.fixture("colour-steps-4s.webm"), "--count", "0", "-o", sheet], 2, "--count must be between 1 and 1000"),
            ([GstplayProcess.fixture("colour-steps-4s.webm"), "--count", "2", "--times", "1", "-o", sheet], 2, "cannot be used together"),
            ([GstplayProcess.fixture("colour-steps-4s.webm"), "--times", "1,+2", "-o", sheet], 2, "not a time from the start"),
        ]
        for item in cases {
            let run = try GstplayProcess.run(["thumbnails"] + item.args)
            XCTAssertEqual(run.status, item.status, "\(item.args): \(run.stderr)")
            XCTAssertTrue(run.stderr.contains(item.text), "\(item.args): \(run.stderr)")
            if item.status == 1 {
                XCTAssertEqual(GstplayProcess.completeLines(run.stderr).count, 1, "one line: \(run.stderr)")
                XCTAssertTrue(run.stderr.hasPrefix("gstplay: error: "), run.stderr)
            }
            XCTAssertEqual(try contents(), [], "\(item.args) left files behind")
            XCTAssertEqual(run.stdout, "")
        }
    }

    func testPlainPlaybackIsNotTakenForTheSubcommand() throws {
        let run = try GstplayProcess.run(["--quiet", "--video-sink", "fakesink", "--audio-sink", "fakesink",
                                          GstplayProcess.fixture("short-0.2s.mp4")])
        XCTAssertEqual(run.status, 0, run.stderr)
    }

    func testProgressBarAndFileNames() {
        XCTAssertEqual(ProgressBar.line(done: 0, total: 4, width: 8), "thumbnails [........] 0/4")
        XCTAssertEqual(ProgressBar.line(done: 3, total: 4, width: 8), "thumbnails [######..] 3/4")
        XCTAssertEqual(ProgressBar.line(done: 9, total: 4, width: 8), "thumbnails [########] 4/4")
        XCTAssertEqual(ImageFileWriter.timestamp(MediaTime(seconds: 3723.5)), "01-02-03.500")
        XCTAssertEqual(ImageFileWriter.baseName(of: "/a/b/My Clip.mp4"), "My_Clip")
        XCTAssertEqual(ImageFileWriter.baseName(of: "http://h/x/clip%20one.webm"), "clip_one")
        XCTAssertEqual(try ThumbnailsCommand.parseTimes("1, 1:30,0:00:02.5").map(\.seconds), [1, 90, 2.5])
    }
}

/// Snapshot file naming (pure) and a real snapshot written from a real player.
final class SnapshotFileTests: XCTestCase {
    func testNamesFollowMpvsConvention() throws {
        let time = MediaTime(seconds: 62.5)
        let none = try SnapshotFile.target(argument: nil, location: "/m/Clip One.webm", position: time, isDirectory: { _ in false })
        XCTAssertEqual(none.path, "gstplay-Clip_One-00-01-02.500.png")
        XCTAssertEqual(none.format, .png)
        let dir = try SnapshotFile.target(argument: "/tmp/shots", location: "a.mp4", position: .zero, isDirectory: { $0 == "/tmp/shots" })
        XCTAssertEqual(dir.path, "/tmp/shots/gstplay-a-00-00-00.000.png")
        let jpeg = try SnapshotFile.target(argument: "x/frame.JPG", location: "a.mp4", position: .zero, isDirectory: { _ in false })
        XCTAssertEqual(jpeg.path, "x/frame.JPG")
        XCTAssertEqual(jpeg.format, .jpeg)
    }

    func testScreenshotTemplateFieldsAsMpv() throws {
        let naming = ScreenshotNaming(template: "%F/%f-%n-%p-%P-%%-%x", directory: nil)
        XCTAssertEqual(naming.expand(location: "file:///m/My%20Clip.webm", position: MediaTime(seconds: 3723.5), number: 7),
                       "My Clip/My Clip.webm-0007-01:02:03-01:02:03.500-%-%x.png")
        XCTAssertEqual(ScreenshotNaming(template: "shot.JPG").expand(location: "a.mp4", position: .zero, number: 1), "shot.JPG")
        // %n takes the lowest number whose file does not exist yet; the directory prefixes a relative name.
        let taken: Set<String> = ["/s/a.mp4-0001.png", "/s/a.mp4-0002.png"]
        let numbered = ScreenshotNaming(template: "%f-%n", directory: "/s")
        XCTAssertEqual(try numbered.nextPath(location: "a.mp4", position: .zero, makesDirectory: false, exists: taken.contains),
                       "/s/a.mp4-0003.png")
        let absolute = ScreenshotNaming(template: "/abs/%F", directory: "/s")
        XCTAssertEqual(try absolute.nextPath(location: "a.mp4", position: .zero, makesDirectory: false), "/abs/a.png")
    }

    func testTakeWritesTheCurrentFrame() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gstplay-snap-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = PlayerConfiguration()
        configuration.autoplay = false
        configuration.videoSink = .description("fakesink sync=true")
        configuration.audioSink = .description("fakesink sync=true")
        let player = Player(configuration: configuration)
        defer { player.shutdown() }
        let location = GstplayProcess.fixture("par-64-45.mkv")
        let stream = player.events
        player.load(location)
        for await event in stream { if case .stateChanged(_, .ready) = event { break } }
        let written = try await SnapshotFile.take(from: player, argument: directory.path, location: location)
        XCTAssertEqual(written.path, directory.path + "/gstplay-par-64-45-00-00-00.000.png")
        XCTAssertEqual([written.width, written.height], [1024, 576])
        let data = try XCTUnwrap(FileManager.default.contents(atPath: written.path))
        XCTAssertEqual(Array(data.prefix(4)), [0x89, 0x50, 0x4E, 0x47])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path).count, 1, "no temporary file left")
    }
}
