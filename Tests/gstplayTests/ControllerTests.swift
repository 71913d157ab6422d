import Backend
import BackendControl
import Foundation
import TestSupport
import XCTest
@testable import gstplay

/// The CLI actor in-process, on real pipelines (fixtures, fake sinks): inputs go into its inbox,
/// its output is captured through pipes, and `run` returns the exit code.
final class ControllerTests: XCTestCase {
    private let webm = GstplayProcess.fixture("vp8-opus-4s.webm")
    private let short = GstplayProcess.fixture("short-0.2s.mp4")

    /// A controller with a real player, writing into pipes.
    private struct Harness {
        let out = Pipe()
        let err = Pipe()
        let inbox = Inbox()
        let controller: PlaybackController

        /// `forward` takes the player's records to the inbox (as `App` does); a test may pass its own
        /// to hold them back.
        init(items: [String], arguments: [String]? = nil, json: Bool = true, keepOpen: Bool = false,
             forward: (Inbox, AsyncStream<PlayerEventRecord>) -> Void = { $0.forward($1) }) {
            let output = Output(stdout: out.fileHandleForWriting.fileDescriptor, stderr: err.fileHandleForWriting.fileDescriptor)
            let player = Player(configuration: RunOptions(locations: items).playerConfiguration(showsStatistics: false))
            forward(inbox, player.records)
            controller = PlaybackController(player: player, setup: QueueSetup(entries: items.map { QueueSetup.Entry(location: $0) }, arguments: arguments),
                                            settings: .init(keepOpen: keepOpen, json: json), reporting: json ? .json : .text(statusLine: false),
                                            quiet: false, showsVideoSize: true, output: output)
        }

        /// Runs the controller; after `timeout` seconds a SIGTERM input ends a run that hangs (and the test fails).
        func run(timeout: Double = 20) async -> Int32 {
            let watchdog = Task { [inbox] in
                try await Task.sleep(for: .seconds(timeout))
                XCTFail("the controller did not finish within \(timeout) s")
                inbox.send(.signal(ExitStatus.terminated))
            }
            let code = await controller.run(inbox, stopInput: {})
            watchdog.cancel()
            return code
        }

