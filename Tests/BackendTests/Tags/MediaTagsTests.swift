import Backend
import Foundation
import TestSupport
import XCTest

/// Tags and cover art from real files through playbin (fake sinks): ID3 in an MP3,
/// Vorbis comments in an Ogg, and track titles that must stay on their tracks.
final class MediaTagsTests: XCTestCase {
    private func mediaInfo(of path: String, _ recorder: EventRecorder) -> (Player, MediaInfo?) {
        let player = Player.forTesting(recorder, sync: false) { $0.autoplay = false }
        player.load(path)
        return (player, recorder.waitForValue("media-info", { event -> MediaInfo? in
            if case .mediaInfo(let info) = event { return info } else { return nil }
        }))
    }

    func testID3TagsAndFrontCoverOfAnMP3ReachMediaInfoTheTagsEventAndTheGetters() throws {
        let recorder = EventRecorder()
        let (player, info) = mediaInfo(of: TestMedia.taggedMP3, recorder)
        defer { player.shutdown() }
        let tags = try XCTUnwrap(info?.tags)
        XCTAssertEqual(tags.title, "Test Tone")
        XCTAssertEqual(tags.artist, "gstplay Fixtures")
        XCTAssertEqual(tags.album, "Fixture Album")
        XCTAssertEqual(tags.trackNumber, 3)
        XCTAssertEqual(tags.genre, "Test")
        XCTAssertEqual(tags.comment, "a 440 Hz sine")
        XCTAssertEqual(tags.date, "2024")
        XCTAssertEqual(tags.displayTitle, "gstplay Fixtures – Test Tone")
        let cover = try XCTUnwrap(info?.coverArt, "the ID3 APIC frame")
        XCTAssertEqual(cover.mimeType, "image/png")
        XCTAssertEqual(cover.imageType, "front-cover", "the APIC picture type")
        XCTAssertEqual(cover.bytes, try Data(contentsOf: URL(fileURLWithPath: TestMedia.coverArt)), "the embedded picture, byte for byte")
        let event = recorder.waitForValue("tags event") { $0.tagsEvent }
        guard case .tagsChanged(let published, let art)? = event else { return XCTFail("no tags event: \(String(describing: event))") }
        XCTAssertEqual(published, tags)
        XCTAssertEqual(art?.bytes, cover.bytes)
        XCTAssertEqual(player.mediaTags, tags, "the getter answers from the snapshot")
        XCTAssertEqual(player.coverArt?.bytes, cover.bytes)
    }

    func testVorbisCommentsOnTheOnlyAudioStreamAreTheFilesTags() throws {
        let recorder = EventRecorder()
        let (player, info) = mediaInfo(of: TestMedia.taggedOgg, recorder)
        defer { player.shutdown() }
        let tags = try XCTUnwrap(info?.tags)
        XCTAssertEqual(tags.title, "Ogg Tone")
        XCTAssertEqual(tags.artist, "gstplay Fixtures")
        XCTAssertEqual(tags.album, "Fixture Album")
        XCTAssertEqual(tags.trackNumber, 7)
        XCTAssertEqual(tags.comment, "Vorbis comments")
        XCTAssertEqual(tags.date, "2023-02-03")
        XCTAssertEqual(tags.container, "Ogg")
        XCTAssertNil(info?.coverArt)
    }

    func testTrackTitlesOfAFileWithSeveralStreamsStayOnTheTracks() throws {
        let recorder = EventRecorder()
        let (player, info) = mediaInfo(of: TestMedia.path("tracks.mkv"), recorder)
        defer { player.shutdown() }
        XCTAssertNil(info?.tags.title, "\"English-stereo\" names an audio track, not the file")
        XCTAssertEqual(info?.tags.container, "Matroska")
    }

    func testCoverArtConvertsToPNGAndJPEGOfItsOwnSize() throws {
        let art = CoverArt(bytes: try Data(contentsOf: URL(fileURLWithPath: TestMedia.coverArt)), mimeType: "image/png")
        let png = try art.encoded(as: .png)
        XCTAssertEqual(png.width, 128)
        XCTAssertEqual(png.height, 128)
        XCTAssertEqual(Array(png.bytes.prefix(4)), [0x89, 0x50, 0x4E, 0x47])
        let jpeg = try art.encoded(as: .jpeg)
        XCTAssertEqual(Array(jpeg.bytes.prefix(2)), [0xFF, 0xD8])
        XCTAssertEqual(jpeg.width, 128)
        XCTAssertThrowsError(try CoverArt(bytes: Data("not a picture".utf8), mimeType: "image/png").encoded(as: .png))
    }

    /// A 1 s M4A whose title tag qtdemux posts as a global tag, made here (`taginject`, `mp4mux`).
    private func makeTitledM4A() throws -> String {
        let path = NSTemporaryDirectory() + "/titled-\(getpid()).m4a"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/gst-launch-1.0")
        process.arguments = ["-q", "audiotestsrc", "num-buffers=47", "!", "audioconvert", "!", "avenc_aac", "!", "taginject", "tags=title=Mfour",
                             "!", "mp4mux", "!", "filesink", "location=\(path)"]
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        return path
    }

    func testAGaplessHandOverForgetsTheFormerItemsTags() throws {
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder, sync: false)
        defer { player.shutdown() }
        let first = try makeTitledM4A()
        defer { try? FileManager.default.removeItem(atPath: first) }
        let next = "file://" + TestMedia.path("gapless-440.ogg")
        try player.setQueue([QueueItem(uri: "file://" + first), QueueItem(uri: next)])
        XCTAssertEqual(recorder.waitForValue("the first item's tags") { event -> String? in
            if case .tagsChanged(let tags, _)? = event.tagsEvent { return tags.title } else { return nil }
        }, "Mfour")
        recorder.waitFor("the second item's URI") { $0.contains(.uriLoaded(next)) }
        recorder.waitFor("the end of the queue") { $0.contains(where: { if case .endOfStream = $0 { return true } else { return false } }) }
        let uris = recorder.events.compactMap { if case .uriLoaded(let uri) = $0 { return uri } else { return nil } }
        XCTAssertEqual(uris.count, 2, "one load, one gapless hand-over")
        XCTAssertNil(player.mediaTags.title, "\"Mfour\" belonged to the first item: \(player.mediaTags)")
        XCTAssertNil(player.mediaTags.artist)
        XCTAssertEqual(player.mediaTags.container, "Ogg")
        let afterHandOver = recorder.events.drop { $0 != .uriLoaded(next) }.compactMap(\.tagsEvent)
        guard case .tagsChanged(let tags, _)? = afterHandOver.last else { return XCTFail("no tags event after the hand-over") }
        XCTAssertNil(tags.title)
    }
}
