import BackendCore
import GLibSupport

/// The MPRIS properties, computed from the player's snapshot and the queue's state whenever
/// they are read or compared (loop thread). Nothing is cached but what was last announced.
extension MPRISFeature {
    /// The queue's state now, nil without a queue.
    var queueState: MPRISQueueState? { context.flatMap { queueControl?.state(in: $0.snapshot) } }

    /// The root interface's properties.
    func rootProperties() -> [String: DBusValue] {
        [
            "CanQuit": .bool(true),
            "CanRaise": .bool(false),
            "HasTrackList": .bool(queueControl != nil),
            "Identity": .string(configuration.identity),
            "DesktopEntry": .string(configuration.desktopEntry ?? ""),
            "SupportedUriSchemes": .array(element: "s", configuration.supportedURISchemes.map(DBusValue.string)),
            "SupportedMimeTypes": .array(element: "s", configuration.supportedMIMETypes.map(DBusValue.string)),
        ]
    }

    /// The `Player` interface's properties but `Position` (which never announces a change).
    func playerProperties() -> [String: DBusValue] {
        guard let context else { return [:] }
        let snapshot = context.snapshot, queue = queueState
        let rates = PlaybackRate.playable(context.configuration.rateRange)
        let hasMedia = snapshot.uri != nil
        // Handed over (a sync follower): it cannot play, pause, seek or change items, but its
        // volume is its own, so `CanControl` (which would freeze Volume too) stays true.
        let controls = snapshot.transportRefusal == nil
        return [
            "PlaybackStatus": .string(playbackStatus(snapshot.state, intent: context.progress.intent)),
            "LoopStatus": .string((queue?.loop ?? .none).rawValue),
            "Rate": .double(snapshot.rate),
            "Shuffle": .bool(queue?.shuffled ?? false),
            "Metadata": .dictionary(metadata(queue: queue)),
            "Volume": .double(snapshot.volume),
            "MinimumRate": .double(rates.lowest),
            "MaximumRate": .double(rates.highest),
            "CanGoNext": .bool(controls && queue?.hasNext ?? false),
            "CanGoPrevious": .bool(controls && queue?.hasPrevious ?? false),
            "CanPlay": .bool(controls && (hasMedia || queue?.current != nil)),
            "CanPause": .bool(controls && hasMedia),
            "CanSeek": .bool(controls && hasMedia && context.progress.prerolled && snapshot.isSeekable && !snapshot.isLive),
            "CanControl": .bool(true),
        ]
    }

    /// `Position` in microseconds: a position query, else the last reported position.
    func position() -> Int64 {
        (context?.media.queryPosition() ?? context?.snapshot.position)?.microseconds ?? 0
    }

    /// `PlaybackStatus`: Playing, Paused or Stopped. A state on its way somewhere (opening,
    /// buffering, seeking) shows what the user asked for, so a seek or a new item does not flicker.
    func playbackStatus(_ state: PlayerState, intent: PlaybackProgress.Intent) -> String {
        switch state {
        case .playing: return "Playing"
        case .paused, .ready: return "Paused"
        case .opening, .buffering, .seeking:
            switch intent {
            case .play: return "Playing"
            case .pause: return "Paused"
            case .none: return state == .opening ? "Stopped" : "Paused"
            }
        case .idle, .ended, .error, .stopping: return "Stopped"
        }
    }

    /// The current track's id: its queue item's, else one per load, else `NoTrack`.
    var currentTrackID: String {
        guard let uri = context?.snapshot.uri else { return MPRISIntrospection.noTrack }
        if let item = queueState?.current, item.uri == uri { return Self.trackID(item.id) }
        return "/org/gstplay/load/\(loadNumber)"
    }

    /// The object path of the queue item `id`.
    static func trackID(_ id: Int) -> String { "/org/gstplay/track/\(id)" }

    /// The track list's ids (`Tracks`), in list order.
    func trackIDs() -> [String] { queueState?.items.map { Self.trackID($0.id) } ?? [] }

    /// `Metadata` of the current track: id, length, URL and the tags; the title is the title tag,
    /// else the playlist's title for the item, else the file name.
    func metadata(queue: MPRISQueueState?) -> [String: DBusValue] {
        guard let snapshot = context?.snapshot, let uri = snapshot.uri else {
            return ["mpris:trackid": .objectPath(MPRISIntrospection.noTrack)]
        }
        var values: [String: DBusValue] = ["mpris:trackid": .objectPath(currentTrackID), "xesam:url": .string(uri)]
        if let duration = snapshot.duration, !snapshot.isLive { values["mpris:length"] = .int64(duration.microseconds) }
        let tags = tagSource?.tags(in: snapshot)
        let itemTitle = queue?.current.flatMap { $0.uri == uri ? $0.title : nil }
        // Without a title tag or a playlist title: the file name, as the video window's title.
        values["xesam:title"] = .string(tags?.title ?? itemTitle ?? MediaLocation.displayName(ofURI: uri))
        if let artist = tags?.artist { values["xesam:artist"] = .array(element: "s", [.string(artist)]) }
        if let album = tags?.album { values["xesam:album"] = .string(album) }
        if let art = artFile?.url(for: tags?.coverArt, mimeType: tags?.coverArtMIMEType) { values["mpris:artUrl"] = .string(art) }
        return values
    }

    /// `GetTracksMetadata`: the current track's full metadata, other items' id, URL and title
    /// (the playlist's, else the file name).
    func metadata(ofTrack path: String) -> DBusValue? {
        guard let queue = queueState, let item = queue.items.first(where: { Self.trackID($0.id) == path }) else { return nil }
        if path == currentTrackID { return .dictionary(metadata(queue: queue)) }
        var values: [String: DBusValue] = ["mpris:trackid": .objectPath(path), "xesam:url": .string(item.uri)]
        values["xesam:title"] = .string(item.title ?? MediaLocation.displayName(ofURI: item.uri))
        return .dictionary(values)
    }
}
