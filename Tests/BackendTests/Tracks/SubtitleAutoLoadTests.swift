import Backend
import Foundation
import TestSupport
import XCTest

/// Subtitle files found by name next to a local media file (mpv's `--sub-auto`): which names
/// ``SubtitleFinder`` takes, and a real player loading the best one as the external track.
final class SubtitleAutoLoadTests: XCTestCase {
    private var directory = ""

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "gstplay-subauto-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: directory)
    }

    private func touch(_ names: [String]) {
        for name in names { FileManager.default.createFile(atPath: directory + "/" + name, contents: Data("x".utf8)) }
    }

    func testExactTakesTheStemAndLanguageTagsFuzzyAnyNameContainingIt() {
        touch(["movie.mkv", "movie.srt", "movie.en.srt", "movie.pt-BR.forced.ass", "movie.VTT", "Movie-commentary.srt",
               "movie.en.txt", "other.srt", "movie.mkv.srt", "movie..srt"])
        let media = directory + "/movie.mkv"
        XCTAssertEqual(SubtitleFinder.files(forMedia: media, mode: .exact).map { ($0 as NSString).lastPathComponent },
                       ["movie.VTT", "movie.srt", "movie.en.srt", "movie.mkv.srt", "movie.pt-BR.forced.ass"],
                       "uppercase sorts first; `movie.mkv.srt` counts as tagged, as mpv loads it too")
        XCTAssertEqual(SubtitleFinder.files(forMedia: media, mode: .fuzzy).map { ($0 as NSString).lastPathComponent },
                       ["movie.VTT", "movie.srt", "movie.en.srt", "movie.mkv.srt", "movie.pt-BR.forced.ass", "Movie-commentary.srt", "movie..srt"])
        XCTAssertEqual(SubtitleFinder.files(forMedia: media, mode: .no), [])
        XCTAssertEqual(SubtitleFinder.files(forURI: "http://host/movie.mkv", mode: .exact), [], "only local files")
        let uri = "file://" + (directory as NSString).addingPercentEncoding(withAllowedCharacters: .urlPathAllowed)! + "/movie.mkv"
        XCTAssertEqual(SubtitleFinder.files(forURI: uri, mode: .exact).count, 5)
    }

    /// `tracks.mkv` copied as `movie.mkv` with `tracks-external.srt` as `movie.en.srt` beside it.
    private func movieWithSubtitles() throws -> String {
        let movie = directory + "/movie.mkv"
        try FileManager.default.copyItem(atPath: TestMedia.tracks, toPath: movie)
        try FileManager.default.copyItem(atPath: TestMedia.externalSubtitles, toPath: directory + "/movie.en.srt")
        return movie
    }

    func testAFileNamedLikeTheMediaIsItsExternalTrackAndItsCuesArrive() throws {
        let movie = try movieWithSubtitles()
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder, standard: { $0.subtitleAutoLoad = .exact })
        defer { player.shutdown() }
        player.load(movie)
        recorder.waitFor("EOS") { $0.contains(where: \.isEndOfStream) }
        XCTAssertEqual(recorder.events.compactMap(\.cue).map(\.text), ["External one", "External two", "External three"])
        guard let (tracks, selection) = recorder.events.compactMap(\.tracksChanged).last else { return XCTFail("no tracks") }
        let external = tracks.filter(\.isExternal)
        XCTAssertEqual(external.count, 1)
        XCTAssertEqual(selection.subtitle, external.first?.index, "selected, as a --sub-file is")
    }

    func testWithoutAutoLoadTheFileIsLeftAlone() throws {
        let movie = try movieWithSubtitles()
        let recorder = EventRecorder()
        let player = Player.forTesting(recorder)   // the library's default: .no
        defer { player.shutdown() }
        player.load(movie)
        recorder.waitFor("EOS") { $0.contains(where: \.isEndOfStream) }
        XCTAssertEqual(recorder.events.compactMap(\.cue).map(\.text), ["Hello", "Goodbye"], "the embedded track only")
        XCTAssertEqual(player.tracks.filter(\.isExternal).count, 0)
    }
}
