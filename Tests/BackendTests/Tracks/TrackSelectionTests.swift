@testable import BackendTracks
import Backend
import Foundation
import TestSupport
import XCTest

/// Switching tracks on real pipelines, and the bad-input cases.
final class TrackSelectionTests: XCTestCase {
    /// The audio sink writes what it renders (downmixed to 8 kHz mono S16LE) to a file in real
    /// time; the pitch in the file tells which track was decoded: eng 440 Hz, deu 880 Hz.
    func testSwitchingAudioMidPlayChangesTheDecodedStreamAndKeepsThePosition() throws {
        let result = try switchAudio(flush: true)
        XCTAssertEqual(result.seekDone ?? -1, result.requestedAt, accuracy: 1.0 / 30, "the flushing seek lands within one frame of the position")
        XCTAssertLessThan(result.heardAfter, 0.3, "the new track is heard at once")
    }

    /// Without the flushing seek playbin plays out what it queued after its selector first.
    func testSwitchingAudioWithoutFlushPlaysOutTheQueueFirst() throws {
        let result = try switchAudio(flush: false)
        XCTAssertNil(result.seekDone, "no seek")
        XCTAssertLessThan(result.heardAfter, 1.5, "the new track is heard after the queued audio")
    }

    private struct SwitchResult { var requestedAt: Double; var seekDone: Double?; var heardAfter: Double }

