import Backend
import XCTest
@testable import BackendControl
@testable import gstplay

final class ConsoleCommandTests: XCTestCase {
    private func command(_ line: String) -> ConsoleCommand? { try? ConsoleCommand.parse(line).get() }
    private func error(_ line: String) -> String? {
        if case .failure(let error) = ConsoleCommand.parse(line) { return error.message }
        return nil
    }

    func testEveryCommand() {
        XCTAssertEqual(command("play"), .play)
        XCTAssertEqual(command("pause"), .pause)
        XCTAssertEqual(command("toggle"), .toggle)
        XCTAssertEqual(command("stop"), .stop)
        XCTAssertEqual(command("seek 90"), .seek(.absolute(MediaTime(seconds: 90))))
        XCTAssertEqual(command("seek 1:30"), .seek(.absolute(MediaTime(seconds: 90))))
        XCTAssertEqual(command("seek 1:02:03.5"), .seek(.absolute(.milliseconds(3_723_500))))
        XCTAssertEqual(command("seek +10"), .seek(.relative(MediaTime(seconds: 10))))
        XCTAssertEqual(command("seek -5"), .seek(.relative(MediaTime(seconds: -5))))
        XCTAssertEqual(command("seek 50%"), .seek(.fraction(0.5)))
        XCTAssertEqual(command("rate 1.5"), .rate(1.5))
        XCTAssertEqual(command("rate -1"), .rate(-1))
        XCTAssertEqual(command("rate 0"), .rate(0), "range checks are the Backend's (setRate throws)")
        XCTAssertEqual(command("volume 80"), .volume(80))
        XCTAssertEqual(command("volume 0"), .volume(0))
        XCTAssertEqual(command("volume 100"), .volume(100))
        XCTAssertEqual(command("volume 42.5%"), .volume(42.5))
        XCTAssertEqual(command("mute"), .mute(nil))
        XCTAssertEqual(command("mute on"), .mute(true))
        XCTAssertEqual(command("mute off"), .mute(false))
        XCTAssertEqual(command("status"), .status)
        XCTAssertEqual(command("stats"), .stats)
        XCTAssertEqual(command("next"), .next)
        XCTAssertEqual(command("prev"), .prev)
        XCTAssertEqual(command("load /tmp/a b.mp4"), .load("/tmp/a b.mp4"))
        XCTAssertEqual(command("load file:///x/Y.webm"), .load("file:///x/Y.webm"))
        XCTAssertEqual(command("help"), .help)
        XCTAssertEqual(command("quit"), .quit)
    }

    func testCaseAndSpaces() {
        XCTAssertEqual(command("PAUSE"), .pause)
        XCTAssertEqual(command("  Play  "), .play)
        XCTAssertEqual(command("SeEk    +10   "), .seek(.relative(MediaTime(seconds: 10))))
        XCTAssertEqual(command("\tvolume\t 50"), .volume(50))
        XCTAssertEqual(command("MUTE ON"), .mute(true))
        XCTAssertEqual(command("mute Off"), .mute(false))
        XCTAssertEqual(command("quit\r"), .quit)
        XCTAssertEqual(command("LOAD  Media/Clip.MP4 "), .load("Media/Clip.MP4"), "the location keeps its case")
    }

    func testWordsForm() {
        XCTAssertEqual(try ConsoleCommand.parse(words: ["seek", "+10"]).get(), .seek(.relative(MediaTime(seconds: 10))))
        XCTAssertEqual(try ConsoleCommand.parse(words: ["Pause"]).get(), .pause)
        XCTAssertEqual(try ConsoleCommand.parse(words: ["load", "/a b/c.mp4"]).get(), .load("/a b/c.mp4"))
        XCTAssertEqual(ConsoleCommand.parse(words: []), .failure(ConsoleError("empty command")))
    }

