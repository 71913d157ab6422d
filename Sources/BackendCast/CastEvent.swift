#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import BackendCore

/// Where ``Player/cast(to:)`` sends the media: the first renderer found, or one by name or UDN.
public enum CastTarget: Sendable, Hashable {
    /// The first renderer discovery lists (waits for one).
    case auto
    /// The renderer whose friendly name is this (case-insensitive; a unique prefix also matches).
    case name(String)
    /// The renderer with this UDN (`uuid:…`).
    case udn(String)

    /// Parses what a user types: `auto`, a UDN (`uuid:…`), else a name.
    public init(parsing text: String) {
        let trimmed = text.trimmingSurroundingWhitespace()
        if trimmed.lowercased() == "auto" { self = .auto } else if trimmed.lowercased().hasPrefix("uuid:") { self = .udn(trimmed) } else { self = .name(trimmed) }
    }

    /// The renderer of `renderers` this target names, nil when none does (yet).
    public func match(in renderers: [Renderer]) -> Renderer? {
        switch self {
        case .auto: return renderers.first
        case .udn(let udn): return renderers.first { $0.udn.lowercased() == udn.lowercased() }
        case .name(let name):
            if let exact = renderers.first(where: { $0.friendlyName.lowercased() == name.lowercased() }) { return exact }
            let prefixed = renderers.filter { $0.friendlyName.lowercased().hasPrefix(name.lowercased()) }
            return prefixed.count == 1 ? prefixed[0] : nil
        }
    }

    /// `auto`, the UDN, or the name, as a user would type it.
    public var text: String {
        switch self {
        case .auto: "auto"
        case .name(let name): name
        case .udn(let udn): udn
        }
    }
}

/// What the cast feature tells the frontend (`PlayerEvent.feature(_:)`; read it with
/// `event.castEvent`). Published on the player's loop thread (delivered like every event: to
/// the delegate on its queue, and to every `events` stream).
public enum CastEvent: FeatureEventPayload {
    /// The renderers discovery knows now (after one appeared or left): the whole list.
    case renderersChanged([Renderer])
    /// The media plays on `renderer`: it accepted the URI (`SetAVTransportURI`) and `Play`.
    /// Local playback is held while casting.
    case castStarted(Renderer)
    /// Casting to `renderer` ended as asked (``Player/stopCasting()``); local playback resumes at `position`.
    case castEnded(Renderer, position: MediaTime?)
    /// Casting failed — no renderer matched, the renderer refused the media (UPnP 714/716), stopped
    /// answering (timeout) or went away — `message` says which, in one line. Local playback resumes
    /// at the last known position. `renderer` is nil when none was found.
    case castFailed(renderer: Renderer?, message: String)
}

public extension PlayerEvent {
    /// The cast feature's payload of this event, nil for every other event.
    var castEvent: CastEvent? { payload(as: CastEvent.self) }
}

/// The cast feature's section of `PlayerSnapshot.features` (written on the loop thread, read
/// under the snapshot's lock from any thread): what ``Player/renderers`` and ``Player/castingRenderer`` answer.
public struct CastSnapshot: FeatureSection {
    /// `"cast"`.
    public static let key = "cast"
    /// The renderers found so far (empty until discovery was asked for).
    public var renderers: [Renderer] = []
    /// The renderer the media plays on now, nil when it plays locally.
    public var casting: Renderer?
    /// Discovery runs (it was asked for: ``Player/discoverRenderers()`` or a cast).
    public var discovering = false

    /// Nothing found, nothing cast.
    public init(renderers: [Renderer] = [], casting: Renderer? = nil, discovering: Bool = false) {
        self.renderers = renderers
        self.casting = casting
        self.discovering = discovering
    }
}

/// The cast feature's options (`StandardFeatures.cast`).
public struct CastSettings: Sendable, Hashable {
    /// Discover only on these network interfaces (names such as `eth0`, or addresses), nil for all.
    public var interfaces: [String]?
    /// How long ``Player/cast(to:)`` waits for a matching renderer to be discovered before it fails.
    public var findTimeout: Duration = .seconds(8)
    /// The deadline of every call to a renderer (SOAP); a call still unanswered fails the cast.
    public var callTimeout: Duration = .seconds(5)
    /// How often the renderer's position and state are asked for (`GetPositionInfo`, `GetTransportInfo`).
    public var pollInterval: Duration = .milliseconds(250)

    /// The defaults: every interface, 8 s to find a renderer, 5 s per call, 4 polls a second.
    public init(interfaces: [String]? = nil) { self.interfaces = interfaces }
}
