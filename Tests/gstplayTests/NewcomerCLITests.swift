import Foundation
import TestSupport
import XCTest
@testable import BackendControl
@testable import gstplay

/// What a newcomer hits first on the command line, through the built binary (fake sinks, no
/// display): a playlist that ends in a truncated or unplayable file, `--help` and `gstplay help`,
/// `--remote PORT`, error lines without the `gstplay:` prefix, `--start` past an item's end.
final class NewcomerCLITests: XCTestCase {
    private var dir = ""
    private let sinks = ["--video-sink", "fakevideosink", "--audio-sink", "fakeaudiosink"]

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "gstplay-newcomer-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: dir) }

    /// `cut.mkv`: the first 150 kB of the 10 s Matroska fixture (it ends at about 2 s);
    /// `noise.mkv`: 64 KiB of bytes that are no media at all. In `directory` (default: the test's).
    private func makeCutAndNoise(in directory: String? = nil) throws -> (cut: String, noise: String) {
        let base = directory ?? dir
        let whole = try Data(contentsOf: URL(fileURLWithPath: GstplayProcess.fixture("h264-ac3-10s.mkv")))
        let cut = base + "/cut.mkv", noise = base + "/noise.mkv"
        try whole.prefix(150_000).write(to: URL(fileURLWithPath: cut))
        try Data(contentsOf: URL(fileURLWithPath: TestMedia.garbage)).write(to: URL(fileURLWithPath: noise))
        return (cut, noise)
    }

    private func lines(_ text: String) -> [String] { GstplayProcess.completeLines(text) }

    // MARK: A playlist that ends in a truncated or an unplayable item

    /// `gstplay cut.mkv noise.mkv`: the truncated item plays with its warning, the unplayable
    /// last one is reported (the queue's discoverer found it unplayable; it was passed over
    /// without a word) and the exit status is 1 (it was 0).
    func testATruncatedItemThenAnUnplayableOneReportsTheSecondAndExitsOne() throws {
        let (cut, noise) = try makeCutAndNoise()
        let result = try GstplayProcess.run(sinks + [cut, noise], timeout: 60)
        XCTAssertEqual(result.status, 1, result.stderr)
        let stderr = lines(result.stderr)
        XCTAssertTrue(stderr.contains { $0.hasPrefix("gstplay: warning: \(cut): the stream ended at ") && $0.hasSuffix("the file may be truncated") },
                      result.stderr)
        XCTAssertEqual(stderr.filter { $0.hasPrefix("gstplay: error: ") }.count, 1, result.stderr)
        XCTAssertTrue(stderr.contains { $0.hasPrefix("gstplay: error: \(noise): ") }, result.stderr)
    }

    /// The same two files in a directory (played in name order: cut.mkv, noise.mkv).
    func testADirectoryEndingInAnUnplayableFileReportsItAndExitsOne() throws {
        let folder = dir + "/media"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let (cut, noise) = try makeCutAndNoise(in: folder)
        let result = try GstplayProcess.run(sinks + [folder], timeout: 60)
        XCTAssertEqual(result.status, 1, result.stderr)
        let stderr = lines(result.stderr)
        XCTAssertTrue(stderr.contains { $0.hasPrefix("Now playing \(cut)") }, result.stderr)
        XCTAssertTrue(stderr.contains { $0.hasPrefix("gstplay: error: \(noise): ") }, result.stderr)
    }

    /// A truncated item followed by a good one: the good one plays, the truncation is said for
    /// the truncated item (it was said only when the truncated item was the last), exit 0 (a
    /// truncated file is a warning, not a failure).
    func testATruncatedItemIsNamedInAWarningAndTheNextItemPlays() throws {
        let (cut, _) = try makeCutAndNoise()
        let good = TestMedia.short
        let result = try GstplayProcess.run(sinks + [cut, good], timeout: 60)
        XCTAssertEqual(result.status, 0, result.stderr)
        let stderr = lines(result.stderr)
        guard let warning = stderr.firstIndex(where: { $0.hasPrefix("gstplay: warning: \(cut): the stream ended at ") }),
              let next = stderr.firstIndex(where: { $0.hasPrefix("Now playing \(good)") }) else {
            return XCTFail("no truncation warning for cut.mkv, or the next item did not play:\n\(result.stderr)")
        }
        XCTAssertLessThan(warning, next, "the warning belongs to cut.mkv, before the next item:\n\(result.stderr)")
        XCTAssertFalse(stderr.contains { $0.contains("error") }, result.stderr)
    }

    // MARK: --help and gstplay help

    /// The codes in docs/CLI.md's "Exit codes" table.
    private func documentedExitCodes() throws -> [String] {
        let text = try String(contentsOf: GstplayProcess.packageRoot.appendingPathComponent("docs/CLI.md"), encoding: .utf8)
        guard let section = text.components(separatedBy: "\n## Exit codes\n").dropFirst().first?
            .components(separatedBy: "\n## ").first else { return [] }
        return section.split(separator: "\n").compactMap { line in
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let code = cells.first, !code.isEmpty, code.allSatisfy(\.isNumber) else { return nil }
            return code
        }
    }