    func testErrors() {
        XCTAssertEqual(error("bogus"), "unknown command 'bogus' (type 'help' for the list)")
        XCTAssertEqual(error(""), "empty command")
        XCTAssertEqual(error("pause now"), "pause: unexpected argument 'now'")
        XCTAssertEqual(error("quit 1"), "quit: unexpected argument '1'")
        XCTAssertEqual(error("seek"), "seek: missing argument (expected a time: \(SeekArgument.formats))")
        XCTAssertEqual(error("seek 1 2"), "seek: unexpected argument '2'")
        XCTAssertEqual(error("seek 1:99"), "seek: invalid time '1:99': seconds must be below 60")
        XCTAssertEqual(error("seek abc"), "seek: invalid time 'abc' (expected \(SeekArgument.formats))")
        XCTAssertEqual(error("rate"), "rate: missing argument (expected a rate such as 1.5)")
        XCTAssertEqual(error("rate fast"), "rate: invalid number 'fast'")
        XCTAssertEqual(error("rate nan"), "rate: invalid number 'nan'")
        XCTAssertEqual(error("rate inf"), "rate: invalid number 'inf'")
        XCTAssertEqual(error("volume"), "volume: missing argument (expected a volume from 0 to 100)")
        XCTAssertEqual(error("volume loud"), "volume: invalid number 'loud' (expected 0-100)")
        XCTAssertEqual(error("volume -1"), "volume: invalid number '-1' (expected 0-100)")
        XCTAssertEqual(error("volume 101"), "volume: '101' is out of range 0-100")
        XCTAssertEqual(error("mute maybe"), "mute: expected 'on' or 'off', got 'maybe'")
        XCTAssertEqual(error("mute on off"), "mute: unexpected argument 'off'")
        XCTAssertEqual(error("load"), "load: missing argument (expected a URI or path)")
        XCTAssertEqual(error("load   "), "load: missing argument (expected a URI or path)")
    }

    func testQueueCommands() {
        XCTAssertEqual(command("playlist"), .queue(.list))
        XCTAssertEqual(command("PLAYLIST Save  /tmp/my list.m3u "), .queue(.save("/tmp/my list.m3u")))
        XCTAssertEqual(try ConsoleCommand.parse(words: ["playlist", "save", "/a b.m3u"]).get(), .queue(.save("/a b.m3u")))
        XCTAssertEqual(command("jump 2"), .queue(.jump(2)))
        XCTAssertEqual(command("remove 0"), .queue(.remove(0)))
        XCTAssertEqual(command("move 3 0"), .queue(.move(from: 3, to: 0)))
        XCTAssertEqual(command("clear"), .queue(.clear))
        XCTAssertEqual(command("shuffle On"), .queue(.shuffle(true)))
        XCTAssertEqual(command("shuffle off"), .queue(.shuffle(false)))
        XCTAssertEqual(command("loop none"), .queue(.loop(.none)))
        XCTAssertEqual(command("loop ONE"), .queue(.loop(.one)))
        XCTAssertEqual(command("loop all"), .queue(.loop(.all)))

        XCTAssertEqual(error("playlist show"), "playlist: unexpected argument 'show' (expected nothing or 'save <path>')")
        XCTAssertEqual(error("playlist save"), "playlist save: missing argument (expected a file path)")
        XCTAssertEqual(error("jump"), "jump: missing argument (expected an item number)")
        XCTAssertEqual(error("jump x"), "jump: expected an item number (0, 1, … as 'playlist' lists them), got 'x'")
        XCTAssertEqual(error("jump +1"), "jump: expected an item number (0, 1, … as 'playlist' lists them), got '+1'")
        XCTAssertEqual(error("remove 1 2"), "remove: unexpected argument '2'")
        XCTAssertEqual(error("move 1"), "move: missing argument (expected two item numbers: from and to)")
        XCTAssertEqual(error("move 1 2 3"), "move: unexpected argument '3'")
        XCTAssertEqual(error("move 1 -2"), "move: expected an item number (0, 1, … as 'playlist' lists them), got '-2'")
        XCTAssertEqual(error("clear all"), "clear: unexpected argument 'all'")
        XCTAssertEqual(error("shuffle"), "shuffle: missing argument (expected on or off)")
        XCTAssertEqual(error("shuffle maybe"), "shuffle: expected 'on' or 'off', got 'maybe'")
        XCTAssertEqual(error("loop twice"), "loop: expected 'none', 'one' or 'all', got 'twice'")
        XCTAssertEqual(error("snapshot --bogus"), "snapshot: unknown option '--bogus' (expected: snapshot [--osd] [path])")
        XCTAssertEqual(error("snapshot --osd --bogus x"), "snapshot: unknown option '--bogus' (expected: snapshot [--osd] [path])")
        XCTAssertEqual(command("snapshot ./--bogus"), .snapshot("./--bogus", osd: false))
        XCTAssertEqual(command("snapshot --osd"), .snapshot(nil, osd: true))
    }