    private func switchAudio(flush: Bool, file: StaticString = #filePath, line: UInt = #line) throws -> SwitchResult {
        // fdsink, not filesink: filesink truncates its file on FLUSH_STOP (the flushing seek).
        let pcm = NSTemporaryDirectory() + "gstplay-audio-switch-\(getpid()).raw"
        FileManager.default.createFile(atPath: pcm, contents: nil)
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: pcm))
        defer { try? handle.close(); try? FileManager.default.removeItem(atPath: pcm) }
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder, configure: {
            $0.audioSink = .description("audioconvert ! audioresample ! audio/x-raw,format=S16LE,rate=8000,channels=1 ! fdsink sync=true fd=\(handle.fileDescriptor)")
            $0.positionInterval = .milliseconds(50)
        }, standard: { $0.flushOnTrackSwitch = flush })
        defer { player.shutdown() }
        player.load(TestMedia.tracks)
        recorder.waitFor("1.5 s played") { $0.contains { ($0.position?.seconds ?? 0) >= 1.5 } }
        let before = recorder.count
        let requestedAt = player.currentPosition()?.seconds ?? 0
        try player.selectAudioTrack(1)
        recorder.waitFor("EOS") { $0.contains(where: \.isEndOfStream) }
        let after = recorder.events.dropFirst(before)
        XCTAssertTrue(after.contains(.tracks(.trackSelected(.audio, index: 1))), file: file, line: line)
        XCTAssertEqual(player.trackSelection.audio, 1, file: file, line: line)
        let positions = after.compactMap(\.position).map(\.seconds)
        XCTAssertGreaterThanOrEqual(positions.first ?? 0, requestedAt - 1.0 / 30, "no jump back", file: file, line: line)
        XCTAssertEqual(positions, positions.sorted(), "the position never jumps back", file: file, line: line)
        // The decoded stream: 440 Hz before the switch, 880 Hz at the end.
        let samples = readPCM(pcm)
        let rendered = Double(samples.count) / 8000
        let early = crossingsPerSecond(samples[800..<8000], rate: 8000) / 2
        let late = crossingsPerSecond(samples[(samples.count - 6000)..<(samples.count - 800)], rate: 8000) / 2
        XCTAssertEqual(early, 440, accuracy: 20, "eng track (440 Hz) before the switch", file: file, line: line)
        XCTAssertEqual(late, 880, accuracy: 20, "deu track (880 Hz) after the switch", file: file, line: line)
        // Where the pitch changes in the rendered audio (50 ms windows): the switch latency.
        let window = 400
        let starts: [Int] = Array(stride(from: 0, to: samples.count - window, by: window))
        let highStart: Int? = starts.first { (start: Int) -> Bool in crossingsPerSecond(samples[start..<(start + window)], rate: 8000) / 2 > 660 }
        let firstHigh: Double = highStart.map { Double($0) / 8000 } ?? rendered
        // Rendered audio time == media time here (no seek backwards, nothing skipped before the switch).
        let seekDone = after.compactMap(\.seekDone).first?.seconds
        print("audio switch (flush: \(flush)): requested at \(requestedAt) s, seek landed at \(seekDone.map { "\($0)" } ?? "-"), "
              + "880 Hz from \(firstHigh) s of \(rendered) s rendered")
        return SwitchResult(requestedAt: requestedAt, seekDone: seekDone, heardAfter: firstHigh - requestedAt)
    }

    func testSwitchingSubtitlesOffAndOnMidPlayKeepsPlaying() throws {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder)
        defer { player.shutdown() }
        player.load(TestMedia.tracks)
        recorder.waitFor("first cue") { $0.contains { $0.cue != nil } }
        try player.selectSubtitleTrack(nil)
        recorder.waitFor("subtitles off") { $0.contains(.tracks(.trackSelected(.subtitle, index: nil))) }
        XCTAssertNil(player.trackSelection.subtitle)
        let off = recorder.count
        recorder.waitFor("2.5 s") { $0.dropFirst(off).contains { ($0.position?.seconds ?? 0) >= 2.5 } }
        XCTAssertFalse(recorder.events.dropFirst(off).contains { $0.cue != nil }, "no cue while off (Goodbye is due at 2.0 s)")
        try player.selectSubtitleTrack(0)
        recorder.waitFor("EOS") { $0.contains(where: \.isEndOfStream) }
        XCTAssertEqual(player.trackSelection.subtitle, 0)
        XCTAssertEqual(recorder.events.compactMap(\.cue).map(\.text), ["Hello"])
    }

    func testSwitchingSubtitleTrackMidPlayShowsTheOtherLanguage() throws {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder)
        defer { player.shutdown() }
        player.load(TestMedia.tracks)
        recorder.waitFor("Hello") { $0.contains { $0.cue?.text == "Hello" } }
        try player.selectSubtitleTrack(1)
        recorder.waitFor("EOS") { $0.contains(where: \.isEndOfStream) }
        XCTAssertEqual(recorder.events.compactMap(\.cue).map(\.text), ["Hello", "Hallo", "Auf Wiedersehen"],
                       "the flushing seek re-sends the cue showing at the switch, in the new language")
    }

    func testBadIndicesThrowAndChangeNothing() throws {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder)
        defer { player.shutdown() }
        player.load(TestMedia.tracks)
        recorder.waitFor("tracks") { $0.contains { $0.tracksChanged != nil } }
        let selection = player.trackSelection
        XCTAssertThrowsError(try player.selectAudioTrack(2)) { error in
            XCTAssertEqual((error as? PlayerError)?.kind, .invalidArgument)
            XCTAssertEqual((error as? PlayerError)?.message, "no audio track 2: the media has 2 (0…1)")
        }
        XCTAssertThrowsError(try player.selectVideoTrack(-1))
        XCTAssertThrowsError(try player.selectTrack(.audio, nil)) { error in
            XCTAssertEqual((error as? PlayerError)?.message, "audio tracks cannot be switched off; choose a track number")
        }
        recorder.waitFor("EOS") { $0.contains(where: \.isEndOfStream) }
        XCTAssertEqual(player.trackSelection, selection)
        XCTAssertFalse(recorder.events.contains { if case .trackSelected? = $0.tracksEvent { return true } else { return false } })
    }

    func testSubtitleTrackOnAFileWithoutSubtitlesThrows() {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder, sync: false) { $0.autoplay = false }
        defer { player.shutdown() }
        player.load(TestMedia.vp8)
        recorder.waitFor("tracks") { $0.contains { $0.tracksChanged != nil } }
        XCTAssertThrowsError(try player.selectSubtitleTrack(3)) { error in
            XCTAssertEqual((error as? PlayerError)?.message, "no subtitle track 3: the media has no subtitle tracks")
        }
        XCTAssertEqual(player.state, .ready)
    }

    func testSelectionRule() {
        XCTAssertNil(TrackSelectionRule.check(.subtitle, nil, available: 0))
        XCTAssertNil(TrackSelectionRule.check(.audio, 1, available: 2))
        XCTAssertNotNil(TrackSelectionRule.check(.audio, 2, available: 2))
        XCTAssertNotNil(TrackSelectionRule.check(.video, nil, available: 1))
        XCTAssertEqual(TrackSelectionRule.check(.subtitle, 0, available: 0)?.message, "no subtitle track 0: the media has no subtitle tracks")
    }

    func testMediaTagsDisplayTitleAndCueText() {
        XCTAssertEqual(MediaTags(title: "Song", artist: "Band").displayTitle, "Band – Song")
        XCTAssertEqual(MediaTags(title: "Song").displayTitle, "Song")
        XCTAssertNil(MediaTags().displayTitle)
        XCTAssertEqual(CueText.plain(fromMarkup: "<i>Hello</i> &amp; <b>bye</b>\n"), "Hello & bye")
        XCTAssertEqual(CueText.plain(fromMarkup: "a &lt;b&gt;\nline two\0"), "a <b>\nline two")
    }
}
