import BackendCore
import GLibSupport

/// The D-Bus side: method calls, property reads and writes (GDBus dispatches them on the loop
/// thread). Reads answer at once; anything that acts is queued (`FeatureContext.runOnLoop`).
extension MPRISFeature: DBusObjectHandler {
    /// A method of the root, `Player` or `TrackList` interface.
    package func call(interface: String, method: String, arguments: [DBusValue]) -> Result<[DBusValue], DBusCallError> {
        if let refusal = transportRefusal, Self.transportMethods.contains("\(interface).\(method)") {
            return .failure(DBusCallError(name: "org.freedesktop.DBus.Error.AccessDenied", message: refusal))
        }
        switch (interface, method) {
        case (MPRISIntrospection.root, "Raise"): return .success([])
        case (MPRISIntrospection.root, "Quit"): act { $0.context?.publish(MPRISEvent.quitRequested) }
        case (MPRISIntrospection.player, "Play"): act { $0.context?.transport.play() }
        case (MPRISIntrospection.player, "Pause"): act { $0.context?.transport.pause() }
        case (MPRISIntrospection.player, "PlayPause"): act { $0.context?.transport.togglePause() }
        case (MPRISIntrospection.player, "Stop"): act { $0.context?.transport.stop() }
        case (MPRISIntrospection.player, "Next"): act { $0.queueControl?.next() }
        case (MPRISIntrospection.player, "Previous"): act { $0.queueControl?.previous() }
        case (MPRISIntrospection.player, "Seek"):
            guard case .int64(let offset)? = arguments.first else { return .failure(.invalidArgs("Seek takes an offset (x)")) }
            guard canSeek else { break }
            act { $0.context?.transport.seek(.relative(.microseconds(offset))) }      // saturating: Int64.max is "to the end"
        case (MPRISIntrospection.player, "SetPosition"):
            guard arguments.count == 2, let track = arguments[0].stringValue, case .int64(let position) = arguments[1] else {
                return .failure(.invalidArgs("SetPosition takes a track id (o) and a position (x)"))
            }
            // The spec: a stale track id, or a position outside 0…length, is ignored.
            let duration = context?.snapshot.duration?.microseconds
            guard canSeek, track == currentTrackID, position >= 0, duration.map({ position <= $0 }) ?? true else { break }
            act { $0.context?.transport.seek(.absolute(.microseconds(position))) }   // saturating when the length is unknown
        case (MPRISIntrospection.player, "OpenUri"):
            guard let uri = arguments.first?.stringValue, !uri.isEmpty else { return .failure(.invalidArgs("OpenUri takes a URI (s)")) }
            act { feature in
                if let queue = feature.queueControl { queue.open(uri: uri) } else { feature.context?.transport.load(uri) }
            }
        case (MPRISIntrospection.trackList, "GetTracksMetadata"):
            guard case .array(_, let ids)? = arguments.first else { return .failure(.invalidArgs("GetTracksMetadata takes ao")) }
            return .success([.array(element: "a{sv}", ids.compactMap { $0.stringValue.flatMap(metadata(ofTrack:)) })])
        case (MPRISIntrospection.trackList, "GoTo"):
            guard let track = arguments.first?.stringValue else { return .failure(.invalidArgs("GoTo takes a track id (o)")) }
            guard let item = queueState?.items.first(where: { Self.trackID($0.id) == track }) else { break }
            act { $0.queueControl?.goTo(itemID: item.id) }
        case (MPRISIntrospection.trackList, "AddTrack"), (MPRISIntrospection.trackList, "RemoveTrack"):
            return .failure(.notSupported("the track list cannot be edited over MPRIS (CanEditTracks is false)"))
        default:
            return .failure(DBusCallError(name: "org.freedesktop.DBus.Error.UnknownMethod", message: "no method \(interface).\(method)"))
        }
        return .success([])
    }

    /// A property's value now.
    package func property(interface: String, name: String) -> DBusValue? {
        switch interface {
        case MPRISIntrospection.root: return rootProperties()[name]
        case MPRISIntrospection.player: return name == "Position" ? .int64(position()) : playerProperties()[name]
        case MPRISIntrospection.trackList:
            switch name {
            case "Tracks": return .array(element: "o", trackIDs().map(DBusValue.objectPath))
            case "CanEditTracks": return .bool(false)
            default: return nil
            }
        default: return nil
        }
    }

    /// `LoopStatus`, `Shuffle`, `Volume` and `Rate` (a rate of 0 pauses, as the spec says).
    package func setProperty(interface: String, name: String, value: DBusValue) -> DBusCallError? {
        guard interface == MPRISIntrospection.player else { return .invalidArgs("\(interface).\(name) is read-only") }
        if let refusal = transportRefusal, name != "Volume" {
            return DBusCallError(name: "org.freedesktop.DBus.Error.AccessDenied", message: refusal)
        }
        switch (name, value) {
        case ("LoopStatus", .string(let text)):
            guard let status = MPRISLoopStatus(rawValue: text) else { return .invalidArgs("LoopStatus is None, Track or Playlist") }
            act { $0.queueControl?.setLoop(status) }
        case ("Shuffle", .bool(let on)):
            act { $0.queueControl?.setShuffle(on) }
        case ("Volume", .double(let volume)):
            act { $0.context?.transport.setVolume(volume) }
        case ("Rate", .double(let rate)):
            guard rate.isFinite else { return .invalidArgs("Rate must be finite") }
            guard rate != 0 else { act { $0.context?.transport.pause() }; break }
            guard let range = context?.configuration.rateRange else { return .invalidArgs("the player is shut down") }
            if let problem = PlaybackRate.problem(with: rate, allowed: range) {
                return .invalidArgs("Rate: \(problem)")   // outside MinimumRate…MaximumRate, or too close to 0
            }
            act { try? $0.context?.transport.setRate(rate) }
        default:
            return .invalidArgs("\(name) cannot be set to \(value)")
        }
        return nil
    }

    /// The methods that move the transport: refused while the player's transport is handed over
    /// (``BackendCore/PlayerSnapshot/transportRefusal``), with `CanPlay`, `CanPause`, `CanSeek`,
    /// `CanGoNext` and `CanGoPrevious` false.
    static let transportMethods: Set<String> = Set(["Play", "Pause", "PlayPause", "Stop", "Next", "Previous", "Seek", "SetPosition", "OpenUri"]
        .map { "\(MPRISIntrospection.player).\($0)" } + ["\(MPRISIntrospection.trackList).GoTo"])

    /// Why transport calls are refused now (a sync follower's line), nil when they run.
    var transportRefusal: String? { context?.snapshot.transportRefusal }

    /// Seeking is possible now (`CanSeek`).
    private var canSeek: Bool { playerProperties()["CanSeek"] == .bool(true) }

    /// Queues `work` on the loop thread (a dispatch of its own, so its events are delivered after it).
    private func act(_ work: @escaping @Sendable (MPRISFeature) -> Void) {
        context?.runOnLoop { [weak self] in if let self { work(self) } }
    }
}
