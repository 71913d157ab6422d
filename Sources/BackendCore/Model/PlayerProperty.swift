/// The value of a named property (``PlayerProperty``), as every door encodes it: mpv's JSON
/// types (a number, a flag, text, a list of values, or none).
public enum PropertyValue: Sendable, Hashable, Codable {
    /// No value (mpv's `null`: no duration yet, no current item).
    case none
    /// A flag (`pause`, `mute`).
    case flag(Bool)
    /// A whole number (`playlist-pos`, `chapter`).
    case integer(Int)
    /// A number (`volume`, `time-pos`).
    case number(Double)
    /// Text (`path`).
    case text(String)

    /// Encodes as the bare JSON value (`null`, `true`, `3`, `1.5`, `"x"`).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .none: try container.encodeNil()
        case .flag(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .text(let value): try container.encode(value)
        }
    }

    /// Decodes a bare JSON value (a whole number stays ``integer(_:)``).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .none }
        else if let value = try? container.decode(Bool.self) { self = .flag(value) }
        else if let value = try? container.decode(Int.self) { self = .integer(value) }
        else if let value = try? container.decode(Double.self) { self = .number(value) }
        else { self = .text(try container.decode(String.self)) }
    }
}

/// A value of the player every door reads by one name: mpv's name where mpv has the same thing
/// (`volume`, `mute`, `speed`, `pause`, `time-pos`, `duration`, …), read from ``PlayerSnapshot``
/// — the one state — so no door keeps a copy. ``Player/observe(_:)-(PlayerProperty)`` delivers its current value
/// and then each change; features add their own (the queue's `playlist-pos`, the chapters'
/// `chapter`), and the `Backend` module lists them all (`PlayerProperty.standard`).
public struct PlayerProperty: Sendable, Hashable {
    /// The name clients use (`volume`).
    public let name: String
    /// Reads the value from a snapshot (any thread; a pure function of the snapshot).
    public let read: @Sendable (PlayerSnapshot) -> PropertyValue

    /// A property named `name` read by `read`.
    public init(_ name: String, read: @escaping @Sendable (PlayerSnapshot) -> PropertyValue) {
        self.name = name
        self.read = read
    }

    /// Properties are equal by name.
    public static func == (lhs: PlayerProperty, rhs: PlayerProperty) -> Bool { lhs.name == rhs.name }
    /// Hashes the name.
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}

extension PlayerProperty {
    /// `volume`: mpv's volume in percent (the cubic scale, 100 = unity, to a tenth:
    /// ``VolumeScale/percent(fromLinear:)``).
    public static let volume = PlayerProperty("volume") { .number(VolumeScale.percent(fromLinear: $0.volume)) }
    /// `mute`.
    public static let mute = PlayerProperty("mute") { .flag($0.muted) }
    /// `speed`: the playback rate.
    public static let speed = PlayerProperty("speed") { .number($0.rate) }
    /// `pause`: the user's pause (``PlayerSnapshot/pauseRequested``), kept through seeks.
    public static let pause = PlayerProperty("pause") { .flag($0.pauseRequested) }
    /// `time-pos`: the position in seconds, none before one is known.
    public static let timePos = PlayerProperty("time-pos") { $0.position.map { .number($0.seconds) } ?? .none }
    /// `duration` in seconds, none while unknown.
    public static let duration = PlayerProperty("duration") { $0.duration.map { .number($0.seconds) } ?? .none }
    /// `path`: the URI loaded, none before the first load.
    public static let path = PlayerProperty("path") { $0.uri.map(PropertyValue.text) ?? .none }
    /// `seekable`.
    public static let seekable = PlayerProperty("seekable") { .flag($0.isSeekable) }
    /// `width`: the display width (pixel aspect applied), none without video.
    public static let width = PlayerProperty("width") { $0.mediaSize.map { .integer($0.width) } ?? .none }
    /// `height`: the display height, none without video.
    public static let height = PlayerProperty("height") { $0.mediaSize.map { .integer($0.height) } ?? .none }
    /// `ab-loop-a` in seconds, none when unset (mpv's `no`).
    public static let abLoopA = PlayerProperty("ab-loop-a") { $0.abLoop.a.map { .number($0.seconds) } ?? .none }
    /// `ab-loop-b` in seconds, none when unset.
    public static let abLoopB = PlayerProperty("ab-loop-b") { $0.abLoop.b.map { .number($0.seconds) } ?? .none }
    /// `ab-loop-count`: loops left, none for `inf`.
    public static let abLoopCount = PlayerProperty("ab-loop-count") { $0.abLoop.count.map(PropertyValue.integer) ?? .none }
    /// `paused-for-cache`: true while buffering holds playback (below 100 %).
    public static let pausedForCache = PlayerProperty("paused-for-cache") { .flag($0.state == .buffering) }
    /// `cache-buffering-state`: the last buffering level in percent.
    public static let cacheBufferingState = PlayerProperty("cache-buffering-state") { .integer($0.bufferingPercent) }

    /// The core's properties.
    public static let core: [PlayerProperty] = [
        volume, mute, speed, pause, timePos, duration, path, seekable, width, height,
        abLoopA, abLoopB, abLoopCount, pausedForCache, cacheBufferingState,
    ]
}
