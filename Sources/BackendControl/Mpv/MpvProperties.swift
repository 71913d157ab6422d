import Backend
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What the mpv properties are read from: the player's snapshot (the queue's and the tracks'
/// sections included) plus what only events tell (``MpvTracker``): the media's tags, whether the
/// end was reached. Made by the CLI actor per evaluation. A plain value; any thread.
public struct MpvView: Sendable {
    /// The player's snapshot (its features' sections included).
    public var snapshot: PlayerSnapshot
    /// The global tags of the current media (`media-info`), nil before preroll.
    public var tags: MediaTags?
    /// The current item reached its end.
    public var eofReached: Bool
    /// URI → the location as the user typed it.
    public var names: [String: String]

    /// A view of `snapshot` with what events told (`tags`, `eofReached`) and the typed `names`.
    public init(snapshot: PlayerSnapshot, tags: MediaTags?, eofReached: Bool, names: [String: String]) {
        self.snapshot = snapshot
        self.tags = tags
        self.eofReached = eofReached
        self.names = names
    }

    package var queue: QueueSnapshot { snapshot.features[QueueSnapshot.self] ?? QueueSnapshot() }
    package var tracks: TracksSnapshot { snapshot.features[TracksSnapshot.self] ?? TracksSnapshot() }
    package var chapters: ChaptersSnapshot { snapshot.features[ChaptersSnapshot.self] ?? ChaptersSnapshot() }
    /// Paused by the user (mpv's `pause` is the intent, not the momentary state): the player's.
    public var paused: Bool { snapshot.pauseRequested }
    package var loaded: Bool { snapshot.uri != nil && ![.idle, .stopping].contains(snapshot.state) }
}

/// mpv's properties over the player (docs/PROTOCOL.md has the table): reading them from an
/// ``MpvView``, and which may be set (the setting is the dispatcher's, PlayerControl+Mpv.swift).
/// Pure; any thread.
public enum MpvProperties {
    /// Every property answered, as `property-list` gives them.
    public static let names = ["pause", "time-pos", "playback-time", "time-remaining", "duration", "percent-pos", "volume", "mute",
                        "speed", "filename", "path", "media-title", "playlist", "playlist-pos", "playlist-count",
                        "eof-reached", "idle-active", "core-idle", "seekable", "track-list", "aid", "sid", "vid",
                        "chapter", "chapters", "chapter-list", "metadata", "width", "height", "loop-file", "loop-playlist",
                        "ab-loop-a", "ab-loop-b", "ab-loop-count", "mpv-version", "property-list", "command-list"]

    /// A property the player itself names (``PlayerProperty``: the one reading of its state every
    /// door shares) in mpv's encoding; `none` (no value) becomes `absent`, or mpv's `property unavailable`.
    private static func library(_ property: PlayerProperty, _ view: MpvView, none absent: MpvValue? = nil) -> Result<MpvValue, MpvFailure> {
        switch property.read(view.snapshot) {
        case .none: return absent.map { .success($0) } ?? .failure(.unavailable)
        case .flag(let value): return .success(.bool(value))
        case .integer(let value): return .success(.int(Int64(value)))
        case .number(let value): return .success(.double(value))
        case .text(let value): return .success(.string(value))
        }
    }