    func testHostileInput() {
        XCTAssertEqual(error("\u{FFFD}\u{FFFD}x"), "unknown command '\u{FFFD}\u{FFFD}x' (type 'help' for the list)")
        XCTAssertEqual(error("a\u{1B}[2Jb"), "unknown command 'a\\u001b[2Jb' (type 'help' for the list)", "control characters are not echoed raw")
        let long = String(repeating: "x", count: 10_000)
        XCTAssertEqual(error(long), "unknown command '\(String(repeating: "x", count: 40))…' (type 'help' for the list)")
    }

    func testABLoopAndFrameStepCommands() {
        XCTAssertEqual(command("ab-loop"), .abLoop(.cycle))
        XCTAssertEqual(command("ab-loop 1:30 105.5"), .abLoop(.both(MediaTime(seconds: 90), MediaTime(seconds: 105.5))))
        XCTAssertEqual(command("AB-LOOP off"), .abLoop(.both(nil, nil)))
        XCTAssertEqual(command("ab-loop-a 2"), .abLoop(.a(MediaTime(seconds: 2))))
        XCTAssertEqual(command("ab-loop-b no"), .abLoop(.b(nil)))
        XCTAssertEqual(command("ab-loop-count inf"), .abLoop(.count(nil)))
        XCTAssertEqual(command("ab-loop-count 3"), .abLoop(.count(3)))
        XCTAssertEqual(command("frame-step"), .frameStep(forward: true))
        XCTAssertEqual(command("frame-back-step"), .frameStep(forward: false))
        XCTAssertEqual(error("ab-loop-count -1"), "ab-loop-count: expected a whole number of loops (0 or more) or 'inf', got '-1'")
        XCTAssertEqual(error("ab-loop-a +5"), "ab-loop-a: a loop point is a time from the start such as 90 or 1:30 (or 'no'), got '+5'")
        XCTAssertEqual(error("ab-loop 1"), "ab-loop: expected two times (A and B) or 'off', got '1'")
        XCTAssertEqual(error("frame-step 2"), "frame-step: unexpected argument '2'")
        XCTAssertEqual(InputBindings.builtin.binding(for: .character("l"))?.parsed, .abLoop(.cycle))
        XCTAssertEqual(InputBindings.builtin.binding(for: .character("."))?.parsed, .frameStep(forward: true))
        XCTAssertEqual(InputBindings.builtin.binding(for: .character(","))?.parsed, .frameStep(forward: false))
        XCTAssertEqual(WindowKeyNames.name(forKeysym: "period"), Key.character(".").name)
        XCTAssertEqual(WindowKeyNames.name(forKeysym: "comma"), Key.character(",").name)
        XCTAssertEqual(ConsoleCommand.abLoop(.cycle).capability, .controlsPlayback, "an A-B loop writes no file")
        XCTAssertEqual(MpvCommand.frameStep.capability, .controlsPlayback)
    }

