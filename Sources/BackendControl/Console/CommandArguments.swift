import Backend

/// What `cast` is given: `off`, a renderer's number in the `renderers` list, or a name, UDN or
/// `auto`. A plain value; any thread.
public enum CastArgument: Equatable, Sendable {
    case off
    case index(Int)
    case target(CastTarget)
}

/// Which chapter `chapter` goes to. A plain value; any thread.
public enum ChapterArgument: Equatable, Sendable {
    case index(Int)
    case next
    case previous
}

/// What an A-B loop command changes. A plain value; any thread.
public enum ABLoopChange: Equatable, Sendable {
    /// mpv's `ab-loop`: set A at the playhead, then B, then clear.
    case cycle
    /// Point A (`ab-loop-a`), nil: unset (mpv's `no`).
    case a(MediaTime?)
    /// Point B (`ab-loop-b`), nil: unset.
    case b(MediaTime?)
    /// Both points (`ab-loop A B`, `ab-loop off`).
    case both(MediaTime?, MediaTime?)
    /// The loops to make (`ab-loop-count`), nil: `inf`.
    case count(Int?)
}

/// What `cycle` steps, by mpv's property names where mpv has one (`pause`, `mute`,
/// `sub-visibility`, `fullscreen`, `audio`/`aid`, `sub`/`sid`, `video`/`vid`); `cast` is
/// gstplay's (the next renderer found, then off). A plain value; any thread.
public enum CycleTarget: String, CaseIterable, Equatable, Sendable {
    case pause, mute, fullscreen, audio, sub, video, cast
    case subVisibility = "sub-visibility"

    /// mpv's track property names as aliases.
    public static func named(_ word: String) -> CycleTarget? {
        switch word.lowercased() {
        case "aid": .audio
        case "sid": .sub
        case "vid": .video
        case let other: CycleTarget(rawValue: other)
        }
    }
}

/// What `add` changes: `volume` (percent, 0…100) or `speed` (the rate). A plain value; any thread.
public enum AddTarget: String, CaseIterable, Equatable, Sendable {
    case volume, speed
}
