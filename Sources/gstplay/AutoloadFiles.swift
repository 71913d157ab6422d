import Backend
import BackendControl
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `--autoload-files` (mpv's autoload script): one local media file given alone brings the other
/// media files of its folder. The queue goes on from the given file in name order and wraps
/// around to the files before it, so the given file plays first and `next` is the file after it
/// in the folder. Reads one directory; any thread.
enum AutoloadFiles {
    /// The extensions taken as media (video and audio; not subtitles, playlists or pictures).
    static let mediaExtensions: Set<String> = [
        "3gp", "aac", "ac3", "aiff", "alac", "ape", "asf", "avi", "dts", "f4v", "flac", "flv", "m2ts", "m4a", "m4v",
        "mka", "mkv", "mov", "mp2", "mp3", "mp4", "mpeg", "mpg", "mts", "oga", "ogg", "ogm", "ogv", "opus", "ts",
        "wav", "webm", "wma", "wmv", "wv",
    ]

    /// The entries to play for `entries`: unchanged unless there is exactly one and it is a local
    /// file (not a URI, a directory or a playlist's entry); then that file followed by the folder's
    /// other media files after it in name order, then those before it.
    static func expand(_ entries: [QueueSetup.Entry]) -> [QueueSetup.Entry] {
        guard entries.count == 1, let entry = entries.first, entry.title == nil,
              !MediaLocation.looksLikeURI(entry.location), PathText.exists(entry.location),
              !PathText.isDirectory(entry.location) else { return entries }
        let path = entry.location
        let directory = PathText.deletingLastComponent(path)
        let name = PathText.lastComponent(path)
        let folder = directory.isEmpty ? "." : directory
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return entries }
        let media = names.filter { $0 != name && !$0.hasPrefix(".") && isMedia($0) }
            .filter { !PathText.isDirectory(PathText.appending($0, to: folder)) }.sorted()
        let after = media.filter { $0 > name }, before = media.filter { $0 < name }
        return [entry] + (after + before).map { QueueSetup.Entry(location: directory.isEmpty ? $0 : PathText.appending($0, to: directory)) }
    }

    private static func isMedia(_ name: String) -> Bool {
        guard let dot = name.lastIndex(of: ".") else { return false }
        return mediaExtensions.contains(name[name.index(after: dot)...].lowercased())
    }
}
