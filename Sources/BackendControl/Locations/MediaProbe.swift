import Backend

/// Reads media without playing it: a player that only prerolls (paused, fake sinks or none, no
/// position events), and one location's `MediaInfo` (its tracks, duration, tags) or error from
/// it — what `--list-tracks` prints. **Thread:** any task; the player's events are awaited.
public enum MediaProbe {
    /// A player that prerolls and stops there: not started, fake sinks (`video`/`audio` false:
    /// none of that kind), no position events. Shut it down when done.
    public static func player(video: Bool = true, audio: Bool = true) -> Player {
        var configuration = PlayerConfiguration()
        configuration.autoplay = false
        configuration.videoSink = video ? .description("fakevideosink") : .disabled
        configuration.audioSink = audio ? .description("fakeaudiosink") : .disabled
        configuration.positionInterval = .zero
        return Player(configuration: configuration)
    }

    /// Loads `location` on `player` and returns its media info once prerolled, or its error; nil
    /// when the player's events ended first (it shut down).
    public static func mediaInfo(of location: String, on player: Player) async -> Result<MediaInfo, PlayerError>? {
        let events = player.events
        player.load(location)
        for await event in events {
            if case .mediaInfo(let info) = event { return .success(info) }
            if case .error(let error) = event { return .failure(error) }
        }
        return nil
    }
}
