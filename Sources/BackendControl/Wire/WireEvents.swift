import Backend
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An event line: `{"event": "<name>", …fields}`. The fields come from `payload` (one of the
/// structs below), written into the same object, with `load_id` (the Backend's `LoadID`) when
/// the event belongs to the media of one load. A plain value; any thread.
public struct WireEvent<Payload: Encodable & Sendable>: Encodable, Sendable {
    package var event: String
    package var payload: Payload
    /// The load the event belongs to; no `load_id` key when nil.
    public var loadID: LoadID? = nil

    private enum Keys: String, CodingKey { case event, loadID }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(event, forKey: .event)
        try container.encodeIfPresent(loadID, forKey: .loadID)
        try payload.encode(to: encoder)
    }
}

/// An event without fields (`initialized`).
public struct NoFields: Encodable, Sendable {
    /// The empty payload.
    public init() {}
}

/// Every event the CLI writes, one case per event name in docs/PROTOCOL.md. Pure; any thread.
public enum WireEvents {
    package struct Hello: Encodable, Sendable { var `protocol`: Int; var version: String; var gstreamer: String }
    package struct Sinks: Encodable, Sendable { var video: String; var audio: String; var reason: String }
    package struct URI: Encodable, Sendable { var uri: String; @Nullable var index: Int?; @Nullable var count: Int? }
    package struct State: Encodable, Sendable { var from: String; var to: String }
    package struct Position: Encodable, Sendable { var position: Seconds; var duration: Seconds }
    package struct Duration: Encodable, Sendable { var duration: Seconds }
    package struct MediaSize: Encodable, Sendable { @Nullable var width: Int?; @Nullable var height: Int? }
    package struct MediaInfo: Encodable, Sendable {
        package var uri: String
        package var live: Bool
        package var seekable: Bool
        package var duration: Seconds
        package var hasVideo: Bool
        package var hasAudio: Bool
        package var subtitleStreams: Int
        package var tags: WireTags.Tags
    }
    package struct Buffering: Encodable, Sendable { var percent: Int }
    /// `waiting`: a live source sent nothing yet; `timeout` is when it gives up (seconds).
    public struct Waiting: Encodable, Sendable { var source: String; var timeout: Seconds }
    package struct At: Encodable, Sendable { var position: Seconds }
    package struct Volume: Encodable, Sendable { @Finite var volume: Double; @Finite var linear: Double; var muted: Bool }
    package struct Rate: Encodable, Sendable { @Finite var rate: Double }
    package struct Message: Encodable, Sendable { var text: String }
    /// The media cache's verdict (`hit`, `miss`, `storing`, `stored`, `discarded`) with the
    /// file's path and, when discarded, the reason.
    public struct Cache: Encodable, Sendable {
        package var state: String
        @Nullable package var path: String?
        package var reason: String?
        package init(_ status: CacheStatus) { state = status.state.rawValue; path = status.path; reason = status.reason }
    }
    // Queue: `playlist` and `item` events.
    /// One item of the `playlist` event and reply: its URI, title and queue id.
    public struct PlaylistEntry: Encodable, Equatable, Sendable {
        /// The item's URI.
        public var uri: String
        /// Its title (the playlist file's, or the media's tag once known; null: none).
        @Nullable public var title: String?
        /// Its queue id (null: none).
        @Nullable public var id: Int?
        /// The item's media info (absent when unknown, and always in the `playlist` event): see WireQueue.swift.
        public var details: PlaylistDetails? = nil
        /// The entry's keys, with `details` flattened into them (WireQueue.swift).
        public func encode(to encoder: any Encoder) throws { try encodeEntry(to: encoder) }
    }
    /// The `playlist` event and reply: the items, the current one, loop, shuffle and gapless.
    public struct Playlist: Encodable, Equatable, Sendable {
        /// The current item's index (null: none).
        @Nullable public var current: Int?
        /// The loop mode: `none`, `one` or `all`.
        public var loop: String
        /// Whether shuffle is on.
        public var shuffle: Bool
        /// Whether gapless hand-over is on.
        public var gapless: Bool
        /// The items, in queue order.
        public var items: [PlaylistEntry]
        /// The `playlist` reply only (absent while no duration is known).
        public var totalDuration: Seconds? = nil
        /// The `playlist` reply only: how many items' durations are known.
        public var knownDurations: Int? = nil
    }
    package struct Item: Encodable, Sendable { var index: Int; var itemId: Int; var reason: String }

    /// The protocol version, sent in `hello`; bumped on incompatible changes.
    public static let protocolVersion = 1

    /// The first line: `{"event":"hello","gstreamer":"…","protocol":1,"version":"…"}`.
    public static func hello(version: String = GstplayVersion.current, gstreamer: String = GstplayVersion.gstreamer) -> String {
        Wire.line(WireEvent(event: "hello", payload: Hello(protocol: protocolVersion, version: version, gstreamer: gstreamer)))
    }

