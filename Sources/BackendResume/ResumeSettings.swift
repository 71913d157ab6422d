import BackendCore

/// The choices `--resume` remembers for an item besides its position (mpv's watch-later):
/// volume, mute, speed, audio and subtitle track, subtitle file and delay, A-B loop. A field is
/// nil when it was not saved (not in the `watch-later-options` list, or an entry written before
/// the choices were kept).
///
/// Stored in ``ResumeStore/Entry/settings`` as a JSON object with mpv's names (`volume`,
/// `mute`, `speed`, `aid`, `sid` (a number or `"no"`), `sub-files`, `sub-delay-ms`,
/// `ab-loop-a`, `ab-loop-b`, `ab-loop-count` (a number or `"inf"`)). Read field by field: a
/// field that does not read or holds an impossible value (``isPossible``'s limits) is left out
/// and the others are used, so a damaged field never costs the entry its position.
///
/// **Thread:** any (a plain value).
public struct ResumeSettings: Codable, Sendable, Hashable {
    /// Linear volume, 0…10 (`Player.setVolume(_:)`).
    public var volume: Double?
    /// Muted.
    public var muted: Bool?
    /// Playback rate (within `PlayerConfiguration().rateRange`, not 0).
    public var rate: Double?
    /// The audio track's index.
    public var audioTrack: Int?
    /// The subtitle track's index; `.some(nil)`: subtitles off.
    public var subtitleTrack: Int??
    /// The external subtitle files added (URIs; playbin takes one, the last).
    public var subtitleFiles: [String]?
    /// Subtitle delay in milliseconds (positive: later).
    public var subtitleDelay: Int64?
    /// The A-B loop's points in seconds (nil: unset).
    public var abLoopA: Double?
    public var abLoopB: Double?
    /// The A-B loop's count; `.some(nil)`: `inf`.
    public var abLoopCount: Int??

    /// Nothing saved.
    public init() {}

    /// Nothing is saved in it.
    public var isEmpty: Bool { self == ResumeSettings() }

    /// The largest track index kept (a larger one is a damaged file).
    public static let maximumTrack = 4095
    /// The largest subtitle delay kept either way, in milliseconds (one hour, as `sub-offset` takes).
    public static let maximumDelay: Int64 = 3_600_000
    /// The longest subtitle file URI kept.
    public static let maximumURILength = 8192

    /// Only the fields named in `settings` (the others nil).
    public func keeping(_ settings: Set<ResumeSetting>) -> ResumeSettings {
        var kept = ResumeSettings()
        if settings.contains(.volume) { kept.volume = volume }
        if settings.contains(.mute) { kept.muted = muted }
        if settings.contains(.speed) { kept.rate = rate }
        if settings.contains(.audioTrack) { kept.audioTrack = audioTrack }
        if settings.contains(.subtitleTrack) { kept.subtitleTrack = subtitleTrack }
        if settings.contains(.subtitleFiles) { kept.subtitleFiles = subtitleFiles }
        if settings.contains(.subtitleDelay) { kept.subtitleDelay = subtitleDelay }
        if settings.contains(.abLoopA) { kept.abLoopA = abLoopA }
        if settings.contains(.abLoopB) { kept.abLoopB = abLoopB }
        if settings.contains(.abLoopCount) { kept.abLoopCount = abLoopCount }
        return kept
    }

    /// Every field holds a possible value (or none): what the decoder keeps.
    public var isPossible: Bool { self == possible() }

