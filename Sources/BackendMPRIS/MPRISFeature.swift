import BackendCore
import CGStreamer
import GLibSupport
import Glibc

/// MPRIS 2 as a `PlayerFeature`: the player on the D-Bus session bus as
/// `org.mpris.MediaPlayer2.<app>.instance<pid>`, with the root, `Player` and `TrackList`
/// interfaces at `/org/mpris/MediaPlayer2` (GDBus: `DBusObjectExport` in GLibSupport),
/// so media keys, shell media controls and `playerctl` drive it. Nothing runs without a session
/// bus (an ``MPRISEvent/unavailable(reason:)`` says so).
///
/// Properties are read from the player's snapshot when asked (tags and picture through an
/// ``MPRISTagSource``); `PropertiesChanged` is emitted
/// once per change (the properties are compared after each batch of events, position ticks
/// never count) and `Seeked` after every landed seek (`PlayerEvent.seekDone(_:)`: also a seek
/// made by a key or the console). The queue (`LoopStatus`, `Shuffle`, `Next`, `TrackList`…) comes
/// through an ``MPRISQueueControl`` the app gives it; without one those do nothing.
///
/// **Thread:** every member runs on the player's loop thread: the `PlayerFeature` calls, and the
/// D-Bus calls, which GDBus dispatches to the loop's `GMainContext` (the object is registered
/// from ``attach(to:)`` on that thread). Method calls and property writes are queued with
/// `FeatureContext.runOnLoop(_:)`, so their events leave like any command's.
public final class MPRISFeature: PlayerFeature {
    let configuration: MPRISConfiguration
    let queueControl: (any MPRISQueueControl)?
    var context: FeatureContext?
    var export: DBusObjectExport?
    /// Tags and picture (nil: no `xesam:title`/`artist`/`album`, no `mpris:artUrl`).
    let tagSource: (any MPRISTagSource)?
    /// The file behind `mpris:artUrl`, while exported with an ``MPRISConfiguration/artDirectory``.
    var artFile: MPRISArtFile?
    /// Counts the loads (a track id for media played outside a queue).
    var loadNumber = 0
    /// The `Player` properties as last announced, and the track list's ids.
    var announced: [String: DBusValue] = [:]
    var announcedTracks: [String] = []
    /// A flush is queued; seeks landed since the last flush.
    var flushQueued = false
    var landedSeeks: [MediaTime] = []

    /// How many players of one process can be on the bus at once: the names offered are
    /// `…instance<pid>`, then `…instance<pid>_2` up to this (the bus gives the first free one,
    /// so two players at once never collide and a later one reuses a free name).
    static let maximumInstances = 64

    /// True when a session bus is there to join (`DBUS_SESSION_BUS_ADDRESS`, or the socket
    /// `$XDG_RUNTIME_DIR/bus`; never an X11 autolaunch). Any thread.
    public static var sessionBusAvailable: Bool { DBusObjectExport.sessionBusAddress != nil }

    /// A feature showing the player on the bus as `configuration` says, with `queue` behind the
    /// queue's properties and methods (nil: no queue) and `tags` behind the metadata's tags and
    /// picture (nil: none).
    public init(configuration: MPRISConfiguration = MPRISConfiguration(), queue: (any MPRISQueueControl)? = nil,
                tags: (any MPRISTagSource)? = nil) {
        self.configuration = configuration
        self.queueControl = queue
        self.tagSource = tags
    }

    // MARK: PlayerFeature

    /// Connects to the bus, registers the interfaces and asks for the bus name (from the loop
    /// thread, so GDBus dispatches the calls there); announces the outcome once the player started.
    public func attach(to context: FeatureContext) {
        self.context = context
        guard let address = configuration.busAddress ?? DBusObjectExport.sessionBusAddress else {
            return announce(.unavailable(reason: "no session bus (DBUS_SESSION_BUS_ADDRESS is not set)"))
        }
        let base = "org.mpris.MediaPlayer2.\(configuration.applicationName).instance\(getpid())"
        let names = (1...Self.maximumInstances).lazy.map { $0 == 1 ? base : base + "_\($0)" }
        let export: DBusObjectExport
        do {
            export = try DBusObjectExport(address: address, names: names, path: MPRISIntrospection.path,
                                          introspectionXML: MPRISIntrospection.xml, handler: self)
        } catch {
            return announce(.unavailable(reason: error.message))
        }
        self.export = export
        let name = export.name
        if let directory = configuration.artDirectory {
            artFile = MPRISArtFile(directory: directory, prefix: String(name.split(separator: ".").last ?? "gstplay"))
        }
        announced = playerProperties()
        announcedTracks = trackIDs()
        context.updateSnapshot(MPRISSnapshot(busName: name))
        announce(.exported(busName: name))
    }

    /// Leaves the bus: the name, the object and the connection go.
    public func teardown() {
        export?.close()
        export = nil
        artFile?.remove()
        artFile = nil
        context = nil
    }

    /// New media: a new track id.
    public func resetForNewMedia(uri: String?) {
        if uri != nil { loadNumber += 1 }
        markChanged()
    }

    /// Notes what may have changed a property (every event but position and statistics ticks)
    /// and every landed seek; the properties are compared once the handler's events are out.
    public func observe(_ event: PlayerEvent) {
        switch event {
        case .position, .statistics: return
        case .seekDone(let landed): landedSeeks.append(landed)
        default: break
        }
        markChanged()
    }

    // MARK: Announcing changes

    /// Queues one ``flush()`` (a later dispatch of the loop, after the current handler).
    func markChanged() {
        guard export != nil, !flushQueued, let context else { return }
        flushQueued = true
        context.runOnLoop { [weak self] in self?.flush() }
    }

    /// Emits `PropertiesChanged` with the `Player` properties that differ from the last announced,
    /// `TrackListReplaced` when the queue's items changed, then `Seeked` for each landed seek.
    func flush() {
        flushQueued = false
        guard let export else { return }
        let now = playerProperties()
        let changed = now.filter { announced[$0.key] != $0.value }
        announced = now
        export.emitPropertiesChanged(interface: MPRISIntrospection.player, changed: changed)
        let tracks = trackIDs()
        if tracks != announcedTracks {
            announcedTracks = tracks
            export.emit(interface: MPRISIntrospection.trackList, signal: "TrackListReplaced",
                        arguments: [.array(element: "o", tracks.map(DBusValue.objectPath)), .objectPath(currentTrackID)])
        }
        for landed in landedSeeks {
            export.emit(interface: MPRISIntrospection.player, signal: "Seeked", arguments: [.int64(landed.microseconds)])
        }
        landedSeeks.removeAll()
    }

    /// Publishes `event` once the player has started (after its `initialized`).
    private func announce(_ event: MPRISEvent) {
        context?.runOnLoop { [weak self] in self?.context?.publish(event) }
    }
}

extension MediaTime {
    /// In microseconds (MPRIS times).
    var microseconds: Int64 { nanoseconds / 1000 }
}