    func testUsageCoversEveryCommand() {
        let words = Set(ConsoleCommand.usage.map { String($0.syntax.split(separator: " ")[0]) })
        XCTAssertEqual(words, ["play", "pause", "toggle", "stop", "seek", "rate", "volume", "mute", "status", "stats",
                               "next", "prev", "load", "variants", "variant", "help", "quit", "snapshot",
                               "playlist", "jump", "remove", "move", "clear", "shuffle", "loop",
                               "tracks", "track", "sub-file", "sub-offset", "audio-offset", "sub-visibility", "osd", "chapters", "chapter",
                               "cover", "renderers", "cast", "ab-loop", "ab-loop-a", "ab-loop-b", "ab-loop-count", "frame-step", "frame-back-step",
                               "playlist-next", "playlist-prev", "cycle", "add", "keys"])
        for word in words where !["seek", "rate", "volume", "load", "variant", "jump", "remove", "move", "shuffle", "loop",
                                  "track", "sub-file", "sub-offset", "audio-offset", "chapter", "cast",
                                  "ab-loop-a", "ab-loop-b", "ab-loop-count", "cycle", "add"].contains(word) {
            XCTAssertNotNil(command(word), word)
        }
    }

    func testTheRegistryIsConsistent() {
        let names = ConsoleCommand.registry.map(\.name)
        XCTAssertEqual(Set(names).count, names.count, "unique names")
        for registration in ConsoleCommand.registry {
            XCTAssertEqual(registration.syntax.split(separator: " ").first.map(String.init), registration.name, "syntax starts with the name")
            XCTAssertEqual(registration.name, registration.name.lowercased())
            if case .failure(let error) = ConsoleCommand.parse(registration.name.uppercased()),
               error.message.hasPrefix("unknown command") {
                XCTFail("\(registration.name) is not found by its name")
            }
        }
        XCTAssertEqual(ConsoleCommand.usage.map(\.syntax), ConsoleCommand.registry.map(\.syntax), "help lists every command in order")
    }
}

/// `sub-visibility` and `osd` on the console (pure parsing) and the style options.
final class OverlayCommandTests: XCTestCase {
    func testSubVisibilityAndOSDParse() {
        XCTAssertEqual(ConsoleCommand.parse("sub-visibility"), .success(.subVisibility(nil)))
        XCTAssertEqual(ConsoleCommand.parse("sub-visibility toggle"), .success(.subVisibility(nil)))
        XCTAssertEqual(ConsoleCommand.parse("sub-visibility yes"), .success(.subVisibility(true)))
        XCTAssertEqual(ConsoleCommand.parse("sub-visibility NO"), .success(.subVisibility(false)))
        XCTAssertEqual(ConsoleCommand.parse("sub-visibility maybe"),
                       .failure(ConsoleError("sub-visibility: expected yes, no or toggle, got 'maybe'")))
        XCTAssertEqual(ConsoleCommand.parse("osd"), .success(.osd(nil)))
        XCTAssertEqual(ConsoleCommand.parse("osd Hello there"), .success(.osd("Hello there")))
    }

    func testStyleOptionsAreChecked() throws {
        XCTAssertEqual(try SubtitleStyleOptions.parse([]).style(), SubtitleStyle())
        let style = try SubtitleStyleOptions.parse(["--sub-visibility", "no", "--sub-scale", "1.5", "--sub-position", "90"]).style()
        XCTAssertEqual(style, SubtitleStyle(visible: false, scale: 1.5, position: 90))
        XCTAssertEqual(style.fontDescription, "Sans 42.0")
        for bad in [["--sub-visibility", "maybe"], ["--sub-scale", "0"], ["--sub-scale", "nan"], ["--sub-position", "101"]] {
            XCTAssertThrowsError(try SubtitleStyleOptions.parse(bad).style(), "\(bad)")
        }
    }
}
