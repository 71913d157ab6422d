import Backend
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The id a request carried, echoed in its reply. Text commands have none (``absent``: their
/// replies carry no `request_id` key); JSON requests always get one back (`null` when missing or
/// unreadable). A plain value; any thread.
public enum RequestID: Equatable, Sendable {
    /// No id (a text command): the reply has no `request_id` key.
    case absent
    /// `"request_id": null` (missing or unreadable in the request).
    case null
    /// An integer id.
    case int(Int64)
    /// A number id that is not an integer.
    case double(Double)
    /// A text id.
    case string(String)
}

/// The result of a command, as the `data` of its reply. A plain value; any thread.
public enum ReplyData: Encodable, Equatable, Sendable {
    /// No data: `"data": null`.
    case none
    /// `mute`: whether the audio is muted now.
    case muted(Bool)
    /// `status`: the player's snapshot and the item's place.
    case status(WireStatus)
    /// `stats`: the player's statistics.
    case statistics(WireStatistics)
    /// `help`: the commands' syntax and the bound keys.
    case help(commands: [String], keys: [String])
    /// `variants`: an adaptive stream's variants.
    case variants(WireAdaptive.Reply)
    /// `snapshot`, `cover`: the file written and its size.
    case snapshot(WireSnapshot)
    /// `playlist`: the queue with its items' details.
    case playlist(WireEvents.Playlist)
    /// `tracks`: the streams and the selection.
    case tracks(WireTracks.Tracks)
    /// `seek`, `frame-step`: where it landed.
    case seek(WireSeek)
    /// `chapters`: the chapter list and the current one.
    case chapters(WireChapters.List)
    /// `chapter`: the chapter a seek landed in.
    case chapter(WireChapters.Landing)
    /// `renderers`: the renderers found and the one cast to.
    case renderers(WireCast.List)
    /// The A-B loop commands: the loop now in effect.
    case abLoop(WireABLoop)

    private struct Muted: Encodable { var muted: Bool }
    private struct Help: Encodable { var commands: [String]; var keys: [String] }

    /// Encodes the case's payload as the reply's `data` object (`null` for ``none``).
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .none:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .muted(let muted): try Muted(muted: muted).encode(to: encoder)
        case .status(let status): try status.encode(to: encoder)
        case .statistics(let statistics): try statistics.encode(to: encoder)
        case .help(let commands, let keys): try Help(commands: commands, keys: keys).encode(to: encoder)
        case .variants(let reply): try reply.encode(to: encoder)
        case .snapshot(let written): try written.encode(to: encoder)
        case .playlist(let playlist): try playlist.encode(to: encoder)
        case .tracks(let tracks): try tracks.encode(to: encoder)
        case .seek(let seek): try seek.encode(to: encoder)
        case .chapters(let list): try list.encode(to: encoder)
        case .chapter(let landing): try landing.encode(to: encoder)
        case .renderers(let list): try list.encode(to: encoder)
        case .abLoop(let loop): try loop.encode(to: encoder)
        }
    }
}

/// A reply line: `{"data": …, "error": "success" | reason, "request_id": …}` (no `request_id`
/// key for text commands). A plain value; any thread.
public struct Reply: Encodable, Equatable, Sendable {
    /// The request's `request_id`, echoed (``RequestID/absent``: no key).
    public var id: RequestID
    /// nil for success.
    public var error: String?
    /// The command's result.
    public var data: ReplyData = .none

    /// The reply to request `id`: `error` nil for success, with its `data`.
    public init(id: RequestID, error: String?, data: ReplyData = .none) {
        self.id = id
        self.error = error
        self.data = data
    }

    private enum Keys: String, CodingKey { case data, error, requestID }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(data, forKey: .data)
        try container.encode(error ?? "success", forKey: .error)
        switch id {
        case .absent: break
        case .null: try container.encodeNil(forKey: .requestID)
        case .int(let value): try container.encode(value, forKey: .requestID)
        case .double(let value): try container.encode(Finite(wrappedValue: value), forKey: .requestID)
        case .string(let value): try container.encode(value, forKey: .requestID)
        }
    }

    /// The reply as one JSON line.
    public var line: String { Wire.line(self) }
}

/// The `status` reply's data: the player's snapshot plus where we are in the playlist.
/// A plain value; any thread.
public struct WireStatus: Encodable, Equatable, Sendable {
    /// The player's state (`PlayerState`'s raw value: `idle`, `playing`, `paused`…).
    public var state: String
    /// The position, in seconds (null before it is known).
    public var position: Seconds
    /// The duration, in seconds (null when unknown or live).
    public var duration: Seconds
    /// The URI loaded (null: none).
    @Nullable public var uri: String?
    /// The current item's location as the user typed it (null: none).
    @Nullable public var location: String?
    /// The current item's 0-based place in the playlist (null: none).
    @Nullable public var index: Int?
    /// The number of items in the playlist.
    public var count: Int
    /// The playback rate (1 = normal).
    @Finite public var rate: Double
    /// The volume as a perceptual (cubic) percentage, 0–100 (mpv's scale).
    @Finite public var volume: Double
    /// Whether the audio is muted.
    public var muted: Bool
    /// The buffering level, 0–100 (100: not buffering).
    public var bufferingPercent: Int
    /// The video's size (null: no video, or not known yet).
    @Nullable public var mediaSize: WireSize?
    /// Whether the media is a live source.
    public var live: Bool
    /// Whether the media can seek.
    public var seekable: Bool
    /// The last error's message (null: none).
    @Nullable public var error: String?
    /// The chapter playing now (index, title, start, end), null when none or without chapters.
    @Nullable public var chapter: WireChapters.Current?
    /// The sync state (``WireSync/Status``), present only when the player leads or follows a sync group.
    public var sync: WireSync.Status?

    /// The status of `snapshot`, with the item's place in the playlist (0-based `index` of
    /// `count`) and its `location` as the user gave it.
    public init(snapshot: PlayerSnapshot, index: Int?, count: Int, location: String?) {
        state = snapshot.state.rawValue
        position = Seconds(snapshot.position)
        duration = Seconds(snapshot.duration)
        uri = snapshot.uri
        self.location = location
        self.index = index
        self.count = count
        rate = snapshot.rate
        volume = Wire.volumePercent(linear: snapshot.volume)
        muted = snapshot.muted
        bufferingPercent = snapshot.bufferingPercent
        mediaSize = snapshot.mediaSize.map(WireSize.init)
        live = snapshot.isLive
        seekable = snapshot.isSeekable
        error = snapshot.lastError?.message
        let chapters = snapshot.features[ChaptersSnapshot.self]
        chapter = chapters?.current.flatMap { index in chapters?.chapters.first { $0.index == index } }.map(WireChapters.Current.init)
        sync = snapshot.features[SyncSnapshot.self].map(WireSync.Status.init)
    }
}

/// The `seek` reply's data: where the seek landed, in seconds (the Backend's
/// `Player/seekAsync(to:mode:)`, the position its `seek-done` event carries). A plain value; any thread.
public struct WireSeek: Encodable, Equatable, Sendable {
    /// Where the seek landed.
    public var position: Seconds

    /// The landing at `position`.
    public init(position: Seconds) { self.position = position }
}
