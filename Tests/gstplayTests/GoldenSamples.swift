import Backend
@testable import BackendQueue
import Foundation
@testable import gstplay

/// One value of each JSON event and reply the CLI writes, and the line each becomes on the wire.
/// `Golden/values.jsonl` holds the lines as the protocol fixes them (see docs/PROTOCOL.md); a
/// line is `<name> <json>`.
enum GoldenSamples {
    static let size = VideoSize(codedWidth: 720, height: 576, parNumerator: 64, parDenominator: 45)

    /// Text with every character class the string escaping treats specially.
    static let awkward = "d\n\"x\"\t\r\u{1}\u{8}\u{C}\u{1F}\u{7F} \u{2028}\u{2029} é / \\ 🎬"

    static var fullError: PlayerError {
        PlayerError(kind: .resource, code: 3, element: "source", message: "Resource not found.", debug: awkward,
                    missingPlugins: ["AC-3", "H.265"], uri: "file:///x%20y/z.mp4", httpStatus: 404)
    }

    static var fullStatistics: PlayerStatistics {
        var s = PlayerStatistics()
        s.renderedFrames = 120
        s.droppedFrames = 3
        s.bitrate = 128_000
        s.averageBitrate = 130_500
        s.bufferingPercent = 40
        s.position = .milliseconds(2_205)
        s.duration = .milliseconds(4_021)
        s.rate = 1.5
        s.seekCount = 2
        s.instantRateChanges = 1
        s.lastSeekLatencyMilliseconds = 12.3456
        s.bufferingTimeMilliseconds = 250.0004
        s.videoSize = size
        s.videoCodec = "VP8"
        s.audioCodec = "Opus"
        s.networkRetries = 1
        s.cache = CacheStatus(state: .discarded, reason: "incomplete download: 10 of 20 bytes")
        s.clockLostRecoveries = 2
        s.rejectedStateTransitions = 5
        return s
    }

    static var fullSnapshot: PlayerSnapshot {
        var s = PlayerSnapshot()
        s.state = .playing
        s.uri = "file:///work/Fixtures/vp8-opus-4s.webm"
        s.position = .milliseconds(2_705)
        s.duration = .milliseconds(4_000)
        s.mediaSize = VideoSize(codedWidth: 320, height: 240, parNumerator: 1, parDenominator: 1)
        s.rate = 1.5
        s.volume = 0.125
        s.muted = true
        s.isSeekable = true
        s.bufferingPercent = 100
        s.lastError = PlayerError(kind: .stream, message: "decode failed")
        return s
    }

    /// Every tag.
    static var tags: MediaTags {
        MediaTags(title: "Test Tone", artist: "gstplay Fixtures", album: "Fixture Album", trackNumber: 3, trackCount: 12, date: "2024-05-01",
                  genre: "Test", comment: awkward, language: "en", container: "ID3 tag")
    }

    /// A PNG front cover of 3032 bytes (zeros: the wire carries only its size).
    static var cover: CoverArt { CoverArt(bytes: Data(count: 3032), mimeType: "image/png", imageType: "front-cover") }

    /// A queue of two items, the second current.
    static var queue: QueueSnapshot {
        var items = [QueueItem(uri: "file:///a/one.ogg", title: awkward), QueueItem(uri: "http://host/two.ogg")]
        items[0].id = 3
        items[1].id = 4
        return QueueSnapshot(items: items, currentIndex: 1, loop: .all, shuffled: true, gapless: true)
    }

