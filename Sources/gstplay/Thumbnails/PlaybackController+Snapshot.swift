import Backend
import BackendControl
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `snapshot [--osd] [path]` (console and JSON) and the `S` key.
///
/// **Thread:** the ``PlaybackController`` actor; awaits the player's loop thread while GStreamer
/// encodes the frame (like `stats`), so the reply still comes before the next input is taken.
extension PlaybackController {
    /// Writes the frame on screen (see ``SnapshotFile``); the reply carries path, width, height.
    /// `osd`: with the OSD drawn on it (``Player/snapshot(format:maxSize:includingOverlays:)``).
    func snapshot(to argument: String?, osd: Bool = false) async -> Outcome {
        guard let location = player.snapshot.uri.map(name(of:)) else { return .failure("snapshot: nothing is playing") }
        do {
            let written = try await SnapshotFile.take(from: player, argument: argument, location: location, osd: osd,
                                                          naming: settings.screenshot)
            return Outcome(data: .snapshot(written), text: ["snapshot: \(written.path) (\(written.width)x\(written.height))"])
        } catch {
            return .failure("snapshot: \(error)")
        }
    }
}