    /// `--help` at 80 columns: short (it was 233 lines, with the console table broken by
    /// wrapping), the subcommands listed, every exit code of docs/CLI.md listed, and a pointer
    /// to where the keys and console commands are.
    func testHelpIsShortListsTheSubcommandsAndEveryDocumentedExitCode() throws {
        let environment = ProcessInfo.processInfo.environment.merging(["COLUMNS": "80"]) { $1 }
        let help = try GstplayProcess.run(["--help"], environment: environment)
        XCTAssertEqual(help.status, 0, help.stderr)
        let output = lines(help.stdout)
        XCTAssertLessThanOrEqual(output.count, 190, help.stdout)
        for name in CommandRouting.subcommands.compactMap { $0.configuration.commandName } + ["help"] {
            XCTAssertTrue(output.contains { $0.hasPrefix("  \(name)  ") }, "--help lists no subcommand '\(name)':\n\(help.stdout)")
        }
        let codes = try documentedExitCodes()
        XCTAssertGreaterThanOrEqual(codes.count, 10, "docs/CLI.md's exit code table")
        for code in codes {
            XCTAssertTrue(output.contains { $0.hasPrefix("  \(code)  ") }, "--help lacks exit code \(code):\n\(help.stdout)")
        }
        let flat = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for pointer in ["gstplay help keys", "gstplay help commands", "man gstplay", "docs/CLI.md"] {
            XCTAssertTrue(flat.contains(pointer), "--help lacks '\(pointer)'")
        }
        XCTAssertFalse(output.contains { $0.hasPrefix("  seek <time>") }, "the console table is not in --help")
    }

    /// `gstplay help` is the help (it tried to play a file named "help"); `help keys`, `help
    /// commands` print the tables unwrapped; `help thumbnails` is that subcommand's help; an
    /// unknown topic is one `gstplay: error:` line and exit 2.
    func testHelpSubcommand() throws {
        let help = try GstplayProcess.run(["help"])
        XCTAssertEqual(help.status, 0, help.stderr)
        XCTAssertEqual(help.stdout, try GstplayProcess.run(["--help"]).stdout)
        XCTAssertEqual(help.stderr, "")

        let keys = try GstplayProcess.run(["help", "keys"])
        XCTAssertEqual(keys.status, 0, keys.stderr)
        for row in ["  SPACE  ", "  n N >  ", "  q Q  "] {
            XCTAssertTrue(keys.stdout.contains(row), "'\(row)' in:\n\(keys.stdout)")
        }
        let commands = try GstplayProcess.run(["help", "commands"])
        XCTAssertEqual(commands.status, 0, commands.stderr)
        XCTAssertEqual(lines(commands.stdout).count, ConsoleCommand.usage.count + 1, commands.stdout)
        for row in ["  seek <time>  ", "  playlist [save <path>]  ", "  track <type> <N|none>  "] {
            XCTAssertTrue(commands.stdout.contains(row), "'\(row)' in:\n\(commands.stdout)")
        }

        let thumbnails = try GstplayProcess.run(["help", "thumbnails"])
        XCTAssertEqual(thumbnails.status, 0, thumbnails.stderr)
        XCTAssertTrue(thumbnails.stdout.contains("--count"), thumbnails.stdout)

        let unknown = try GstplayProcess.run(["help", "frobnicate"])
        XCTAssertEqual(unknown.status, 2)
        XCTAssertEqual(lines(unknown.stderr).count, 1, unknown.stderr)
        XCTAssertTrue(unknown.stderr.hasPrefix("gstplay: error: help: no help on 'frobnicate' (try one of: keys, commands, "), unknown.stderr)
    }

