import Backend
import XCTest

/// The umbrella's wiring of other features' events to OSD messages (`StandardFeatures.osdMessage`,
/// pure): track selections and chapter changes.
final class OSDMessageTests: XCTestCase {
    func testTrackSelectionsAndChapterChangesBecomeMessages() {
        var snapshot = PlayerSnapshot()
        var tracks = TracksSnapshot()
        tracks.tracks = [MediaTrack(index: 0, kind: .audio, languageName: "English"), MediaTrack(index: 1, kind: .audio, title: "Deutsch-mono")]
        snapshot.features[TracksSnapshot.self] = tracks
        let chapters = [Chapter(index: 0, uid: "a", title: "Opening", start: .zero), Chapter(index: 1, uid: "b", title: "Middle", start: MediaTime(seconds: 1))]
        snapshot.features[ChaptersSnapshot.self] = ChaptersSnapshot(chapters: chapters)

        XCTAssertEqual(StandardFeatures.osdMessage(for: .tracks(.trackSelected(.audio, index: 0)), snapshot: snapshot), "Audio: English")
        XCTAssertEqual(StandardFeatures.osdMessage(for: .tracks(.trackSelected(.audio, index: 1)), snapshot: snapshot), "Audio: Deutsch-mono")
        XCTAssertEqual(StandardFeatures.osdMessage(for: .tracks(.trackSelected(.subtitle, index: nil)), snapshot: snapshot), "Subtitles off")
        XCTAssertEqual(StandardFeatures.osdMessage(for: .tracks(.trackSelected(.subtitle, index: 3)), snapshot: snapshot), "Subtitles: track 3")
        let chapterEvent = { (chapter: Chapter) in PlayerEvent.feature(FeatureEvent(ChaptersEvent.chapterChanged(chapter))) }
        XCTAssertEqual(StandardFeatures.osdMessage(for: chapterEvent(chapters[1]), snapshot: snapshot), "Chapter 2/2: Middle")
        snapshot.features[ChaptersSnapshot.self] = ChaptersSnapshot(chapters: chapters, current: 0, arrivedWithList: true)
        XCTAssertNil(StandardFeatures.osdMessage(for: chapterEvent(chapters[0]), snapshot: snapshot), "the chapter playing as a load starts")
        // A seek back to the first chapter lands at 0:00 and is announced (it was not, and the
        // chapter shown before the seek stayed on screen).
        snapshot.features[ChaptersSnapshot.self] = ChaptersSnapshot(chapters: chapters, current: 0)
        snapshot.position = .zero
        XCTAssertEqual(StandardFeatures.osdMessage(for: chapterEvent(chapters[0]), snapshot: snapshot), "Chapter 1/2: Opening")
        XCTAssertNil(StandardFeatures.osdMessage(for: .rateChanged(2), snapshot: snapshot))
    }
}
