import Backend

/// The mpv side of the CLI actor's state: what only events tell (``MpvTracker``) and each mpv
/// client's observers and event switches (``MpvSession``). Owned by `PlaybackController`.
public struct MpvState: Sendable {
    /// What the events told.
    public var tracker = MpvTracker()
    /// Each mpv client's session.
    public var sessions: [ControlClientID: MpvSession] = [:]

    /// No events seen, no clients.
    public init() {}
}

/// One client's mpv state: its property observers (with the value last sent, so a change is
/// sent once) and the events it turned off (`disable_event`). A plain value; the CLI actor.
public struct MpvSession: Sendable {
    /// One `observe_property`: the client's id for it, the property, and whether it asked for text.
    public struct Observer: Sendable {
        /// The client's observer id.
        public var id: Int64
        /// The property observed.
        public var name: String
        /// `observe_property_string`: the value as text.
        public var asText: Bool
        /// nil until the first `property-change`; then the data sent (`.some(nil)`: unavailable).
        public var last: MpvValue??

        /// An observer of `name` under the client's `id`, nothing sent yet unless `last`.
        public init(id: Int64, name: String, asText: Bool, last: MpvValue?? = nil) {
            self.id = id
            self.name = name
            self.asText = asText
            self.last = last
        }
    }

    /// The client's observers, in the order they were added.
    public var observers: [Observer] = []

    /// No observers, every event wanted.
    public init() {}
    private var disabled: Set<String> = []
    private var allDisabled = false

    /// `enable_event` / `disable_event` (`all` switches every event).
    public mutating func setEvent(_ name: String, enabled: Bool) {
        if name == "all" {
            allDisabled = !enabled
            disabled.removeAll()
        } else if enabled {
            disabled.remove(name)
        } else {
            disabled.insert(name)
        }
    }

    /// Whether the client wants the mpv event `name`.
    public func wants(_ name: String) -> Bool { !allDisabled && !disabled.contains(name) }
}

/// What mpv's events and properties need that the snapshot does not hold, followed from the
/// Backend's events: the user's pause (mpv's `pause` does not flip during a seek or buffering),
/// the current media's tags, whether it reached its end, and where the file's life is (so
/// `start-file`, `file-loaded` and `end-file` come once each per load, in that order).
/// A plain value; the CLI actor.
public struct MpvTracker: Sendable {
    /// The current media's global tags (`media-info`).
    public private(set) var tags: MediaTags?
    /// The current item reached its end.
    public private(set) var eofReached = false
    private var entryID: Int64 = 0
    private var fileLoaded = false
    private var ended = true

    /// The mpv event lines `event` makes (in order), updating the state. `entryID` is the queue
    /// item the event belongs to (mpv's `playlist_entry_id`).
    public mutating func lines(for event: PlayerEvent, entryID: Int64) -> [MpvEventLine] {
        switch event {
        case .uriLoaded:
            var lines = ended ? [] : [endFile("stop")]
            ended = false
            fileLoaded = false
            eofReached = false
            tags = nil
            self.entryID = entryID
            lines.append(MpvEventLine("start-file", WireMpv.StartFile(playlistEntryId: entryID)))
            return lines
        case .mediaInfo(let info):
            tags = info.tags
            guard !fileLoaded && !ended else { return [] }
            fileLoaded = true
            return [MpvEventLine("file-loaded"), MpvEventLine("playback-restart")]
        case .stateChanged(_, let to):
            return to == .seeking && fileLoaded ? [MpvEventLine("seek")] : []
        case .seekDone:
            eofReached = false
            return fileLoaded ? [MpvEventLine("playback-restart")] : []
        case .endOfStream:
            eofReached = true
            guard !ended else { return [] }
            ended = true
            return [endFile("eof")]
        case .error(let error):
            guard !ended else { return [] }
            ended = true
            return [endFile("error", error: error.message)]
        default:
            return []
        }
    }

    /// At shutdown: `end-file` (reason `quit`) for a file still open, then `shutdown`.
    public mutating func shutdownLines() -> [MpvEventLine] {
        var lines = ended ? [] : [endFile("quit")]
        ended = true
        lines.append(MpvEventLine("shutdown"))
        return lines
    }

    private func endFile(_ reason: String, error: String? = nil) -> MpvEventLine {
        MpvEventLine("end-file", WireMpv.EndFile(reason: reason, playlistEntryId: entryID, fileError: error))
    }
}

/// An mpv event: its name (for `disable_event`) and its JSON line. A plain value; any thread.
public struct MpvEventLine: Sendable, Equatable {
    package let name: String
    package let line: String

    package init(_ name: String, _ payload: some Encodable & Sendable = NoFields()) {
        self.name = name
        self.line = WireMpv.event(name, payload)
    }
}
