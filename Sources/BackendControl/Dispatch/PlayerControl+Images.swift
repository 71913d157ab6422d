import Backend

/// `snapshot [--osd] [path]` and `cover [path]` (console, JSON, the `S` key).
///
/// **Thread:** the ``PlayerControl`` actor; a snapshot awaits the player's loop thread while
/// GStreamer encodes the frame (like `stats`), so the reply still comes before the next command;
/// the cover comes from the player's snapshot (``Player/coverArt``), and encoding it again (when
/// the format differs) takes milliseconds.
extension PlayerControl {
    /// Writes the frame on screen (see ``SnapshotFile``); the reply carries path, width, height.
    /// `osd`: with the OSD drawn on it (``Player/snapshot(format:maxSize:includingOverlays:)``).
    func snapshot(to argument: String?, osd: Bool = false) async -> CommandOutcome {
        guard let location = player.snapshot.uri.map(names.name(of:)) else { return .failure("snapshot: nothing is playing") }
        do {
            let written = try await SnapshotFile.take(from: player, argument: argument, location: location, osd: osd,
                                                      naming: configuration.screenshot)
            return CommandOutcome(data: .snapshot(written), text: ["snapshot: \(written.path) (\(written.width)x\(written.height))"])
        } catch {
            return .failure("snapshot: \(error)")
        }
    }

    /// Writes the current media's cover art (see ``CoverFile``); the reply carries path, width, height.
    func cover(to argument: String?) -> CommandOutcome {
        guard let location = player.snapshot.uri.map(names.name(of:)) else { return .failure("cover: nothing is playing") }
        guard let art = player.coverArt else { return .failure("cover: \(location) has no cover art") }
        do {
            let written = try CoverFile.write(art, to: CoverFile.target(argument: argument, location: location))
            return CommandOutcome(data: .snapshot(written), text: ["cover: \(written.path) (\(written.width)x\(written.height))"])
        } catch {
            return .failure("cover: \(error)")
        }
    }
}
