import Backend
import Foundation
import TestSupport
import XCTest

/// Subtitle cues as events: embedded, external, shifted; and bad subtitle files.
final class SubtitleCueTests: XCTestCase {
    private let frame = 1.0 / 30

    /// Plays `tracks.mkv` to the end (after `prepare`) and returns the cues with the seconds
    /// between the start of playing and each cue's arrival.
    private func playCues(_ recorder: EventRecorder = EventRecorder(), standard: (inout StandardFeatures) -> Void = { _ in },
                          prepare: (Player) throws -> Void = { _ in }) throws -> [(cue: SubtitleCue, arrivedAfter: Double)] {
        let player = Player.forTesting(recorder, standard: standard)
        defer { player.shutdown() }
        try prepare(player)
        player.load(TestMedia.tracks)
        recorder.waitFor("EOS") { $0.contains(where: \.isEndOfStream) }
        let records = recorder.all
        guard let playing = records.first(where: { $0.event.newState == .playing })?.at else { XCTFail("never played"); return [] }
        return records.compactMap { record in record.event.cue.map { ($0, record.at - playing) } }
    }

    private func assertCue(_ actual: SubtitleCue?, _ text: String, _ start: Double, _ end: Double, file: StaticString = #filePath, line: UInt = #line) {
        guard let actual else { return XCTFail("no cue \(text)", file: file, line: line) }
        XCTAssertEqual(actual.text, text, file: file, line: line)
        XCTAssertEqual(actual.start.seconds, start, accuracy: frame, "start of \(text)", file: file, line: line)
        XCTAssertEqual(actual.end?.seconds ?? -1, end, accuracy: frame, "end of \(text)", file: file, line: line)
    }

    /// The two embedded cues of `tracks.mkv` (Hello 0.5–1.5 s, Goodbye 2–3 s) moved by `shift`
    /// seconds, each delivered in real time when due (fakesink sync=true), not all at once.
    private func assertEmbeddedCues(_ cues: [(cue: SubtitleCue, arrivedAfter: Double)], shiftedBy shift: Double,
                                    file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(cues.count, 2, file: file, line: line)
        assertCue(cues.first?.cue, "Hello", 0.5 + shift, 1.5 + shift, file: file, line: line)
        assertCue(cues.last?.cue, "Goodbye", 2.0 + shift, 3.0 + shift, file: file, line: line)
        XCTAssertEqual(cues.first?.arrivedAfter ?? -1, 0.5 + shift, accuracy: 0.25, file: file, line: line)
        XCTAssertEqual(cues.last?.arrivedAfter ?? -1, 2.0 + shift, accuracy: 0.25, file: file, line: line)
    }

    func testEmbeddedCuesArriveWithTextAndTimesWhenDue() throws {
        assertEmbeddedCues(try playCues(), shiftedBy: 0)
    }

    func testSubOffset500ShiftsTheCuesBy500Milliseconds() throws {
        // GStreamer applies the offset (text-offset): the cues arrive 500 ms later too.
        assertEmbeddedCues(try playCues(prepare: { $0.setSubtitleOffset(milliseconds: 500) }), shiftedBy: 0.5)
    }

    func testExternalSubtitleFileAddedBeforeLoadIsSelectedAndItsCuesArrive() throws {
        let recorder = EventRecorder()
        let cues = try playCues(recorder, prepare: { try $0.addSubtitleFile(TestMedia.externalSubtitles) })
        XCTAssertEqual(cues.map(\.cue.text), ["External one", "External two", "External three"])
        assertCue(cues.first?.cue, "External one", 1.0, 2.0)
        assertCue(cues.dropFirst().first?.cue, "External two", 2.5, 3.5)
        assertCue(cues.last?.cue, "External three", 3.6, 3.9)
        guard let (tracks, selection) = recorder.events.compactMap(\.tracksChanged).last else { return XCTFail("no tracks") }
        let subtitles = tracks.filter { $0.kind == .subtitle }
        XCTAssertEqual(subtitles.count, 3)
        let external = subtitles.filter(\.isExternal)
        XCTAssertEqual(external.count, 1, "the suburi stream, found by its stream-id")
        XCTAssertEqual(selection.subtitle, external.first?.index)
        XCTAssertTrue(recorder.events.contains(.tracks(.trackSelected(.subtitle, index: external.first?.index))))
    }

