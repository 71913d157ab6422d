import Backend
import BackendControl
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Playlist files given on the command line: a local `.m3u`/`.m3u8`/`.pls` argument
/// is replaced by its entries (relative entries resolved against the playlist's directory,
/// nested playlists expanded once, an HLS playlist kept as one stream), through the Backend's
/// ``PlaylistFile``. Pure apart from reading the files; any thread.
enum PlaylistArguments {
    /// The arguments with playlist files expanded (entries keep their titles), and how many
    /// playlists could not be used. A bad playlist (unreadable, binary, empty) is one
    /// `gstplay: error: …` line through `report` and is dropped; notes about skipped entries are
    /// `gstplay: warning: …` lines.
    static func expand(_ arguments: [String], report: (String) -> Void) -> (locations: [QueueSetup.Entry], failed: Int) {
        var locations: [QueueSetup.Entry] = []
        var failed = 0
        for argument in arguments {
            guard PlaylistFile.isPlaylist(argument), !isDirectory(argument) else {
                locations.append(QueueSetup.Entry(location: argument))
                continue
            }
            do {
                switch try PlaylistFile.load(argument) {
                case .stream(let uri):
                    locations.append(QueueSetup.Entry(location: uri))
                case .items(let items, let warnings):
                    for warning in warnings { report("gstplay: warning: \(warning)") }
                    locations += items.map { QueueSetup.Entry(location: $0.uri, title: $0.title) }
                }
            } catch {
                report("gstplay: error: \(error.description)")
                failed += 1
            }
        }
        return (locations, failed)
    }

    private static func isDirectory(_ path: String) -> Bool {
        PathText.isDirectory(path)
    }
}

extension PlaybackController {
    /// Counts playlist files that could not be used as failed items (exit code 1 at the end).
    func noteFailedPlaylists(_ count: Int) {
        if count > 0 { policy.itemFailed = true }
    }
}
