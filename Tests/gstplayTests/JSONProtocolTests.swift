import Backend
import TestSupport
import XCTest
@testable import BackendControl
@testable import gstplay

final class JSONProtocolTests: XCTestCase {
    private func request(_ line: String) -> JSONProtocol.Request { JSONProtocol.parseRequest(line) }
    private func failure(_ message: String, id: RequestID = .null) -> JSONProtocol.Request {
        JSONProtocol.Request(id: id, command: .failure(ConsoleError(message)))
    }

    func testGoodRequests() {
        XCTAssertEqual(request(#"{"command": ["seek", "+10"], "request_id": 7}"#),
                       .init(id: .int(7), command: .success(.seek(.relative(MediaTime(seconds: 10))))))
        XCTAssertEqual(request(#"{"command": "pause", "request_id": 8}"#), .init(id: .int(8), command: .success(.pause)))
        XCTAssertEqual(request(#"{"command": "seek 1:30"}"#), .init(id: .null, command: .success(.seek(.absolute(MediaTime(seconds: 90))))))
        XCTAssertEqual(request(#"  {"request_id": "abc", "command": ["VOLUME", 50]}  "#), .init(id: .string("abc"), command: .success(.volume(50))))
        XCTAssertEqual(request(#"{"command": ["mute", true], "request_id": 1}"#), .init(id: .int(1), command: .success(.mute(true))))
        XCTAssertEqual(request(#"{"command": ["rate", 1.5], "request_id": 2.5}"#), .init(id: .double(2.5), command: .success(.rate(1.5))))
        XCTAssertEqual(request(#"{"command": ["status"], "request_id": 3, "extra": {"ignored": true}}"#), .init(id: .int(3), command: .success(.status)))
    }

    func testTextLinesInJSONMode() {
        XCTAssertEqual(request("pause"), .init(id: .absent, command: .success(.pause)))
        XCTAssertEqual(request("bogus"), .init(id: .absent, command: .failure(ConsoleError("unknown command 'bogus' (type 'help' for the list)"))))
    }

    func testMalformed() {
        for line in ["{not json", "{\"command\": ", "[1,2", "\"unterminated"] {
            let parsed = request(line)
            XCTAssertEqual(parsed.id, .null, line)
            guard case .failure(let error) = parsed.command else { return XCTFail(line) }
            XCTAssertTrue(error.message.hasPrefix("invalid JSON: "), error.message)
        }
    }

    func testWrongShapes() {
        let objectHint = "a request must be a JSON object such as {\"command\": [\"pause\"], \"request_id\": 1}"
        XCTAssertEqual(request("[1, 2]"), failure(objectHint))
        XCTAssertEqual(request("\"pause\""), failure(objectHint))
        XCTAssertEqual(request(#"{"request_id": 4}"#), failure("missing \"command\"", id: .int(4)))
        XCTAssertEqual(request(#"{"command": 5, "request_id": 5}"#), failure("\"command\" must be a string or an array of strings", id: .int(5)))
        XCTAssertEqual(request(#"{"command": {"a": 1}}"#), failure("\"command\" must be a string or an array of strings"))
        XCTAssertEqual(request(#"{"command": ["seek", [1]], "request_id": 6}"#), failure("\"command\" items must be strings or numbers", id: .int(6)))
        XCTAssertEqual(request(#"{"command": [], "request_id": 7}"#), failure("empty command", id: .int(7)))
        XCTAssertEqual(request(#"{"command": "pause", "request_id": [1]}"#), failure("\"request_id\" must be a number or a string"))
        XCTAssertEqual(request(#"{"command": ["seek", "1:99"], "request_id": 9}"#),
                       failure("seek: invalid time '1:99': seconds must be below 60", id: .int(9)))
    }

    func testReplies() {
        XCTAssertEqual(Reply(id: .int(7), error: nil).line, #"{"data":null,"error":"success","request_id":7}"#)
        XCTAssertEqual(Reply(id: .null, error: "bad").line, #"{"data":null,"error":"bad","request_id":null}"#)
        XCTAssertEqual(Reply(id: .absent, error: nil, data: .muted(true)).line,
                       #"{"data":{"muted":true},"error":"success"}"#)
    }

    func testEvents() throws {
        XCTAssertEqual(WireEvents.hello(version: "1.0", gstreamer: "1.22.0"),
                       #"{"event":"hello","gstreamer":"1.22.0","protocol":1,"version":"1.0"}"#)
        XCTAssertEqual(WireEvents.line(for: .stateChanged(from: .opening, to: .ready)), #"{"event":"state","from":"opening","to":"ready"}"#)
        XCTAssertEqual(WireEvents.line(for: .position(.milliseconds(1250), duration: .milliseconds(10_021))),
                       #"{"duration":10.021,"event":"position","position":1.25}"#)
        XCTAssertEqual(WireEvents.line(for: .position(.zero, duration: nil)), #"{"duration":null,"event":"position","position":0}"#)
        XCTAssertEqual(WireEvents.line(for: .durationChanged(nil)), #"{"duration":null,"event":"duration"}"#)
        XCTAssertEqual(WireEvents.line(for: .mediaSize(VideoSize(codedWidth: 720, height: 576, parNumerator: 64, parDenominator: 45))),
                       #"{"event":"media-size","height":576,"width":1024}"#)
        XCTAssertEqual(WireEvents.line(for: .mediaSize(nil)), #"{"event":"media-size","height":null,"width":null}"#)
        XCTAssertEqual(WireEvents.line(for: .buffering(percent: 40)), #"{"event":"buffering","percent":40}"#)
        XCTAssertEqual(WireEvents.line(for: .seekDone(.milliseconds(2000))), #"{"event":"seek-done","position":2}"#)
        XCTAssertEqual(WireEvents.line(for: .endOfStream(position: .milliseconds(4005))), #"{"event":"eos","position":4.005}"#)
        XCTAssertEqual(WireEvents.line(for: .rateChanged(1.5)), #"{"event":"rate","rate":1.5}"#)
        XCTAssertEqual(WireEvents.line(for: .volumeChanged(volume: 1, muted: true)), #"{"event":"volume","linear":1,"muted":true,"volume":100}"#)
        XCTAssertEqual(WireEvents.line(for: .sinksChosen(video: "fakevideosink", audio: "fakeaudiosink", reason: "r")),
                       #"{"audio":"fakeaudiosink","event":"sinks","reason":"r","video":"fakevideosink"}"#)
        XCTAssertEqual(WireEvents.line(for: .uriLoaded("file:///a%20b.mp4"), item: (1, 3)),
                       #"{"count":3,"event":"uri","index":1,"uri":"file:///a%20b.mp4"}"#)
        let error = PlayerError(kind: .resource, code: 3, element: "source", message: "Resource not found.", debug: "d\n\"x\"",
                                missingPlugins: ["AC-3"], uri: "file:///x")
        XCTAssertEqual(WireEvents.line(for: .error(error)),
                       #"{"code":3,"debug":"d\n\"x\"","element":"source","event":"error","http_status":null,"kind":"resource","message":"Resource not found.","missing_plugins":["AC-3"],"uri":"file:///x"}"#)
        XCTAssertEqual(WireEvents.line(for: .warning(PlayerError(kind: .other, message: "w", httpStatus: 404))),
                       #"{"code":0,"debug":null,"element":null,"event":"warning","http_status":404,"kind":"other","message":"w","missing_plugins":[],"uri":null}"#)
        let info = MediaInfo(uri: "u", isLive: false, isSeekable: true, duration: .milliseconds(4000), hasVideo: true, hasAudio: false, subtitleStreams: 1)
        XCTAssertEqual(WireEvents.line(for: .mediaInfo(info)),
                       #"{"duration":4,"event":"media-info","has_audio":false,"has_video":true,"live":false,"seekable":true,"subtitle_streams":1,"tags":{"album":null,"artist":null,"comment":null,"container":null,"cover":null,"date":null,"genre":null,"language":null,"title":null,"track_count":null,"track_number":null},"uri":"u"}"#)
        let stats = try XCTUnwrap(jsonObject(WireEvents.line(for: .statistics(PlayerStatistics()))))
        XCTAssertEqual(stats["event"] as? String, "statistics")
        XCTAssertEqual(stats["rendered_frames"] as? Int, 0)
    }

    func testSerialisationIsStableAndValid() throws {
        let text = Reply(id: .string("b"), error: "tab\there \u{1} \u{2028} é \\ \"q\" \u{8}\u{C}\u{7F}", data: .help(commands: ["1"], keys: [])).line
        XCTAssertEqual(text, #"{"data":{"commands":["1"],"keys":[]},"error":"tab\there \u0001 \u2028 é \\ \"q\" \u0008\u000c\u007f","request_id":"b"}"#)
        XCTAssertFalse(text.contains("\n"))
        XCTAssertNotNil(try JSONSerialization.jsonObject(with: Data(text.utf8)))
        XCTAssertEqual(try JSONValue.parse(text)["error"], .string("tab\there \u{1} \u{2028} é \\ \"q\" \u{8}\u{C}\u{7F}"))
        XCTAssertEqual(Wire.escapingLikeProtocolV1(#"{"a":"\\b\b"}"#), #"{"a":"\\b\u0008"}"#, "an escaped backslash before b stays")
    }

    func testNonFiniteNumbersAreNull() {
        XCTAssertEqual(WireEvents.line(for: .rateChanged(.nan)), #"{"event":"rate","rate":null}"#)
        var statistics = PlayerStatistics()
        statistics.lastSeekLatencyMilliseconds = .infinity
        XCTAssertTrue(WireEvents.line(for: .statistics(statistics)).contains(#""last_seek_latency_ms":null"#))
    }
}