    /// A feature event without a line of its own: its payload's type.
    public struct FeatureName: Encodable, Sendable { var type: String }

    /// The `message` event: a short status text (e.g. "Buffering 40%"), made from
    /// buffering events (``WireEventLines``).
    public static func message(_ text: String) -> String {
        Wire.line(WireEvent(event: "message", payload: Message(text: text)))
    }

    /// The line for one Backend event. `item` is the playlist position (0-based) and size,
    /// used by the `uri` event. `loadID` is the load the event belongs to: the events about that
    /// load's media (`uri`, `duration`, `position`, `media-size`, `media-info`, `seek-done`,
    /// `eos`, `warning`, `error`) carry it as `load_id`, so a script can tell the items apart.
    public static func line(for event: PlayerEvent, item: (index: Int, count: Int)? = nil, loadID: LoadID? = nil) -> String {
        func line(_ name: String, _ payload: some Encodable & Sendable) -> String { Wire.line(WireEvent(event: name, payload: payload)) }
        func mediaLine(_ name: String, _ payload: some Encodable & Sendable) -> String {
            Wire.line(WireEvent(event: name, payload: payload, loadID: loadID))
        }
        if let adaptive = event.adaptive { return WireAdaptive.line(for: adaptive) }
        switch event {
        case .feature(let feature) where feature.payload is WindowEvent:
            return feature.payload(as: WindowEvent.self).map(WireWindow.line(for:)) ?? ""
        case .feature(let feature) where feature.payload is TracksEvent:
            return WireTracks.line(for: event) ?? ""
        case .feature(let feature) where feature.payload is ChaptersEvent:
            return feature.payload(as: ChaptersEvent.self).map(WireChapters.line(for:)) ?? ""
        case .feature(let feature) where feature.payload is CastEvent:
            return feature.payload(as: CastEvent.self).map(WireCast.line(for:)) ?? ""
        case .feature(let feature) where feature.payload is SyncEvent:
            return feature.payload(as: SyncEvent.self).map(WireSync.line(for:)) ?? ""
        case .feature(let feature) where feature.payload is TagsEvent:
            return feature.payload(as: TagsEvent.self).map { WireTags.line(for: $0, loadID: loadID) } ?? ""
        case .feature(let feature):
            if let queue = feature.payload(as: QueueEvent.self) { return Self.line(for: queue) }
            if let mpris = feature.payload(as: MPRISEvent.self) { return WireMPRIS.line(for: mpris) }
            if case .status(let status)? = feature.payload(as: CacheEvent.self) { return line("cache", Cache(status)) }
            return line("feature", FeatureName(type: String(describing: type(of: feature.payload))))
        case .initialized:
            return line("initialized", NoFields())
        case .sinksChosen(let video, let audio, let reason):
            return line("sinks", Sinks(video: video, audio: audio, reason: reason))
        case .uriLoaded(let uri):
            return mediaLine("uri", URI(uri: uri, index: item?.index, count: item?.count))
        case .stateChanged(let from, let to):
            return line("state", State(from: from.rawValue, to: to.rawValue))
        case .position(let position, let duration):
            return mediaLine("position", Position(position: Seconds(position), duration: Seconds(duration)))
        case .durationChanged(let duration):
            return mediaLine("duration", Duration(duration: Seconds(duration)))
        case .mediaSize(let size):
            return mediaLine("media-size", MediaSize(width: size?.width, height: size?.height))
        case .buffering(let percent):
            return line("buffering", Buffering(percent: percent))
        case .waitingForLiveSource(let timeout):
            return line("waiting", Waiting(source: "live", timeout: Seconds(MediaTime(seconds: Double(timeout.components.seconds)
                                                                   + Double(timeout.components.attoseconds) / 1e18))))
        case .seekDone(let position):
            return mediaLine("seek-done", At(position: Seconds(position)))
        case .endOfStream(let position):
            return mediaLine("eos", At(position: Seconds(position)))
        case .warning(let warning):
            return mediaLine("warning", WireError(warning))
        case .error(let error):
            return mediaLine("error", WireError(error))
        case .volumeChanged(let volume, let muted):
            return line("volume", Volume(volume: Wire.volumePercent(linear: volume), linear: Wire.rounded(volume, digits: 4), muted: muted))
        case .rateChanged(let rate):
            return line("rate", Rate(rate: rate))
        case .abLoopChanged(let loop):
            return mediaLine("ab-loop", WireABLoop(loop))
        case .mediaInfo(let info):
            return mediaLine("media-info", MediaInfo(uri: info.uri, live: info.isLive, seekable: info.isSeekable, duration: Seconds(info.duration),
                                                hasVideo: info.hasVideo, hasAudio: info.hasAudio, subtitleStreams: info.subtitleStreams,
                                                tags: WireTags.Tags(info.tags, cover: info.coverArt)))
        case .statistics(let statistics):
            return line("statistics", WireStatistics(statistics))
        }
    }
}

