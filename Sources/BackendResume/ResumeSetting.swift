/// One thing `--resume` can remember for an item, under mpv's `watch-later-options` name.
public enum ResumeSetting: String, Sendable, Hashable, CaseIterable {
    /// The position (`start`).
    case start
    /// The linear volume (`volume`).
    case volume
    /// The mute flag (`mute`).
    case mute
    /// The playback rate (`speed`).
    case speed
    /// The audio track (`aid`).
    case audioTrack = "aid"
    /// The subtitle track, or subtitles off (`sid`).
    case subtitleTrack = "sid"
    /// The external subtitle file added for the item (`sub-files`).
    case subtitleFiles = "sub-files"
    /// The subtitle delay (`sub-delay`).
    case subtitleDelay = "sub-delay"
    /// The A-B loop's A point (`ab-loop-a`).
    case abLoopA = "ab-loop-a"
    /// The A-B loop's B point (`ab-loop-b`).
    case abLoopB = "ab-loop-b"
    /// The A-B loop's count (`ab-loop-count`).
    case abLoopCount = "ab-loop-count"

    /// Every name, comma-separated, in the documented order (for messages and help).
    public static var names: String { allCases.map(\.rawValue).joined(separator: ",") }

    /// A `watch-later-options` list: names separated by commas (spaces around them ignored, a
    /// name given twice counts once). Pure.
    /// - Returns: the settings, or the one-line reason the list is not usable (an empty list,
    ///   an empty or unknown name).
    public static func parseList(_ text: String) -> Result<Set<ResumeSetting>, ListError> {
        var settings: Set<ResumeSetting> = []
        for word in text.split(separator: ",", omittingEmptySubsequences: false) {
            let name = word.trimmingCharacters(in: " \t")
            guard !name.isEmpty else { return .failure(ListError(description: "expected names separated by commas (\(names)), got '\(text)'")) }
            guard let setting = ResumeSetting(rawValue: name.lowercased()) else {
                return .failure(ListError(description: "unknown name '\(name)' (expected some of \(names))"))
            }
            settings.insert(setting)
        }
        return .success(settings)
    }

    /// Why a `watch-later-options` list is not usable: one line, without a prefix.
    public struct ListError: Error, Sendable, Hashable, CustomStringConvertible {
        /// E.g. "unknown name 'colour' (expected some of start,volume,…)".
        public var description: String
    }
}

extension Substring {
    /// The text without `characters` at either end.
    fileprivate func trimmingCharacters(in characters: String) -> String {
        var text = self[...]
        while let first = text.first, characters.contains(first) { text = text.dropFirst() }
        while let last = text.last, characters.contains(last) { text = text.dropLast() }
        return String(text)
    }
}