    func testExternalSubtitleAddedMidPlayKeepsThePosition() throws {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder) { $0.positionInterval = .milliseconds(50) }
        defer { player.shutdown() }
        player.load(TestMedia.tracks)
        recorder.waitFor("0.6 s") { $0.contains { ($0.position?.seconds ?? 0) >= 0.6 } }
        let at = player.currentPosition()?.seconds ?? 0
        let before = recorder.count
        try player.addSubtitleFile(TestMedia.externalSubtitles)
        recorder.waitFor("EOS") { $0.contains(where: \.isEndOfStream) }
        let after = recorder.events.dropFirst(before)
        // The reload (uri, opening, ready, playing again) starts with an accurate seek back to `at`.
        guard let landed = after.firstIndex(where: { $0.seekDone != nil }) else { return XCTFail("no seek after the reload") }
        XCTAssertEqual(after[landed].seekDone?.seconds ?? -1, at, accuracy: frame, "the reload continues where we were")
        let positions = after[landed...].compactMap(\.position).map(\.seconds)
        XCTAssertGreaterThanOrEqual(positions.first ?? 0, at - frame)
        XCTAssertEqual(after.compactMap(\.cue).map(\.text), ["External one", "External two", "External three"])
        let external = player.tracks.filter(\.isExternal)
        XCTAssertEqual(external.count, 1)
        XCTAssertEqual(player.trackSelection.subtitle, external.first?.index)
        XCTAssertEqual(external.first?.codec, "SubRip")
    }

    /// A player (configured by `configure`) on `tracks.mkv` with the external subtitle file,
    /// playing past 1.4 s, after "External one" (1.0–2.0 s) was published. The caller shuts it down.
    private func playingExternalSubtitlesPastTheFirstCue(configure: (inout PlayerConfiguration) -> Void = { _ in }) throws -> (EventRecorder, Player) {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder, configure: configure)
        try player.addSubtitleFile(TestMedia.externalSubtitles)
        player.load(TestMedia.tracks)
        recorder.waitFor("External one") { $0.contains { $0.cue?.text == "External one" } }
        recorder.waitFor("1.4 s", timeout: 5) { _ in (player.currentPosition()?.seconds ?? 0) >= 1.4 }
        return (recorder, player)
    }

    func testAfterASeekExternalCuesNeverArriveBeforeTheyAreDue() throws {
        // After a seek, 1.22's subparse (playbin suburi) could push the segment of the position
        // before the seek: cues came at once (early) or 0.7 s late (the seek distance; 3 of 6
        // runs without the repair). ``SubtitleSegmentRepair`` repairs the segment; the engine
        // still holds early cues until due (docs/ADR-001-playbin.md).
        let (recorder, player) = try playingExternalSubtitlesPastTheFirstCue()
        defer { player.shutdown() }
        let before = recorder.count
        player.seek(to: MediaTime(seconds: 0.7))
        recorder.waitFor("EOS") { $0.contains(where: \.isEndOfStream) }
        let records = Array(recorder.all.dropFirst(before))
        guard let landed = records.first(where: { $0.event.seekDone != nil }) else { return XCTFail("no seek-done") }
        XCTAssertEqual(landed.event.seekDone?.seconds ?? -1, 0.7, accuracy: frame)
        let cues = records.compactMap { record in record.event.cue.map { ($0, record.at - landed.at) } }
        XCTAssertEqual(cues.map(\.0.text), ["External one", "External two", "External three"], "each cue once, in order")
        // Due 0.3, 1.8 and 2.9 s after the landing point (cue start − 0.7 s); never earlier.
        for ((cue, after), due) in zip(cues, [0.3, 1.8, 2.9]) {
            XCTAssertGreaterThanOrEqual(after, due - 0.1, "\(cue.text) arrived \(after) s after the seek landed, due at \(due) s")
            XCTAssertLessThanOrEqual(after, due + 0.2, "\(cue.text) arrived \(after) s after the seek landed, due at \(due) s: late")
            assertCue(cue, cue.text, cue.start.seconds, cue.end?.seconds ?? -1)
            print("SubtitleCueTests: \(cue.text) due +\(due) s, arrived +\(String(format: "%.3f", after)) s")
        }
        XCTAssertEqual(cues.first?.1 ?? -1, 0.3, accuracy: 0.15, "the first cue after the landing point comes on time")
    }

    /// Two seeks back to back (no throttle interval): the second is asked for while the first is
    /// in flight, so it waits for that landing (``SeekThrottle``) and the state stays `seeking`
    /// (no second `stateChanged`, one `seekDone`: the first landing is not reported). Cues for the
    /// old positions ("External one", 1.0–2.0 s, after the seek to 0.2 s) must not be published
    /// after the landing at 3.0 s: every seek drops the held cues (``PlayerFeature/seekIssued(to:)``),
    /// the landing those that ended before it, and ``SubtitleSegmentRepair`` keeps `subparse`'s
    /// segment from going back to the first seek's (which made this test fail about 1 run in 25).
    func testASeekAskedForWhileAnotherIsInFlightLandsOnceWithOnlyItsCues() throws {
        let (recorder, player) = try playingExternalSubtitlesPastTheFirstCue { $0.seekThrottle = .zero }
        defer { player.shutdown() }
        let before = recorder.count
        player.seek(to: MediaTime(seconds: 0.2))
        player.seek(to: MediaTime(seconds: 3.0))
        recorder.waitFor("EOS") { $0.contains(where: \.isEndOfStream) }
        let events = Array(recorder.events.dropFirst(before))
        XCTAssertEqual(events.compactMap(\.seekDone).map(\.seconds), [3.0], "one landing: the second seek's")
        XCTAssertEqual(events.filter { $0.newState == .seeking }.count, 1, "the second seek was asked for while the first was in flight")
        let cues = events.compactMap(\.cue)
        XCTAssertEqual(cues.map(\.text), ["External two", "External three"], "only the cues from 3.0 s on")
        for cue in cues { XCTAssertGreaterThan(cue.end?.seconds ?? 0, 3.0 - frame, "\(cue.text) ended before the landing point") }
    }

    func testMissingSubtitleFileThrowsAndPlaybackGoesOn() throws {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder, sync: false)
        defer { player.shutdown() }
        player.load(TestMedia.tracks)
        XCTAssertThrowsError(try player.addSubtitleFile("/nonexistent/missing.srt")) { error in
            XCTAssertEqual((error as? PlayerError)?.kind, .invalidInput)
            XCTAssertEqual((error as? PlayerError)?.message, "cannot read subtitle file /nonexistent/missing.srt: No such file or directory")
        }
        recorder.waitFor("EOS") { $0.contains(where: \.isEndOfStream) }
        XCTAssertEqual(player.tracks.filter { $0.kind == .subtitle }.count, 2)
    }

    /// Binary bytes and broken timestamps: a warning naming the file, no new track, playback goes on.
    func testUnusableSubtitleFilesWarnAndPlaybackGoesOn() throws {
        for (name, gstreamerSays) in [("binary.srt", "Could not determine type of stream."), ("broken-timestamps.srt", "This appears to be a text file")] {
            let recorder = EventRecorder()
            let player = Player.forTesting(recorder, sync: false)
            player.load(TestMedia.tracks)
            recorder.waitFor("tracks") { $0.contains { $0.tracksChanged != nil } }
            let selection = player.trackSelection
            try player.addSubtitleFile(TestMedia.path(name))
            recorder.waitFor("EOS") { $0.contains(where: \.isEndOfStream) }
            let warnings = recorder.events.compactMap { if case .warning(let w) = $0 { return w.message } else { return nil } }
            XCTAssertTrue(warnings.contains(gstreamerSays), "\(name): \(warnings)")
            XCTAssertTrue(warnings.contains { $0.hasPrefix("subtitle file file://") && $0.contains(name) && $0.hasSuffix("playing on without it") },
                          "\(name): \(warnings)")
            XCTAssertEqual(player.tracks.filter { $0.kind == .subtitle }.count, 2, name)
            XCTAssertFalse(player.tracks.contains(where: \.isExternal), name)
            XCTAssertEqual(player.trackSelection, selection, name)
            XCTAssertNil(recorder.events.first { $0.error != nil }, name)
            player.shutdown()
        }
    }

    /// Counted as a sink, the text sink answered the position query after a seek with the end
    /// of its last subtitle buffer (3.04 s for a seek to 1.53 s).
    func testTheCueSinkDoesNotSkewThePositionAfterPausedSeeks() throws {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder) { $0.autoplay = false }
        defer { player.shutdown() }
        player.load(TestMedia.tracks)
        recorder.waitFor("ready") { $0.contains { $0.tracksChanged != nil } }
        for (index, target) in [1.0, 2.2, 0.6].enumerated() {
            player.seek(to: MediaTime(seconds: target), mode: .accurate)
            let landed = recorder.waitForValue("seek \(index)", after: recorder.count) { $0.seekDone }
            XCTAssertEqual(landed?.seconds ?? -1, target, accuracy: frame, "seek \(index)")
            XCTAssertEqual(player.currentPosition()?.seconds ?? -1, target, accuracy: frame, "position after seek \(index)")
        }
    }

    func testShutdownWhilePlayingSubtitlesIsQuick() {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder)
        player.load(TestMedia.tracks)
        recorder.waitFor("Hello") { $0.contains { $0.cue != nil } }
        let started = Date()
        player.shutdown()
        let took = Date().timeIntervalSince(started)
        // The baseline, in this run and under the same load: a player without subtitles.
        let plain = EventRecorder()
        let baselinePlayer = Player.forTesting(plain)
        baselinePlayer.load(TestMedia.vp8)
        plain.waitFor("playing") { plain.reachedState(.playing)($0) }
        let baselineStarted = Date()
        baselinePlayer.shutdown()
        let baseline = Date().timeIntervalSince(baselineStarted)
        print("shutdown with the cue sink: \(Int(took * 1000)) ms; without subtitles: \(Int(baseline * 1000)) ms")
        XCTAssertLessThan(took, 3 * baseline + 0.5, "a shutdown that waits for the cue sink")
    }

    /// Subtitles drawn by playbin's `subtitleoverlay` (here into a fake sink) still
    /// come out as cue events, read by the overlay tap's probe and held until due.
    func testOverlayRenderingStillPublishesTheCuesWhenDue() throws {
        let cues = try playCues(standard: { $0.subtitleRendering = .overlay })
        assertEmbeddedCues(cues, shiftedBy: 0)
    }

    /// Without a window (fake sinks) the automatic choice keeps the cheap events-only path: the cue sink.
    func testAutomaticRenderingWithoutAWindowDrawsNothing() throws {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder, standard: { $0.subtitleRendering = .automatic })
        defer { player.shutdown() }
        XCTAssertTrue(eventually { player.snapshot.features[TracksSnapshot.self] != nil })
        XCTAssertFalse(player.subtitlesDrawn)
    }
}
