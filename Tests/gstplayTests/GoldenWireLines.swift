import Backend
import Foundation
@testable import BackendControl
@testable import gstplay

/// The wire lines of ``GoldenSamples`` as the CLI writes them (Wire/).
enum GoldenWireLines {
    /// A `status` while the second of two chapters plays (the reply's `chapter`).
    static var chapterStatus: StatusReport {
        var snapshot = GoldenSamples.fullSnapshot
        snapshot.features[ChaptersSnapshot.self] = ChaptersSnapshot(chapters: [
            Chapter(index: 0, uid: "1", title: "Opening", start: .zero, end: MediaTime(seconds: 2)),
            Chapter(index: 1, uid: "2", title: "Middle, part one", start: MediaTime(seconds: 2), end: MediaTime(seconds: 3)),
        ], current: 1)
        return StatusReport(snapshot: snapshot, index: 0, count: 2, location: "Fixtures/chapters.mkv")
    }

    static func all() -> [(name: String, line: String)] {
        var lines: [(String, String)] = [("hello", WireEvents.hello(version: "0.1.0", gstreamer: "1.22.0"))]
        for sample in GoldenSamples.events {
            lines.append((sample.name, WireEvents.line(for: sample.event, item: sample.item)))
        }
        lines.append(("message", WireEvents.message("Buffering 40%")))
        let status = StatusReport(snapshot: GoldenSamples.fullSnapshot, index: 0, count: 2, location: "Fixtures/vp8-opus-4s.webm")
        let emptyStatus = StatusReport(snapshot: PlayerSnapshot(), index: nil, count: 0, location: nil)
        let help = ReplyData.help(commands: ConsoleCommand.usage.map(\.syntax), keys: InputBindings.builtin.keyNames)
        lines += [
            ("reply-success", Reply(id: .int(7), error: nil).line),
            ("reply-error-null-id", Reply(id: .null, error: "invalid JSON: bad").line),
            ("reply-string-id", Reply(id: .string("p/1 \u{2028}"), error: nil).line),
            ("reply-double-id", Reply(id: .double(2.5), error: nil).line),
            ("reply-negative-id", Reply(id: .int(-3), error: nil).line),
            ("reply-text-command", Reply(id: .absent, error: nil).line),
            ("reply-text-error", Reply(id: .absent, error: GoldenSamples.awkward).line),
            ("reply-mute", Reply(id: .int(1), error: nil, data: .muted(true)).line),
            ("reply-status", Reply(id: .int(2), error: nil, data: .status(status.wire)).line),
            ("reply-status-idle", Reply(id: .absent, error: nil, data: .status(emptyStatus.wire)).line),
            ("reply-status-chapter", Reply(id: .int(2), error: nil, data: .status(GoldenWireLines.chapterStatus.wire)).line),
            ("reply-stats", Reply(id: .int(3), error: nil, data: .statistics(StatisticsReport(statistics: GoldenSamples.fullStatistics).wire)).line),
            ("reply-stats-empty", Reply(id: .int(4), error: nil, data: .statistics(StatisticsReport(statistics: PlayerStatistics()).wire)).line),
            ("reply-help", Reply(id: .int(5), error: nil, data: help).line),
            ("reply-playlist", Reply(id: .int(8), error: nil, data: .playlist(WireEvents.Playlist(GoldenSamples.queue))).line),
            ("reply-snapshot", Reply(id: .int(6), error: nil, data: .snapshot(SnapshotFile.Written(path: "gstplay-clip-00-01-02.500.png", width: 1024, height: 576))).line),
            // A seek's reply carries where it landed; media events carry their load's ID.
            ("reply-seek", Reply(id: .int(9), error: nil, data: .seek(WireSeek(position: Seconds(MediaTime(seconds: 2.5))))).line),
            ("uri-load-id", WireEvents.line(for: .uriLoaded("file:///a/b.webm"), item: (1, 2), loadID: LoadID(rawValue: 3))),
            ("eos-load-id", WireEvents.line(for: .endOfStream(position: MediaTime(seconds: 4)), loadID: LoadID(rawValue: 3))),
            ("state-load-id", WireEvents.line(for: .stateChanged(from: .ready, to: .playing), loadID: LoadID(rawValue: 3))),
            // The media's tags and picture (never its bytes).
            ("tags", WireEvents.line(for: .feature(FeatureEvent(TagsEvent.tagsChanged(GoldenSamples.tags, coverArt: GoldenSamples.cover))),
                                     loadID: LoadID(rawValue: 3))),
            ("tags-no-cover", WireEvents.line(for: .feature(FeatureEvent(TagsEvent.tagsChanged(MediaTags(title: "Only a title"), coverArt: nil))),
                                              loadID: LoadID(rawValue: 4))),
        ]
        // Chapters (events and replies).
        let chapters = [Chapter(index: 0, uid: "opening", title: "Opening", start: .zero, end: MediaTime(seconds: 2)),
                        Chapter(index: 1, uid: "7", title: nil, start: MediaTime(seconds: 2), end: nil, language: "fra", depth: 1, edition: 1)]
        lines += [
            ("chapters", WireEvents.line(for: .feature(FeatureEvent(ChaptersEvent.chaptersChanged(chapters))))),
            ("chapters-none", WireEvents.line(for: .feature(FeatureEvent(ChaptersEvent.chaptersChanged([]))))),
            ("chapter", WireEvents.line(for: .feature(FeatureEvent(ChaptersEvent.chapterChanged(chapters[0]))))),
            ("chapter-none", WireEvents.line(for: .feature(FeatureEvent(ChaptersEvent.chapterChanged(nil))))),
            ("reply-chapters", Reply(id: .int(10), error: nil, data: .chapters(WireChapters.List(chapters, current: 1))).line),
            ("reply-chapter", Reply(id: .int(11), error: nil, data: .chapter(WireChapters.Landing(ChapterLanding(chapter: chapters[1], position: MediaTime(seconds: 2.001))))).line),
        ]
        lines += GoldenSamples.queueChangeLines
        lines += GoldenWireLines.castLines
        return lines
    }
}
