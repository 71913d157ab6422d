import BackendCore

/// Which selections are valid (pure; unit-tested): an existing index, and "off" for subtitles only.
enum TrackSelectionRule {
    /// nil when selecting `index` of `kind` is valid with `available` streams of that kind;
    /// else the ``PlayerError/Kind/invalidArgument`` error to report.
    static func check(_ kind: TrackKind, _ index: Int?, available: Int) -> PlayerError? {
        guard let index else {
            return kind == .subtitle ? nil
                : PlayerError(kind: .invalidArgument, message: "\(kind.rawValue) tracks cannot be switched off; choose a track number")
        }
        if available == 0 {
            return PlayerError(kind: .invalidArgument, message: "no \(kind.rawValue) track \(index): the media has no \(kind.rawValue) tracks")
        }
        guard (0..<available).contains(index) else {
            return PlayerError(kind: .invalidArgument,
                               message: "no \(kind.rawValue) track \(index): the media has \(available) (0…\(available - 1))")
        }
        return nil
    }
}
