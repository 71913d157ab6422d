import BackendControl
import Foundation
import TestSupport
import XCTest
@testable import gstplay

/// `gstplay.conf` (mpv.conf syntax) with real files in a temporary `XDG_CONFIG_HOME`: the
/// parser's rules, options applied, the command line winning, profiles, `include=`, errors
/// naming `FILE:LINE` with exit 2, `--no-config` and `--config-dir`.
final class ConfigFileCLITests: XCTestCase {
    private var home = ""
    private var configFile: String { home + "/gstplay/gstplay.conf" }
    private let media = GstplayProcess.fixture("audio-only-4s.ogg")

    override func setUpWithError() throws {
        home = NSTemporaryDirectory() + "gstplay-config-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: home + "/gstplay", withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: home)
    }

    private func write(_ text: String, to path: String? = nil) {
        FileManager.default.createFile(atPath: path ?? configFile, contents: Data(text.utf8))
    }

    private var environment: [String: String] {
        ProcessInfo.processInfo.environment.merging(["XDG_CONFIG_HOME": home]) { $1 }
    }

    /// The volume (percent) `status` reports right after start with `arguments`.
    private func startupVolume(_ arguments: [String]) throws -> Double? {
        let run = try GstplayProcess.run(["--json", "--no-video"] + arguments + [media],
                                         input: [#"{"command":"status","request_id":1}"#, "quit"], environment: environment)
        XCTAssertEqual(run.status, 0, run.stderr)
        let reply = run.stdout.split(separator: "\n").compactMap { jsonObject(String($0)) }.first { $0["request_id"] as? Int == 1 }
        return (reply?["data"] as? [String: Any])?["volume"] as? Double
    }

    func testParsesMpvConfSyntax() throws {
        let text = """
            # a comment
              volume = 50   # trailing comment
            --mute
            sub-file="/a b/#c.srt"
            start='1:00' # quoted
            [night]
            volume=20
            [default]
            loop=one
            """
        let document = try ConfigFile.parse(text, file: "f.conf")
        XCTAssertEqual(document.top.map { "\($0.line) \($0.name)=\($0.value ?? "<flag>")" },
                       ["2 volume=50", "3 mute=<flag>", "4 sub-file=/a b/#c.srt", "5 start=1:00", "9 loop=one"])
        XCTAssertEqual(document.profiles["night"]?.map { "\($0.line) \($0.name)=\($0.value ?? "")" }, ["7 volume=20"])
        XCTAssertThrowsError(try ConfigFile.parse("ok=1\n[unclosed\n", file: "f.conf")) { error in
            XCTAssertEqual((error as? ConfigFile.Failure)?.description, "f.conf:2: a section needs a closing ']' ('[unclosed')")
        }
        XCTAssertThrowsError(try ConfigFile.parse("volume=\"50\" extra\n", file: "f.conf"))
    }

    /// mpv's flag forms: `fs` and `fs=yes` are `--fs`, `gapless=no` is `--no-gapless`,
    /// `video=no` is `--no-video`; other values are `--name=value` (so `loop=one` reaches
    /// the optional-value rewrite and `start=-10` its check).
    func testEntriesBecomeTheWordsOfTheirOptions() throws {
        func words(_ name: String, _ value: String?) throws -> [String] {
            try ConfigArguments.Expansion.words(for: ConfigFile.Entry(name: name, value: value, file: "f", line: 1))
        }
        XCTAssertEqual(try words("fs", nil), ["--fs"])
        XCTAssertEqual(try words("fullscreen", "yes"), ["--fullscreen"])
        XCTAssertEqual(try words("gapless", "no"), ["--no-gapless"])
        XCTAssertEqual(try words("no-fs", nil), ["--no-fs"])
        XCTAssertEqual(try words("video", "no"), ["--no-video"])
        XCTAssertEqual(try words("loop", "one"), ["--loop=one"])
        XCTAssertEqual(try words("sub-offset", "-250"), ["--sub-offset=-250"])
        XCTAssertThrowsError(try words("start", "-10")) { error in
            let failure = error as? ConfigArguments.Expansion.EntryFailure
            XCTAssertEqual(failure.map { "\($0.at): \($0.message)" }, "f:1: --start cannot be negative (got '-10')")
        }
        XCTAssertThrowsError(try words("mute", "perhaps"))
    }

    func testVolumeFromTheFileAppliesAndTheCommandLineBeatsIt() throws {
        write("volume=50\n")
        XCTAssertEqual(try startupVolume([]) ?? -1, 50, accuracy: 0.5)
        XCTAssertEqual(try startupVolume(["--volume", "20"]) ?? -1, 20, accuracy: 0.5)
    }

    func testProfilesAndInclude() throws {
        write("volume=30\n", to: home + "/gstplay/extra.conf")
        write("""
            include=extra.conf
            [loud]
            volume=90
            [soft]
            volume=10
            """)
        XCTAssertEqual(try startupVolume([]) ?? -1, 30, accuracy: 0.5, "include= read the other file")
        XCTAssertEqual(try startupVolume(["--profile", "loud"]) ?? -1, 90, accuracy: 0.5)
        XCTAssertEqual(try startupVolume(["--profile=soft,loud"]) ?? -1, 90, accuracy: 0.5, "profiles apply in order")
        write("profile=soft\n[soft]\nvolume=10\n", to: configFile)
        // `profile=` before the section that defines it: sections are read with the whole file.
        XCTAssertEqual(try startupVolume([]) ?? -1, 10, accuracy: 0.5)
    }

    func testAnUnknownOptionOrBadValueNamesFileAndLineAndExitsTwo() throws {
        for (text, message) in [("# fine\nvolume=40\nfrobnicate=1\n", "3: unknown option 'frobnicate'"),
                                ("volume=500\n", "1: --volume must be between 0 and 100 (got 500.0)"),
                                ("profile=p\n[p]\nloop=sometimes\n", "3: --loop must be none, one or all (got 'sometimes')"),
                                ("include=missing.conf\n", "1: include: no such file \(home)/gstplay/missing.conf"),
                                ("profile=nowhere\n", "1: no profile 'nowhere'")] {
            write(text)
            let run = try GstplayProcess.run([media], environment: environment)
            XCTAssertEqual(run.status, 2, text)
            XCTAssertEqual(run.stderr, "gstplay: error: \(configFile):\(message)\n", text)
        }
        write("volume=40\n")
        let run = try GstplayProcess.run(["--profile", "absent", media], environment: environment)
        XCTAssertEqual(run.status, 2)
        XCTAssertEqual(run.stderr, "gstplay: error: --profile: no profile 'absent' in \(configFile)\n")
    }

    /// An option that needs another is judged with the rest of the file and the command line:
    /// `remote-bind` with `--remote` given on the command line is fine, alone it names its line.
    func testAnOptionNeedingAnotherIsCheckedWithTheRest() throws {
        write("# the web remote's address\nremote-bind=127.0.0.1\n")
        let alone = try GstplayProcess.run([media], environment: environment)
        XCTAssertEqual(alone.status, 2)
        XCTAssertEqual(alone.stderr, "gstplay: error: \(configFile):2: --remote-bind needs --remote\n")
        let together = try GstplayProcess.run(["--remote", "--no-video", media], input: ["quit"], environment: environment)
        XCTAssertEqual(together.status, 0, together.stderr)
        XCTAssertTrue(together.stderr.contains("gstplay: web remote: http://127.0.0.1:"), together.stderr)
    }

    func testNoConfigAndConfigDir() throws {
        write("frobnicate=1\n")
        XCTAssertEqual(try startupVolume(["--no-config", "--volume", "70"]) ?? -1, 70, accuracy: 0.5, "the bad file was not read")
        let other = home + "/other"
        try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: true)
        write("volume=60\n", to: other + "/gstplay.conf")
        XCTAssertEqual(try startupVolume(["--config-dir", other]) ?? -1, 60, accuracy: 0.5)
        // input.conf follows the same directory, and --no-config leaves it out too (as mpv).
        write("x stop\n", to: home + "/gstplay/input.conf")
        write("y stop\n", to: other + "/input.conf")
        func boundKeys(_ arguments: [String]) throws -> [String] {
            let run = try GstplayProcess.run(arguments + ["--no-video", "--audio-sink", "fakeaudiosink", GstplayProcess.fixture("vp8-opus-4s.webm")],
                                             input: ["keys", "quit"], environment: environment)
            XCTAssertEqual(run.status, 0, run.stderr)
            return ["x", "y"].filter { key in run.stdout.split(separator: "\n").contains { $0.hasPrefix("  \(key) ") } }
        }
        write("", to: home + "/gstplay/gstplay.conf")
        XCTAssertEqual(try boundKeys([]), ["x"], "the default directory's input.conf")
        XCTAssertEqual(try boundKeys(["--config-dir", other]), ["y"], "--config-dir's input.conf")
        XCTAssertEqual(try boundKeys(["--no-config"]), [], "--no-config reads no input.conf")
        // --help never reads the file (a broken file must not hide the help).
        let help = try GstplayProcess.run(["--help"], environment: environment)
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.contains("--no-config"), help.stdout)
    }
}