    /// The value of `name`, or mpv's error (`property not found`, `property unavailable`).
    public static func value(of name: String, in view: MpvView) -> Result<MpvValue, MpvFailure> {
        let snapshot = view.snapshot
        func seconds(_ time: MediaTime?) -> Result<MpvValue, MpvFailure> {
            guard view.loaded, let time else { return .failure(.unavailable) }
            return .success(.double(Double(time.milliseconds) / 1000))
        }
        switch name {
        case "pause": return library(.pause, view)
        case "time-pos", "playback-time": return seconds(snapshot.position)
        case "duration": return seconds(snapshot.duration)
        case "time-remaining":
            guard let position = snapshot.position, let duration = snapshot.duration else { return .failure(.unavailable) }
            return seconds(.milliseconds(max(duration.milliseconds - position.milliseconds, 0)))
        case "percent-pos":
            guard view.loaded, let position = snapshot.position, let duration = snapshot.duration, duration.milliseconds > 0 else {
                return .failure(.unavailable)
            }
            return .success(.double(min(Double(position.milliseconds) / Double(duration.milliseconds) * 100, 100)))
        case "volume": return library(.volume, view)
        case "mute": return library(.mute, view)
        case "speed": return library(.speed, view)
        case "path":
            guard view.loaded, let uri = snapshot.uri else { return .failure(.unavailable) }
            return .success(.string(view.names[uri] ?? uri))
        case "filename":
            guard view.loaded, let uri = snapshot.uri else { return .failure(.unavailable) }
            return .success(.string(fileName(view.names[uri] ?? uri)))
        case "media-title":
            guard view.loaded, let uri = snapshot.uri else { return .failure(.unavailable) }
            return .success(.string(view.tags?.title ?? fileName(view.names[uri] ?? uri)))
        case "playlist": return .success(playlist(view))
        case "playlist-pos": return library(.playlistPos, view)
        case "playlist-count": return library(.playlistCount, view)
        case "eof-reached": return view.loaded ? .success(.bool(view.eofReached)) : .failure(.unavailable)
        case "idle-active": return .success(.bool(!view.loaded))
        case "core-idle": return .success(.bool(!view.loaded || view.paused || snapshot.state != .playing))
        case "seekable": return view.loaded ? library(.seekable, view) : .failure(.unavailable)
        case "track-list": return .success(.array(view.tracks.tracks.map { track($0, selection: view.tracks.selection) }))
        case "aid": return .success(trackID(view.tracks.selection.audio))
        case "sid": return .success(trackID(view.tracks.selection.subtitle))
        case "vid": return .success(trackID(view.tracks.selection.video))
        case "chapter":                                   // 0-based; -1 before the first chapter (mpv's)
            guard view.loaded, !view.chapters.chapters.isEmpty else { return .failure(.unavailable) }
            return .success(.int(Int64(view.chapters.current ?? -1)))
        case "chapters": return view.loaded ? .success(.int(Int64(view.chapters.chapters.count))) : .failure(.unavailable)
        case "chapter-list":
            return .success(.array(view.chapters.chapters.map { chapter in
                var entry: [String: MpvValue] = ["time": .double(Double(chapter.start.milliseconds) / 1000)]
                if let title = chapter.title { entry["title"] = .string(title) }
                return .object(entry)
            }))
        case "metadata":
            guard view.loaded else { return .failure(.unavailable) }
            return .success(.object(metadata(view.tags)))
        case "width": return library(.width, view)
        case "height": return library(.height, view)
        case "loop-file": return .success(view.queue.loop == .one ? .string("inf") : .bool(false))
        case "loop-playlist": return .success(view.queue.loop == .all ? .string("inf") : .bool(false))
        case "ab-loop-a": return library(.abLoopA, view, none: .string("no"))    // seconds, or "no" when unset (mpv's)
        case "ab-loop-b": return library(.abLoopB, view, none: .string("no"))
        case "ab-loop-count": return library(.abLoopCount, view, none: .string("inf"))
        case "mpv-version": return .success(.string("gstplay \(GstplayVersion.current) (mpv IPC subset)"))
        case "property-list": return .success(.array(names.map(MpvValue.string)))
        case "command-list":
            return .success(.array(MpvRequest.names.map { .object(["name": .string($0), "args": .array([]), "vararg": .bool(false)]) }))
        default: return .failure(.notFound)
        }
    }

    /// The last path component of a path or URI (`clip.mp4` for `file:///media/clip.mp4`),
    /// percent-decoded for URIs.
    public static func fileName(_ location: String) -> String {
        let trimmed = location.hasSuffix("/") ? String(location.dropLast()) : location
        let last = trimmed.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? trimmed
        guard location.contains("://") else { return last }
        return PathText.removingPercentEncoding(last) ?? last
    }

    /// mpv's `playlist`: `filename`, `id`, `title` when known, `current`/`playing` on the current entry.
    private static func playlist(_ view: MpvView) -> MpvValue {
        let queue = view.queue
        return .array(queue.items.enumerated().map { index, item in
            var entry: [String: MpvValue] = ["filename": .string(view.names[item.uri] ?? item.uri)]
            if let id = item.id { entry["id"] = .int(Int64(id)) }
            if let title = item.title { entry["title"] = .string(title) }
            if index == queue.currentIndex { entry["current"] = .bool(true); entry["playing"] = .bool(true) }
            return .object(entry)
        })
    }

    /// mpv numbers tracks from 1 within each type; gstplay from 0. `false` for none.
    private static func trackID(_ index: Int?) -> MpvValue {
        index.map { .int(Int64($0 + 1)) } ?? .bool(false)
    }

    /// One `track-list` entry with mpv's keys.
    private static func track(_ track: MediaTrack, selection: TrackSelection) -> MpvValue {
        var entry: [String: MpvValue] = [
            "id": .int(Int64(track.index + 1)),
            "type": .string(track.kind == .subtitle ? "sub" : track.kind.rawValue),
            "src-id": .int(Int64(track.index)),
            "selected": .bool(selection[track.kind] == track.index),
            "default": .bool(track.isDefault),
            "forced": .bool(track.isForced ?? false),
            "external": .bool(track.isExternal),
        ]
        if let codec = track.codec { entry["codec"] = .string(codec) }
        if let language = track.languageCode { entry["lang"] = .string(language) }
        if let title = track.title { entry["title"] = .string(title) }
        if let video = track.video {
            entry["demux-w"] = .int(Int64(video.width))
            entry["demux-h"] = .int(Int64(video.height))
            if let fps = video.framesPerSecond { entry["demux-fps"] = .double(fps) }
        }
        if let audio = track.audio {
            entry["demux-channel-count"] = .int(Int64(audio.channels))
            entry["demux-samplerate"] = .int(Int64(audio.sampleRate))
        }
        return .object(entry)
    }

    /// The tags mpv's `metadata` gives, under lowercase names.
    private static func metadata(_ tags: MediaTags?) -> [String: MpvValue] {
        guard let tags else { return [:] }
        let pairs: [(String, String?)] = [("title", tags.title), ("artist", tags.artist), ("album", tags.album),
                                          ("comment", tags.comment), ("language", tags.language), ("container", tags.container)]
        return Dictionary(uniqueKeysWithValues: pairs.compactMap { key, value in value.map { (key, MpvValue.string($0)) } })
    }
}