        func finish() -> (stdout: [String], stderr: [String]) {
            try? out.fileHandleForWriting.close()
            try? err.fileHandleForWriting.close()
            return (GstplayProcess.completeLines(String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)),
                    GstplayProcess.completeLines(String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)))
        }
    }

    func testQuitIsAnsweredBeforeTheShutdownEventsAndTheStreamEnds() async {
        let harness = Harness(items: [webm])
        harness.inbox.send(.line(#"{"command":"quit","request_id":1}"#))
        let code = await harness.run()
        XCTAssertEqual(code, ExitStatus.success)
        let (out, err) = harness.finish()
        XCTAssertEqual(err, [])
        guard let reply = out.firstIndex(of: #"{"data":null,"error":"success","request_id":1}"#) else {
            return XCTFail("no reply: \(out)")
        }
        let stopping = out.firstIndex { $0.contains(#""to":"stopping""#) }
        XCTAssertNotNil(stopping, "the shutdown's own events are still written: \(out)")
        XCTAssertLessThan(reply, stopping ?? -1, "the reply comes before the shutdown")
        XCTAssertEqual(out.last, #"{"event":"state","from":"stopping","to":"idle"}"#, "run returns once the player's stream ended")
    }

    func testASignalDecidesTheExitCode() async {
        let harness = Harness(items: [webm])
        harness.inbox.send(.signal(ExitStatus.interrupted))
        harness.inbox.send(.line(#"{"command":"quit","request_id":1}"#))   // after the decision: not taken
        let code = await harness.run()
        XCTAssertEqual(code, ExitStatus.interrupted)
        XCTAssertFalse(harness.finish().stdout.contains { $0.contains(#""request_id":1"#) })
    }

    func testAFailedItemThenAPlayedOneExitsOneWithOneErrorLine() async {
        let missing = GstplayProcess.fixture("does-not-exist.webm")
        let harness = Harness(items: [missing, short], json: false)
        harness.inbox.send(.inputEnded)
        let code = await harness.run()
        XCTAssertEqual(code, ExitStatus.playbackError)
        let (out, err) = harness.finish()
        XCTAssertEqual(out, [])
        XCTAssertEqual(err.filter { $0.contains("error") }, ["gstplay: error: \(missing): Resource not found."])
        XCTAssertTrue(err.contains("Now playing \(short) (2/2)"), "\(err)")
    }

    func testOnlyEmptyDirectoriesExitOneAtOnce() async {
        let harness = Harness(items: [], arguments: ["/tmp/empty-a", "/tmp/empty-b"], json: false)
        let code = await harness.run()
        XCTAssertEqual(code, ExitStatus.playbackError)
        XCTAssertEqual(harness.finish().stderr.filter { $0.contains("error") },
                       ["gstplay: error: /tmp/empty-a, /tmp/empty-b: nothing to play (the directories contain no files)"])
    }

    func testKeysStepFromTheLatestRequest() async {
        let harness = Harness(items: [webm], json: false, keepOpen: true)
        for _ in 0..<3 { harness.inbox.send(.key(.character("-"))) }        // 1 → 0.9 → 0.8 → 0.7 at once
        harness.inbox.send(.key(.character("q")))
        _ = await harness.run()
        let rate = await harness.controller.player.snapshot.rate
        XCTAssertEqual(rate, 0.7, accuracy: 1e-9, "each key stepped from the player's rate as the last key left it")
    }

    func testASeekReplyCarriesTheLandedPositionAndMediaEventsTheirLoadID() async throws {
        let harness = Harness(items: [webm, short])
        harness.inbox.send(.line(#"{"command":["seek","2"],"request_id":1}"#))   // before preroll: waits for it
        harness.inbox.send(.line(#"{"command":["seek","99%"],"request_id":2}"#))
        harness.inbox.send(.inputEnded)
        let code = await harness.run()
        XCTAssertEqual(code, ExitStatus.success)
        let out = harness.finish().stdout
        func object(_ line: String?) throws -> [String: Any] {
            try XCTUnwrap(JSONSerialization.jsonObject(with: Data(try XCTUnwrap(line).utf8)) as? [String: Any], line ?? "no line")
        }
        let first = try object(out.first { $0.contains(#""request_id":1"#) })
        XCTAssertEqual(first["error"] as? String, "success")
        let landed = try XCTUnwrap((first["data"] as? [String: Any])?["position"] as? Double, "\(first)")
        XCTAssertEqual(landed, 2, accuracy: 0.1, "an accurate seek lands at its target")
        let second = try object(out.first { $0.contains(#""request_id":2"#) })
        let nearEnd = try XCTUnwrap((second["data"] as? [String: Any])?["position"] as? Double, "\(second)")
        XCTAssertEqual(nearEnd, 3.96, accuracy: 0.1)
        let seekDone = try out.filter { $0.contains(#""event":"seek-done""#) }.map { try object($0)["position"] as? Double }
        XCTAssertEqual(seekDone, [landed, nearEnd], "each reply carries its seek-done's position")
        let uris = try out.filter { $0.contains(#""event":"uri""#) }.map(object)
        XCTAssertEqual(uris.map { $0["load_id"] as? Int }, [1, 2], "one load ID per item")
        let eos = try out.filter { $0.contains(#""event":"eos""#) }.map(object)
        XCTAssertEqual(eos.map { $0["load_id"] as? Int }, [1, 2], "each item's end carries that item's load ID")
        XCTAssertEqual(try out.filter { $0.contains(#""event":"state""#) }.map(object).compactMap { $0["load_id"] }.count, 0,
                       "player-wide events carry no load ID")
    }

    /// The controller keeps no copy of which item plays. A controller that is late (its
    /// events held back until the short item's end of stream was raised, a `load` line taken
    /// first) still shows each `uri` with the index and count of its own moment (from the record's
    /// snapshot, not the queue as it is later), takes that end of stream as the old item's (the
    /// load ran since), and plays the loaded item to its own end.
    func testALateControllerShowsEachEventAsOfItsMomentAndAnOldEndDoesNotEndTheRun() async throws {
        let held = AsyncStream<PlayerEventRecord>.makeStream()
        let harness = Harness(items: [short]) { inbox, records in
            Task {
                var holding = true
                for await record in records {
                    guard holding else { inbox.send(.event(record)); continue }
                    held.continuation.yield(record)
                    if case .endOfStream = record.event {
                        holding = false
                        inbox.send(.line(#"{"command":["load","\#(GstplayProcess.fixture("vp8-opus-4s.webm"))"],"request_id":1}"#))
                        held.continuation.finish()
                        for await late in held.stream { inbox.send(.event(late)) }
                        inbox.send(.inputEnded)
                    }
                }
                inbox.send(.eventsEnded)
            }
        }
        let code = await harness.run()
        XCTAssertEqual(code, ExitStatus.success)
        let out = harness.finish().stdout
        func object(_ line: String) throws -> [String: Any] {
            try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], line)
        }
        let uris = try out.filter { $0.contains(#""event":"uri""#) }.map(object)
        XCTAssertEqual(uris.map { $0["index"] as? Int }, [0, 1], "\(out)")
        XCTAssertEqual(uris.map { $0["count"] as? Int }, [1, 2], "the first item's count as the queue was then")
        XCTAssertEqual(uris.map { $0["load_id"] as? Int }, [1, 2])
        let reply = try XCTUnwrap(out.firstIndex { $0.contains(#""request_id":1"#) }, "\(out)")
        XCTAssertLessThan(reply, try XCTUnwrap(out.firstIndex { $0.contains(#""event":"uri""#) }), "the held events come after the reply")
        let eos = try out.filter { $0.contains(#""event":"eos""#) }.map(object)
        XCTAssertEqual(eos.map { $0["load_id"] as? Int }, [1, 2], "the loaded item played to its own end: \(out)")
        XCTAssertEqual(try XCTUnwrap(eos.last?["position"] as? Double), 4, accuracy: 0.1)
    }
}