    /// The man page (made from `--experimental-dump-help`) keeps the key and console tables.
    func testTheManPageSourceKeepsTheKeyAndCommandTables() throws {
        let dump = try GstplayProcess.run(["--experimental-dump-help"])
        XCTAssertEqual(dump.status, 0, dump.stderr)
        let object = try XCTUnwrap(jsonObject(dump.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        let discussion = try XCTUnwrap((object["command"] as? [String: Any])?["discussion"] as? String)
        for text in ["KEYS", "pause / resume", "CONSOLE", "seek <time>", "EXIT CODES"] {
            XCTAssertTrue(discussion.contains(text), "'\(text)' missing from the man page's text")
        }
    }

    // MARK: --remote PORT

    func testRemoteTakesAFollowingNumberAsItsPort() {
        XCTAssertEqual(FlagValueRewrite.rewrite(["--remote", "19401", "a.mp4"]), ["--remote-port", "19401", "a.mp4"])
        XCTAssertEqual(FlagValueRewrite.rewrite(["--remote", "a.mp4"]), ["--remote", "a.mp4"])
        XCTAssertEqual(FlagValueRewrite.rewrite(["--remote", "./19401"]), ["--remote", "./19401"])
        XCTAssertEqual(FlagValueRewrite.rewrite(["--remote", "--", "19401"]), ["--remote", "--", "19401"])
        XCTAssertEqual(FlagValueRewrite.rewrite(["--", "--remote", "19401"]), ["--", "--remote", "19401"])
        XCTAssertEqual(FlagValueRewrite.rewrite(["--remote"]), ["--remote"])
    }

    /// `gstplay --remote PORT file` listens on PORT and plays the file (it took PORT as a file to
    /// play and listened on a random port).
    func testRemoteWithASeparatePortListensThere() throws {
        let port = try XCTUnwrap(LocalSockets.refusingTCPPort())
        let child = try GstplayProcess(sinks + ["--remote", String(port), TestMedia.vp8]).started()
        XCTAssertTrue(child.waitFor(timeout: 20) { _, err in err.contains("web remote: http://127.0.0.1:") && err.contains("Now playing") },
                      child.stderr)
        XCTAssertTrue(child.stderr.contains("gstplay: web remote: http://127.0.0.1:\(port)/#token="), child.stderr)
        XCTAssertFalse(child.stderr.contains("Now playing \(port)"), child.stderr)
        child.send("quit")
        XCTAssertEqual(child.waitForExit(timeout: 15), 0, child.stderr)
        XCTAssertFalse(child.stderr.contains("error"), child.stderr)
    }

    // MARK: The gstplay: prefix on every error line

    /// ArgumentParser's usage errors and the console's refusals start with `gstplay: error:`
    /// (they began `Error:` and `error:`).
    func testEveryErrorLineStartsWithGstplay() throws {
        for arguments in [["--bogus", "x.mp4"], [], ["--volume", "300", "x.mp4"], ["--remote=http", "x.mp4"], ["cache", "frobnicate"]] {
            let result = try GstplayProcess.run(arguments)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)")
            let first = lines(result.stderr).first ?? ""
            XCTAssertTrue(first.hasPrefix("gstplay: error: "), "\(arguments): \(result.stderr)")
            XCTAssertFalse(lines(result.stderr).contains { $0.lowercased().hasPrefix("error") }, "\(arguments): \(result.stderr)")
        }
        let console = try GstplayProcess.run(sinks + [TestMedia.vp8], input: ["bogus", "seek nan", "quit"])
        XCTAssertEqual(console.status, 0, console.stderr)
        let errors = lines(console.stderr).filter { $0.contains("error") }
        XCTAssertEqual(errors, ["gstplay: error: unknown command 'bogus' (type 'help' for the list)",
                                "gstplay: error: seek: invalid time 'nan' (expected \(SeekArgument.formats))"], console.stderr)
    }

    // MARK: --start past the end

    /// `--start 99` on a 10 s file: one warning line says nothing of the item plays; the next
    /// item still plays and the exit status stays 0 (it said nothing).
    func testStartPastTheEndIsOneWarningPerItem() throws {
        let result = try GstplayProcess.run(sinks + ["--start", "99", TestMedia.h264, TestMedia.vp8], timeout: 60)
        XCTAssertEqual(result.status, 0, result.stderr)
        let warnings = lines(result.stderr).filter { $0.hasPrefix("gstplay: warning: ") }
        XCTAssertEqual(warnings.count, 2, result.stderr)
        XCTAssertEqual(warnings.first, "gstplay: warning: \(TestMedia.h264): --start 0:01:39.0 is past the end of the item (0:00:10.0): nothing of it plays")
        XCTAssertTrue(warnings.last?.hasPrefix("gstplay: warning: \(TestMedia.vp8): --start 0:01:39.0 is past the end of the item (0:00:04") == true,
                      result.stderr)
        XCTAssertTrue(lines(result.stderr).contains("Now playing \(TestMedia.vp8) (2/2)"), result.stderr)
    }

    /// A start inside the item says nothing.
    func testStartInsideTheItemSaysNothing() throws {
        let result = try GstplayProcess.run(sinks + ["--start", "3", TestMedia.vp8], timeout: 60)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertFalse(result.stderr.contains("warning"), result.stderr)
    }

    // MARK: Video: lines and gapless hand-overs

    /// An audio item, then a video item: the video item is loaded afresh (not handed over
    /// gaplessly), so it gets its own `media-info` event and its `Video:` line after its
    /// `Now playing` (its size came before it, with the audio item's name).
    func testAVideoItemAfterAnAudioItemIsLoadedAfreshWithItsOwnMediaInfo() throws {
        let json = try GstplayProcess.run(["--json"] + sinks + [TestMedia.audioOnly, TestMedia.vp8], timeout: 60)
        XCTAssertEqual(json.status, 0, json.stderr)
        let events = lines(json.stdout).compactMap(jsonObject)
        let infos = events.filter { $0["event"] as? String == "media-info" }
        XCTAssertEqual(infos.map { $0["has_video"] as? Bool }, [false, true], json.stdout)

        let text = try GstplayProcess.run(sinks + [TestMedia.audioOnly, TestMedia.vp8], timeout: 60)
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertEqual(lines(text.stderr), ["Now playing \(TestMedia.audioOnly) (1/2)", "Now playing \(TestMedia.vp8) (2/2)", "Video: 320x240"],
                       text.stderr)
    }
}