    /// The events, each with the playlist item its `uri` event names.
    static var events: [(name: String, event: PlayerEvent, item: (index: Int, count: Int)?)] {
        var info = MediaInfo(uri: "file:///a/b.webm", isLive: false, isSeekable: true, duration: .milliseconds(4_000),
                             hasVideo: true, hasAudio: false, subtitleStreams: 1)
        info.tags = MediaTags(title: "Song", artist: "Band", container: "Matroska")
        let live = MediaInfo(uri: "http://host/live", isLive: true, isSeekable: false, duration: nil,
                             hasVideo: false, hasAudio: true, subtitleStreams: 0)
        return [
            ("initialized", .initialized, nil),
            ("sinks", .sinksChosen(video: "fakevideosink", audio: "fakeaudiosink", reason: "no display"), nil),
            ("uri", .uriLoaded("file:///a%20b.mp4"), (1, 3)),
            ("uri-no-item", .uriLoaded("file:///a.mp4"), nil),
            ("state", .stateChanged(from: .opening, to: .ready), nil),
            ("position", .position(.milliseconds(1_250), duration: .milliseconds(10_021)), nil),
            ("position-unknown-duration", .position(.zero, duration: nil), nil),
            ("duration", .durationChanged(.milliseconds(4_000)), nil),
            ("duration-unknown", .durationChanged(nil), nil),
            ("media-size", .mediaSize(size), nil),
            ("media-size-none", .mediaSize(nil), nil),
            ("media-info", .mediaInfo(info), nil),
            ("media-info-live", .mediaInfo(live), nil),
            ("buffering", .buffering(percent: 40), nil),
            ("waiting", .waitingForLiveSource(timeout: .seconds(15)), nil),
            ("seek-done", .seekDone(.milliseconds(2_000)), nil),
            ("eos", .endOfStream(position: .milliseconds(4_005)), nil),
            ("warning", .warning(PlayerError(kind: .other, message: "w")), nil),
            ("error", .error(fullError), nil),
            ("error-cause", .error(PlayerError(kind: .network, element: "source", message: "the connection was refused (nothing listens at 127.0.0.1:1)",
                                               uri: "http://127.0.0.1:1/x.mp4", cause: .connectionRefused)), nil),
            ("volume", .volumeChanged(volume: 0.125, muted: false), nil),
            ("volume-muted", .volumeChanged(volume: 1, muted: true), nil),
            ("volume-odd", .volumeChanged(volume: 0.3, muted: false), nil),
            ("rate", .rateChanged(1.5), nil),
            ("rate-reverse", .rateChanged(-1), nil),
            ("statistics-empty", .statistics(PlayerStatistics()), nil),
            ("statistics", .statistics(fullStatistics), nil),
            ("window-key", .feature(FeatureEvent(WindowEvent.key("space"))), nil),
            ("fullscreen", .feature(FeatureEvent(WindowEvent.fullscreenChanged(true))), nil),
            ("window-click", .feature(FeatureEvent(WindowEvent.clicked(button: 1, count: 2))), nil),
            ("window-scroll", .feature(FeatureEvent(WindowEvent.scrolled(deltaX: 0, deltaY: 1))), nil),
            ("window-closed", .feature(FeatureEvent(WindowEvent.closed)), nil),
            ("playlist", .feature(FeatureEvent(QueueEvent.queueChanged(queue))), nil),
            ("playlist-empty", .feature(FeatureEvent(QueueEvent.queueChanged(QueueSnapshot()))), nil),
            ("item", .feature(FeatureEvent(QueueEvent.itemChanged(index: 1, id: 4, reason: .ended))), nil),
            ("tracks", .feature(FeatureEvent(TracksEvent.tracksChanged(tracks, selection: TrackSelection(video: 0, audio: 1, subtitle: nil)))), nil),
            ("track-selected", .feature(FeatureEvent(TracksEvent.trackSelected(.audio, index: 1))), nil),
            ("track-selected-off", .feature(FeatureEvent(TracksEvent.trackSelected(.subtitle, index: nil))), nil),
            ("subtitle", .feature(FeatureEvent(TracksEvent.subtitleCue(SubtitleCue(text: "Two\nlines", start: .milliseconds(500), end: .milliseconds(1_500))))), nil),
            ("subtitle-open-end", .feature(FeatureEvent(TracksEvent.subtitleCue(SubtitleCue(text: "Hello", start: .milliseconds(2_000), end: nil)))), nil),
            ("cache", .feature(FeatureEvent(CacheEvent.status(CacheStatus(state: .stored, path: "/c/gstplay/media/0a1b")))), nil),
            ("cache-discarded", .feature(FeatureEvent(CacheEvent.status(CacheStatus(state: .discarded, reason: "disjoint download")))), nil),
            ("mpris", .feature(FeatureEvent(MPRISEvent.exported(busName: "org.mpris.MediaPlayer2.gstplay.instance42"))), nil),
            ("mpris-unavailable", .feature(FeatureEvent(MPRISEvent.unavailable(reason: "no session bus"))), nil),
            ("mpris-quit", .feature(FeatureEvent(MPRISEvent.quitRequested)), nil),
        ]
    }

    /// A video, an audio and an external subtitle track.
    static var tracks: [MediaTrack] {
        [MediaTrack(index: 0, kind: .video, codec: "On2 VP8", isDefault: true,
                    video: VideoTrackDetails(width: 160, height: 120, frameRateNumerator: 30, frameRateDenominator: 1,
                                             pixelAspectNumerator: 1, pixelAspectDenominator: 1)),
         MediaTrack(index: 1, kind: .audio, codec: "Vorbis", languageCode: "de", languageName: "German", title: "Deutsch-mono",
                    audio: AudioTrackDetails(channels: 1, sampleRate: 48_000, bitrate: 60_000)),
         MediaTrack(index: 0, kind: .subtitle, codec: "SubRip", isExternal: true)]
    }
}
