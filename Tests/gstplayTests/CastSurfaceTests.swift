@testable import BackendControl
@testable import gstplay
import Backend
import Foundation
import TestSupport
import XCTest

/// The command line's casting surface without a renderer: options, console commands,
/// the `c` key, the status line, the exit codes, and two runs that find no renderer (the runs
/// against real renderers are the test lab's).
final class CastSurfaceTests: XCTestCase {
    private let tv = Renderer(udn: "uuid:tv", friendlyName: "Living Room TV", model: "Kodi", protocols: [],
                              location: "http://10.0.0.2/d.xml", hostAddress: "10.0.0.1")

    func testOptions() throws {
        let listing = try GstplayCommand.parse(["--list-renderers", "--cast-interface", "veth0", "--discover-time", "2"]).makeOptions()
        XCTAssertTrue(listing.cast.listRenderers, "no location needed to list")
        XCTAssertEqual(listing.cast.interfaces, ["veth0"])
        XCTAssertEqual(listing.cast.discoverSeconds, 2)
        XCTAssertEqual(listing.cast.castSettings.findTimeout, .seconds(2))
        let casting = try GstplayCommand.parse(["--cast", "Living Room TV", "x.mp4"]).makeOptions()
        XCTAssertEqual(casting.cast.target, .name("Living Room TV"))
        XCTAssertEqual(casting.cast.castSettings.findTimeout, .seconds(8), "--cast waits 8 s by default")
        XCTAssertNil(casting.cast.interfaces)
        XCTAssertEqual(casting.standardFeatures().cast, casting.cast.castSettings)
        XCTAssertEqual(try GstplayCommand.parse(["--cast", "auto", "x"]).makeOptions().cast.target, .auto)
        XCTAssertEqual(try GstplayCommand.parse(["--cast", "uuid:abc", "x"]).makeOptions().cast.target, .udn("uuid:abc"))
        XCTAssertNil(try GstplayCommand.parse(["x"]).makeOptions().cast.target, "no cast unless asked")
        for bad in [["--cast", " ", "x"], ["--list-renderers", "--cast", "auto"], ["--list-renderers", "--discover-time", "0"],
                    ["--list-renderers", "--discover-time", "61"], ["--cast-interface", "", "x"], ["--cast", "auto"]] {
            XCTAssertThrowsError(try GstplayCommand.parse(bad).makeOptions(), "\(bad)")
        }
    }

    func testConsoleCommandsAndKey() {
        XCTAssertEqual(try ConsoleCommand.parse("renderers").get(), .renderers)
        XCTAssertEqual(try ConsoleCommand.parse("cast 1").get(), .cast(.index(1)))
        XCTAssertEqual(try ConsoleCommand.parse("CAST off").get(), .cast(.off))
        XCTAssertEqual(try ConsoleCommand.parse("cast auto").get(), .cast(.target(.auto)))
        XCTAssertEqual(try ConsoleCommand.parse("cast   Living Room TV").get(), .cast(.target(.name("Living Room TV"))))
        XCTAssertEqual(try ConsoleCommand.parse(words: ["cast", "uuid:tv"]).get(), .cast(.target(.udn("uuid:tv"))))
        XCTAssertEqual(ConsoleCommand.parse("cast"), .failure(ConsoleError("cast: missing argument (expected a renderer number from 'renderers', a name, auto or off)")))
        XCTAssertEqual(ConsoleCommand.parse("cast -1"), .failure(ConsoleError("cast: expected a renderer number (see 'renderers'), got '-1'")))
        XCTAssertEqual(ConsoleCommand.parse("renderers now"), .failure(ConsoleError("renderers: unexpected argument 'now'")))
        XCTAssertEqual(bound(.character("c")), .cycle(.cast))
        XCTAssertTrue(InputBindings.builtin.keyNames.contains("c"))
    }

    func testStatusLineNotesAndExitCodes() {
        var status = StatusLine()
        XCTAssertFalse(status.extras.contains { $0.hasPrefix("→") })
        status.snapshot.features[CastSnapshot.self] = CastSnapshot(renderers: [tv], casting: tv)
        XCTAssertEqual(status.extras.first, "→ Living Room TV")
        XCTAssertTrue(status.render(columns: 120).contains("→ Living Room TV"), status.render(columns: 120))
        XCTAssertEqual(CastCommands.note(for: .castStarted(tv)), "Casting to Living Room TV")
        XCTAssertEqual(CastCommands.note(for: .castEnded(tv, position: MediaTime(seconds: 7.31))), "Casting to Living Room TV off; playing here from 0:00:07.3")
        XCTAssertEqual(CastCommands.table([tv], casting: tv), ["* 0  Living Room TV  uuid:tv  Kodi"])
        XCTAssertEqual(CastCommands.listingLine(tv), "Living Room TV  uuid:tv  Kodi")
        var policy = RunPolicy()
        policy.castFailed = true
        XCTAssertEqual(policy.exitCode, ExitStatus.castFailed)
        XCTAssertEqual(policy.finalCode(decided: ExitStatus.success), 7)
        XCTAssertEqual(policy.finalCode(decided: ExitStatus.interrupted), ExitStatus.interrupted)
        policy.itemFailed = true
        XCTAssertEqual(policy.exitCode, ExitStatus.playbackError, "a failed item wins")
    }

    func testListingWithNoRendererExitsSix() throws {
        let run = try GstplayProcess.run(["--list-renderers", "--cast-interface", "lo", "--discover-time", "1"])
        XCTAssertEqual(run.status, ExitStatus.noRenderers, run.stderr)
        XCTAssertEqual(run.stdout, "")
        XCTAssertEqual(run.stderr, "gstplay: no renderers found within 1 s\n")
        let json = try GstplayProcess.run(["--json", "--list-renderers", "--cast-interface", "lo", "--discover-time", "1"])
        XCTAssertEqual(json.status, ExitStatus.noRenderers)
        XCTAssertTrue(json.stdout.contains(#"{"event":"renderers","renderers":[]}"#), json.stdout)
    }

    func testACastThatFindsNoRendererPlaysLocallyAndExitsSeven() throws {
        let run = try GstplayProcess.run(["--json", "--cast", "Nowhere", "--cast-interface", "lo", "--discover-time", "1", "--no-video",
                                          "--audio-sink", "fakesink sync=true", GstplayProcess.fixture("vp8-opus-4s.webm")])
        XCTAssertEqual(run.status, ExitStatus.castFailed, run.stderr)
        let lines = GstplayProcess.completeLines(run.stdout)
        XCTAssertTrue(lines.contains(#"{"event":"cast-failed","message":"no renderer 'Nowhere' found within 1 s","name":null,"udn":null}"#), run.stdout)
        XCTAssertTrue(lines.contains { $0.hasPrefix(#"{"event":"eos""#) }, "played to the end locally")
        XCTAssertEqual(run.stderr.components(separatedBy: "\n").filter { $0.contains("error: cast:") },
                       ["gstplay: error: cast: no renderer 'Nowhere' found within 1 s"])
    }
}