/// The fields of `warning` and `error` events. A plain value; any thread.
public struct WireError: Encodable, Equatable, Sendable {
    /// The error's kind (`PlayerError`'s `kind` raw value).
    public var kind: String
    /// GStreamer's error code within its domain.
    public var code: Int
    /// The element that posted it (null: unknown).
    @Nullable public var element: String?
    /// The message for the user.
    public var message: String
    /// GStreamer's debug text (null: none).
    @Nullable public var debug: String?
    /// The plugins GStreamer said were missing.
    public var missingPlugins: [String]
    /// The URI it is about (null: none).
    @Nullable public var uri: String?
    /// The HTTP status, for a failed request (null: none).
    @Nullable public var httpStatus: Int?
    /// `PlayerError/Cause`'s raw value; the key is absent when the cause is unknown.
    public var cause: String?

    /// The fields of `error`.
    public init(_ error: PlayerError) {
        kind = error.kind.rawValue
        code = Int(error.code)
        element = error.element
        message = error.message
        debug = error.debug
        missingPlugins = error.missingPlugins
        uri = error.uri
        httpStatus = error.httpStatus.map { Int($0) }
        cause = error.cause?.rawValue
    }
}

/// Statistics with snake_case keys and times in seconds: the `statistics` event's fields and the
/// `stats` reply's data. A plain value; any thread.
public struct WireStatistics: Encodable, Equatable, Sendable {
    /// Video frames rendered.
    public var renderedFrames: Int64
    /// Video frames dropped.
    public var droppedFrames: Int64
    /// The current bitrate, in bits per second (null: unknown).
    @Nullable public var bitrate: Int64?
    /// The average bitrate, in bits per second (null: unknown).
    @Nullable public var averageBitrate: Int64?
    /// The buffering level, 0–100.
    public var bufferingPercent: Int
    /// The position, in seconds.
    public var position: Seconds
    /// The duration, in seconds (null: unknown).
    public var duration: Seconds
    /// The playback rate.
    @Finite public var rate: Double
    /// Seeks run so far.
    public var seekCount: Int
    /// How long the last seek took, in milliseconds (null: none yet).
    @Nullable public var lastSeekLatencyMs: Double?
    /// Time spent buffering, in milliseconds.
    @Finite public var bufferingTimeMs: Double
    /// The video's size (null: no video).
    @Nullable public var videoSize: WireSize?
    /// The video codec's description (null: none).
    @Nullable public var videoCodec: String?
    /// The audio codec's description (null: none).
    @Nullable public var audioCodec: String?
    /// Times the pipeline recovered from a lost clock.
    public var clockLostRecoveries: Int
    /// Rate changes made without a flushing seek.
    public var instantRateChanges: Int
    /// Network reads retried.
    public var networkRetries: Int
    /// State changes the model refused.
    public var rejectedStateTransitions: Int
    /// Adaptive streams only (the key is absent otherwise): seed 004's ABR metrics.
    public var abr: WireAdaptive.Metrics?
    /// With a media cache only (absent otherwise): `hit`, `miss`, `storing`, `stored` or `discarded(reason)`.
    public var cache: String?

    /// The fields of `s`.
    public init(_ s: PlayerStatistics) {
        renderedFrames = Int64(clamping: s.renderedFrames)
        droppedFrames = Int64(clamping: s.droppedFrames)
        bitrate = s.bitrate.map { Int64(clamping: $0) }
        averageBitrate = s.averageBitrate.map { Int64(clamping: $0) }
        bufferingPercent = s.bufferingPercent
        position = Seconds(s.position)
        duration = Seconds(s.duration)
        rate = s.rate
        seekCount = s.seekCount
        lastSeekLatencyMs = s.lastSeekLatencyMilliseconds.flatMap { $0.isFinite ? Wire.rounded($0, digits: 3) : nil }
        bufferingTimeMs = Wire.rounded(s.bufferingTimeMilliseconds, digits: 3)
        videoSize = s.videoSize.map(WireSize.init)
        videoCodec = s.videoCodec
        audioCodec = s.audioCodec
        clockLostRecoveries = s.clockLostRecoveries
        instantRateChanges = s.instantRateChanges
        networkRetries = s.networkRetries
        rejectedStateTransitions = s.rejectedStateTransitions
        abr = s.adaptive.map(WireAdaptive.Metrics.init)
        cache = s.cache?.description
    }
}
