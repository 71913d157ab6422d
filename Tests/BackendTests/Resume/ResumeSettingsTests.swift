import Backend
@testable import BackendResume
import Foundation
import XCTest

/// ``ResumeSettings`` (the choices `--resume` keeps) as stored, and the `watch-later-options`
/// list: encoding, old entries, damaged fields, the parser.
final class ResumeSettingsTests: XCTestCase {
    private var dir = ""

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "gstplay-resume-settings-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir + "/state", withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: dir) }

    private var everything: ResumeSettings {
        var settings = ResumeSettings()
        settings.volume = 0.25
        settings.muted = true
        settings.rate = 1.5
        settings.audioTrack = 1
        settings.subtitleTrack = .some(nil)
        settings.subtitleFiles = ["file:///x/a.srt"]
        settings.subtitleDelay = -250
        settings.abLoopA = 1
        settings.abLoopB = 3.5
        settings.abLoopCount = .some(nil)
        return settings
    }

    func testEveryChoiceRoundTripsWithMpvNames() throws {
        let data = try JSONEncoder().encode(everything)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        XCTAssertEqual(Set(object.keys), ["volume", "mute", "speed", "aid", "sid", "sub-files", "sub-delay-ms", "ab-loop-a", "ab-loop-b", "ab-loop-count"])
        XCTAssertEqual(object["sid"] as? String, "no", "subtitles off")
        XCTAssertEqual(object["ab-loop-count"] as? String, "inf")
        XCTAssertEqual(try JSONDecoder().decode(ResumeSettings.self, from: data), everything)

        var counted = everything
        counted.subtitleTrack = .some(1)
        counted.abLoopCount = .some(3)
        XCTAssertEqual(try JSONDecoder().decode(ResumeSettings.self, from: JSONEncoder().encode(counted)), counted)
        XCTAssertEqual(try JSONEncoder().encode(ResumeSettings()), Data("{}".utf8), "nothing saved, nothing written")
    }

    func testAnOldEntryWithOnlyAPositionStillResumes() throws {
        let uri = "http://x/old"
        try Data(#"{"version": 1, "entries": [{"uri": "http://x/old", "position": 12.5, "savedAt": 1764000000}]}"#.utf8)
            .write(to: URL(fileURLWithPath: dir + "/state/resume.json"))
        let store = ResumeStore(directory: dir + "/state")
        XCTAssertEqual(try store.position(for: uri), MediaTime(seconds: 12.5))
        let entry = try XCTUnwrap(store.entry(for: uri))
        XCTAssertNil(entry.settings, "no choices were stored")
        XCTAssertNil(try store.repair(), "an old entry is not damage")
    }

    func testSavedChoicesComeBackAndDamagedFieldsCostOnlyThemselves() throws {
        let store = ResumeStore(directory: dir + "/state")
        try store.save(uri: "http://x/a", position: MediaTime(seconds: 5), duration: MediaTime(seconds: 100), settings: everything)
        XCTAssertEqual(try store.entry(for: "http://x/a")?.settings, everything)

        let hostile = #"""
        {"version": 1, "entries": [
          {"uri": "http://x/b", "position": 7, "savedAt": 1764000000,
           "settings": {"volume": "loud", "mute": true, "speed": 0, "aid": -3, "sid": "off", "sub-files": [""],
                        "sub-delay-ms": 99999999999, "ab-loop-a": -1, "ab-loop-b": 2, "ab-loop-count": -2, "future": {"x": 1}}},
          {"uri": "http://x/c", "position": 9, "savedAt": 1764000000, "settings": 42}
        ]}
        """#
        try Data(hostile.utf8).write(to: URL(fileURLWithPath: dir + "/state/resume.json"))
        var expected = ResumeSettings()
        expected.muted = true
        expected.abLoopB = 2
        XCTAssertEqual(try store.entry(for: "http://x/b")?.settings, expected, "only the fields that read with possible values")
        XCTAssertEqual(try store.position(for: "http://x/b"), MediaTime(seconds: 7))
        XCTAssertEqual(try store.position(for: "http://x/c"), MediaTime(seconds: 9), "settings that are not an object cost only themselves")
        XCTAssertNil(try store.entry(for: "http://x/c")?.settings)
    }

    func testKeepingOnlyTheListedChoices() {
        let kept = everything.keeping([.volume, .abLoopCount])
        var expected = ResumeSettings()
        expected.volume = 0.25
        expected.abLoopCount = .some(nil)
        XCTAssertEqual(kept, expected)
        XCTAssertTrue(everything.keeping([.start]).isEmpty)
    }

    func testTheOptionsListParser() {
        XCTAssertEqual(try ResumeSetting.parseList("start,volume,mute,speed").get(), [.start, .volume, .mute, .speed])
        XCTAssertEqual(try ResumeSetting.parseList(ResumeSetting.names).get(), Set(ResumeSetting.allCases))
        XCTAssertEqual(try ResumeSetting.parseList(" aid , SID,sub-files,sub-delay,ab-loop-a,ab-loop-b,ab-loop-count,aid").get(),
                       [.audioTrack, .subtitleTrack, .subtitleFiles, .subtitleDelay, .abLoopA, .abLoopB, .abLoopCount])
        guard case .failure(let unknown) = ResumeSetting.parseList("start,colour") else { return XCTFail("an unknown name") }
        XCTAssertEqual(unknown.description, "unknown name 'colour' (expected some of \(ResumeSetting.names))")
        for bad in ["", "start,", ",start", "start,,volume"] {
            guard case .failure(let error) = ResumeSetting.parseList(bad) else { return XCTFail("'\(bad)' is not a list") }
            XCTAssertTrue(error.description.hasPrefix("expected names separated by commas"), error.description)
        }
    }
}
