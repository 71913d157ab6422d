import Backend
import BackendControl
import XCTest
@testable import gstplay

/// Option parsing and validation, without running anything.
final class CommandLineTests: XCTestCase {
    private func options(_ arguments: [String]) throws -> RunOptions {
        try GstplayCommand.parse(arguments).makeOptions()
    }

    func testDefaults() throws {
        let parsed = try options(["a.mp4", "b.webm"])
        XCTAssertEqual(parsed, RunOptions(locations: ["a.mp4", "b.webm"]))
    }

    func testQueueOptions() throws {
        func parsed(_ arguments: [String]) throws -> RunOptions { try options(FlagValueRewrite.rewrite(arguments)) }
        XCTAssertEqual(try parsed(["x.ogg"]).loop, LoopMode.none)
        XCTAssertEqual(try parsed(["--loop", "x.ogg"]).loop, .all, "bare --loop stays 'all'")
        for mode in LoopMode.allCases { XCTAssertEqual(try parsed(["--loop=\(mode.rawValue)", "x.ogg"]).loop, mode) }
        XCTAssertEqual(try parsed(["--loop=ONE", "x.ogg"]).loop, .one)
        XCTAssertThrowsError(try parsed(["--loop=twice", "x.ogg"])) { error in
            XCTAssertTrue(GstplayCommand.message(for: error).contains("--loop must be none, one or all (got 'twice')"), "\(error)")
        }
        XCTAssertEqual(FlagValueRewrite.rewrite(["--", "--loop=one"]), ["--", "--loop=one"], "after -- it is a location")
        let defaults = try parsed(["x.ogg"])
        XCTAssertTrue(defaults.gapless && !defaults.shuffle)
        let set = try parsed(["--shuffle", "--no-gapless", "x.ogg"])
        XCTAssertTrue(set.shuffle && !set.gapless)
        XCTAssertTrue(try parsed(["--gapless", "x.ogg"]).gapless)
    }

    func testEveryOption() throws {
        let parsed = try options(["--audio-sink", "fakesink sync=true", "--video-sink", "ximagesink", "--volume", "80",
                                  "--start", "1:30", "--rate", "1.5", "--mute", "--quiet", "--json", "--keep-open", "--loop",
                                  "--position-interval", "100", "x.mp4"])
        XCTAssertEqual(parsed.audioSink, .description("fakesink sync=true"))
        XCTAssertEqual(parsed.videoSink, .description("ximagesink"))
        XCTAssertEqual(parsed.volumePercent, 80)
        XCTAssertEqual(parsed.start, .absolute(MediaTime(seconds: 90)))
        XCTAssertEqual(parsed.rate, 1.5)
        XCTAssertTrue(parsed.mute && parsed.quiet && parsed.json && parsed.keepOpen && parsed.loop == .all)
        XCTAssertEqual(parsed.positionIntervalMilliseconds, 100)
        let configuration = parsed.playerConfiguration(showsStatistics: true)
        XCTAssertEqual(configuration.statisticsInterval, .seconds(1))
        XCTAssertEqual(parsed.playerConfiguration(showsStatistics: false).statisticsInterval, .zero, "off when nothing shows them")
        XCTAssertEqual(configuration.positionInterval, .milliseconds(100))
        XCTAssertEqual(configuration.videoSink, .description("ximagesink"))
        XCTAssertTrue(configuration.autoplay)
    }

    func testDisabledStreamsAndStart() throws {
        let parsed = try options(["--no-video", "--no-audio", "--start", "25%", "x"])
        XCTAssertEqual(parsed.videoSink, .disabled)
        XCTAssertEqual(parsed.audioSink, .disabled)
        XCTAssertEqual(parsed.start, .fraction(0.25))
        XCTAssertEqual(try options(["--start", "+10", "x"]).start, .absolute(MediaTime(seconds: 10)))
    }

    func testDisabledStreamsAreHandedToTheBackendAsIs() {
        // Headless safety for disabled streams is the Backend's (it gives playbin a discarding sink).
        let configuration = RunOptions(locations: ["x"], audioSink: .disabled, videoSink: .disabled)
            .playerConfiguration(showsStatistics: false)
        XCTAssertEqual(configuration.videoSink, .disabled)
        XCTAssertEqual(configuration.audioSink, .disabled)
    }

    func testDirectoriesExpandSorted() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("gstplay-expand-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        for name in ["b.ogg", "a.mp4", ".hidden", "c.webm"] { _ = FileManager.default.createFile(atPath: dir.appendingPathComponent(name).path, contents: Data()) }
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("sub"), withIntermediateDirectories: true)
        XCTAssertEqual(QueueSetup.directoryFiles(dir.path).map { URL(fileURLWithPath: $0).lastPathComponent }, ["a.mp4", "b.ogg", "c.webm"])
        XCTAssertEqual(QueueSetup.directoryFiles("file:///x"), ["file:///x"])
    }

    /// Values that start with `-` are taken as the option's value, with or without `=`.
    func testNegativeValuesWithoutEquals() throws {
        XCTAssertEqual(try options(["--rate", "-1", "clip.ogg"]).rate, -1)
        XCTAssertEqual(try options(["--rate", "-0.5", "clip.ogg"]).locations, ["clip.ogg"])
        XCTAssertEqual(try options(["--rate=-1", "clip.ogg"]).rate, -1)
        XCTAssertEqual(try options(["clip.ogg", "--rate", "-1"]).rate, -1, "after the location too")
        for arguments in [["--start", "-10", "x"], ["--start=-10", "x"]] {
            XCTAssertThrowsError(try options(arguments), "\(arguments)") { error in
                XCTAssertEqual(GstplayCommand.message(for: error), "--start cannot be negative (got '-10')", "\(arguments)")
            }
        }
        XCTAssertThrowsError(try options(["--rate", "-3", "x"])) { error in
            XCTAssertTrue(GstplayCommand.message(for: error).contains("--rate must be between"), GstplayCommand.message(for: error))
        }
    }

    func testValidationErrors() {
        let bad: [([String], String)] = [
            ([], "Missing expected argument"),
            (["--volume", "101", "x"], "--volume must be between 0 and 100"),
            (["--volume=-1", "x"], "--volume must be between 0 and 100"),
            (["--rate", "0", "x"], "--rate must be between"),
            (["--rate", "2.5", "x"], "--rate must be between"),
            (["--start", "abc", "x"], "--start: invalid time 'abc'"),
            (["--start=-5", "x"], "--start cannot be negative"),
            (["--start", "200%", "x"], "--start: percentage '200%' is out of range"),
            (["--no-video", "--video-sink", "fakesink", "x"], "--no-video and --video-sink cannot be used together"),
            (["--no-audio", "--audio-sink", "fakesink", "x"], "--no-audio and --audio-sink cannot be used together"),
            (["--video-sink", " ", "x"], "--video-sink needs an element name"),
            (["--position-interval", "5", "x"], "--position-interval must be between 10 and 60000"),
            (["  "], "Empty location"),
        ]
        for (arguments, expected) in bad {
            do {
                _ = try options(arguments)
                XCTFail("\(arguments) should fail")
            } catch {
                let message = GstplayCommand.message(for: error)
                XCTAssertTrue(message.contains(expected), "\(arguments): \(message)")
                XCTAssertNotEqual(GstplayCommand.exitCode(for: error), .success)
            }
        }
    }
}
