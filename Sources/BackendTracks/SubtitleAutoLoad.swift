import BackendCore
import CGStreamer
import DirectoryWalk

/// Which subtitle files next to a local media file load with it by themselves, as mpv's
/// `--sub-auto`: ``no`` none, ``exact`` those named like the media (`movie.srt`, `movie.en.srt`
/// for `movie.mkv`), ``fuzzy`` every subtitle file whose name contains the media's name.
public enum SubtitleAutoLoad: String, Sendable, CaseIterable {
    /// No subtitle file loads by itself.
    case no
    /// `STEM.EXT` and `STEM.TAG[.TAG…].EXT` (a language or other tag: `movie.en.srt`, `movie.pt-BR.forced.srt`).
    case exact
    /// Any subtitle file whose name contains the media's stem (case-insensitive).
    case fuzzy
}

/// Finding the subtitle files that belong to a local media file (``SubtitleAutoLoad``). The
/// tracks feature uses it for each load (``TracksFeature``); an embedding app can call it too.
/// Reads one directory; any thread.
public enum SubtitleFinder {
    /// The extensions GStreamer's `subparse` reads: SubRip, WebVTT, SubStation Alpha, MicroDVD/SubViewer, SAMI.
    public static let extensions: Set<String> = ["srt", "vtt", "ass", "ssa", "sub", "smi"]

    /// The subtitle files for the media at `mediaPath` (an absolute path), best first: the exact
    /// name (`movie.srt`), then tagged names (`movie.en.srt`) sorted, then (``SubtitleAutoLoad/fuzzy``)
    /// the other names containing the stem, sorted. Empty for ``SubtitleAutoLoad/no`` or an
    /// unreadable directory.
    public static func files(forMedia mediaPath: String, mode: SubtitleAutoLoad) -> [String] {
        guard mode != .no, let slash = mediaPath.lastIndex(of: "/") else { return [] }
        let directory = String(mediaPath[..<slash])
        let mediaName = String(mediaPath[mediaPath.index(after: slash)...])
        let stem = Self.stem(of: mediaName)
        guard !stem.isEmpty, let names = DirectoryNames.list(directory.isEmpty ? "/" : directory) else { return [] }
        var exact: [String] = [], tagged: [String] = [], fuzzy: [String] = []
        for name in names.sorted() where name != mediaName && isSubtitle(name) {
            switch match(name, stem: stem) {
            case .exact: exact.append(name)
            case .tagged: tagged.append(name)
            case .contains where mode == .fuzzy: fuzzy.append(name)
            default: break
            }
        }
        return (exact + tagged + fuzzy).map { directory + "/" + $0 }
    }

    /// The subtitle files for `uri` when it is a `file://` URI (``files(forMedia:mode:)``).
    public static func files(forURI uri: String, mode: SubtitleAutoLoad) -> [String] {
        guard mode != .no, URIScheme.isFile(uri),
              let path = String(takingGLibString: g_filename_from_uri(uri, nil, nil)) else { return [] }
        return files(forMedia: path, mode: mode)
    }

    /// How a subtitle file's name relates to the media's stem.
    private enum Match { case exact, tagged, contains, none }

    private static func match(_ name: String, stem: String) -> Match {
        let subtitleStem = Self.stem(of: name)
        if subtitleStem == stem { return .exact }
        if subtitleStem.hasPrefix(stem + "."), isTagList(subtitleStem.dropFirst(stem.count + 1)) { return .tagged }
        return contains(subtitleStem.lowercased(), stem.lowercased()) ? .contains : .none
    }

    /// Whether `part` is in `name` (`strstr` on the file names' bytes, which hold no NUL).
    private static func contains(_ name: String, _ part: String) -> Bool {
        name.withCString { haystack in part.withCString { strstr(haystack, $0) != nil } }
    }

    /// `en`, `pt-BR.forced`: dot-separated words of letters, digits, `-` and `_`.
    private static func isTagList(_ text: Substring) -> Bool {
        text.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { tag in
            !tag.isEmpty && tag.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
        }
    }

    /// The name without its last extension (`movie.en.srt` → `movie.en`); a name without a dot is its own stem.
    static func stem(of name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }

    private static func isSubtitle(_ name: String) -> Bool {
        guard let dot = name.lastIndex(of: ".") else { return false }
        return extensions.contains(name[name.index(after: dot)...].lowercased())
    }
}
