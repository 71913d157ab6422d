import Backend
import Foundation
import TestSupport
import XCTest

/// Media info and the track table on `tracks.mkv` (real playbin, fake sinks).
final class MediaInfoTracksTests: XCTestCase {
    func testMediaInfoListsEveryStreamWithCodecLanguageAndDetails() {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder, sync: false) { $0.autoplay = false }
        defer { player.shutdown() }
        player.load(TestMedia.tracks)
        guard let info = recorder.waitForValue("media-info", { $0.mediaInfo }) else { return }
        XCTAssertEqual(info.tags.container, "Matroska")
        XCTAssertEqual(info.tracks.map(\.kind), [.video, .audio, .audio, .subtitle, .subtitle])
        XCTAssertEqual(info.tracks.map(\.index), [0, 0, 1, 0, 1])
        XCTAssertEqual(info.tracks.map(\.codec), ["On2 VP8", "Vorbis", "Vorbis", "Timed Text", "Timed Text"])
        XCTAssertEqual(info.tracks.map(\.languageCode), [nil, "en", "de", "en", "de"])
        XCTAssertEqual(info.tracks.map(\.languageName), [nil, "English", "German", "English", "German"])
        XCTAssertEqual(info.tracks.map(\.title), [nil, "English-stereo", "Deutsch-mono", "English", "Deutsch-forced"])
        XCTAssertEqual(info.tracks[0].video, VideoTrackDetails(width: 160, height: 120, frameRateNumerator: 30, frameRateDenominator: 1,
                                                              pixelAspectNumerator: 1, pixelAspectDenominator: 1))
        XCTAssertEqual(info.tracks[1].audio?.channels, 2)
        XCTAssertEqual(info.tracks[2].audio?.channels, 1)
        XCTAssertEqual(info.tracks[1].audio?.sampleRate, 48000)
        XCTAssertNotNil(info.tracks[1].audio?.bitrate, "vorbisenc's nominal bitrate tag")
        XCTAssertTrue(info.tracks.allSatisfy { $0.isForced == nil }, "GStreamer 1.22 reports no forced flag")
        XCTAssertFalse(info.tracks.contains(where: \.isExternal))
        XCTAssertEqual(info.selection, TrackSelection(video: 0, audio: 0, subtitle: 0))
        XCTAssertEqual(info.subtitleStreams, 2)
        XCTAssertEqual(player.tracks, info.tracks, "the getter answers with what was published")
        let published = recorder.waitForValue("tracks", { $0.tracksChanged })
        XCTAssertEqual(published?.0, info.tracks)
    }

    func testAudioOnlyFileHasOneAudioTrackAndNoOthers() {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder, sync: false) { $0.autoplay = false }
        defer { player.shutdown() }
        player.load(TestMedia.audioOnly)
        guard let info = recorder.waitForValue("media-info", { $0.mediaInfo }) else { return }
        XCTAssertEqual(info.tracks.map(\.kind), [.audio])
        XCTAssertEqual(info.tracks.first?.codec, "Vorbis")
        XCTAssertEqual(info.selection, TrackSelection(video: nil, audio: 0, subtitle: nil))
    }

    func testANewLoadForgetsTheOldTracks() {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder, sync: false) { $0.autoplay = false }
        defer { player.shutdown() }
        player.load(TestMedia.tracks)
        recorder.waitFor("media-info 1") { $0.compactMap(\.mediaInfo).count == 1 }
        player.load(TestMedia.vp8)
        recorder.waitFor("media-info 2") { $0.compactMap(\.mediaInfo).count == 2 }
        let second = recorder.events.compactMap(\.mediaInfo).last
        XCTAssertEqual(second?.tracks.map(\.kind), [.video, .audio])
        XCTAssertEqual(second?.tracks.map(\.codec), ["On2 VP8", "Opus"])
        XCTAssertEqual(player.tracks.count, 2)
    }
}