    /// The fields with possible values only: volume 0…10, a rate the player takes, track
    /// indexes 0…``maximumTrack``, a delay within ±``maximumDelay``, loop points finite and
    /// 0…``ResumeStore/maximumPosition``, a count of 0 or more, non-empty file URIs up to
    /// ``maximumURILength`` long.
    public func possible() -> ResumeSettings {
        var kept = self
        if let volume, !(volume.isFinite && (0...10).contains(volume)) { kept.volume = nil }
        if let rate, PlaybackRate.problem(with: rate, allowed: PlayerConfiguration().rateRange) != nil { kept.rate = nil }
        let tracks = 0...Self.maximumTrack
        if let audioTrack, !tracks.contains(audioTrack) { kept.audioTrack = nil }
        if case .some(.some(let index)) = subtitleTrack, !tracks.contains(index) { kept.subtitleTrack = nil }
        if let files = subtitleFiles, files.contains(where: { $0.isEmpty || $0.utf8.count > Self.maximumURILength }) || files.count > 16 {
            kept.subtitleFiles = nil
        }
        if let delay = subtitleDelay, !(-Self.maximumDelay...Self.maximumDelay).contains(delay) { kept.subtitleDelay = nil }
        let points = 0...ResumeStore.maximumPosition
        if let point = abLoopA, !(point.isFinite && points.contains(point)) { kept.abLoopA = nil }
        if let point = abLoopB, !(point.isFinite && points.contains(point)) { kept.abLoopB = nil }
        if case .some(.some(let count)) = abLoopCount, count < 0 { kept.abLoopCount = nil }
        return kept
    }

    // MARK: Codable

    private enum Key: String, CodingKey {
        case volume, mute, speed, aid, sid
        case subFiles = "sub-files", subDelay = "sub-delay-ms"
        case abLoopA = "ab-loop-a", abLoopB = "ab-loop-b", abLoopCount = "ab-loop-count"
    }

    /// Reads field by field: a field of the wrong type or an impossible value is left out.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        volume = try? container.decodeIfPresent(Double.self, forKey: .volume)
        muted = try? container.decodeIfPresent(Bool.self, forKey: .mute)
        rate = try? container.decodeIfPresent(Double.self, forKey: .speed)
        audioTrack = try? container.decodeIfPresent(Int.self, forKey: .aid)
        subtitleTrack = Self.decodeNumberOrWord(container, .sid, word: "no")
        subtitleFiles = try? container.decodeIfPresent([String].self, forKey: .subFiles)
        subtitleDelay = try? container.decodeIfPresent(Int64.self, forKey: .subDelay)
        abLoopA = try? container.decodeIfPresent(Double.self, forKey: .abLoopA)
        abLoopB = try? container.decodeIfPresent(Double.self, forKey: .abLoopB)
        abLoopCount = Self.decodeNumberOrWord(container, .abLoopCount, word: "inf")
        self = possible()
    }

    /// Writes the saved fields only.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encodeIfPresent(volume, forKey: .volume)
        try container.encodeIfPresent(muted, forKey: .mute)
        try container.encodeIfPresent(rate, forKey: .speed)
        try container.encodeIfPresent(audioTrack, forKey: .aid)
        if let subtitleTrack { try Self.encodeNumberOrWord(subtitleTrack, word: "no", &container, .sid) }
        try container.encodeIfPresent(subtitleFiles, forKey: .subFiles)
        try container.encodeIfPresent(subtitleDelay, forKey: .subDelay)
        try container.encodeIfPresent(abLoopA, forKey: .abLoopA)
        try container.encodeIfPresent(abLoopB, forKey: .abLoopB)
        if let abLoopCount { try Self.encodeNumberOrWord(abLoopCount, word: "inf", &container, .abLoopCount) }
    }

    /// A number, or `word` for `.some(nil)`; nil when absent or neither.
    private static func decodeNumberOrWord(_ container: KeyedDecodingContainer<Key>, _ key: Key, word: String) -> Int?? {
        if let number = try? container.decodeIfPresent(Int.self, forKey: key) { return .some(number) }
        if let text = try? container.decodeIfPresent(String.self, forKey: key), text == word { return .some(nil) }
        return nil
    }

    private static func encodeNumberOrWord(_ value: Int?, word: String, _ container: inout KeyedEncodingContainer<Key>, _ key: Key) throws {
        if let value { try container.encode(value, forKey: key) } else { try container.encode(word, forKey: key) }
    }
}
