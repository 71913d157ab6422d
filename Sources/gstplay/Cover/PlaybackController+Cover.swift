import Backend

/// `cover [path]` (console and JSON).
///
/// **Thread:** the ``PlaybackController`` actor; the picture comes from the player's snapshot
/// (``Player/coverArt``), and encoding it again (when the format differs) takes milliseconds.
extension PlaybackController {
    /// Writes the current media's cover art (see ``CoverFile``); the reply carries path, width, height.
    func cover(to argument: String?) -> Outcome {
        guard let location = player.snapshot.uri.map(name(of:)) else { return .failure("cover: nothing is playing") }
        guard let art = player.coverArt else { return .failure("cover: \(location) has no cover art") }
        do {
            let written = try CoverFile.write(art, to: CoverFile.target(argument: argument, location: location))
            return Outcome(data: .snapshot(written), text: ["cover: \(written.path) (\(written.width)x\(written.height))"])
        } catch {
            return .failure("cover: \(error)")
        }
    }
}
