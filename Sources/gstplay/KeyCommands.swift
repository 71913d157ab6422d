import Backend
import BackendControl

extension PlaybackController {
    /// Runs `cycle`: each target through the same player call as its own command or key did.
    func cycle(_ target: CycleTarget) async -> Outcome {
        switch target {
        case .pause: return await execute(.toggle)
        case .mute: return await execute(.mute(nil))
        case .subVisibility: return await execute(.subVisibility(nil))
        case .fullscreen:
            player.toggleFullscreen()
            return .success
        case .audio: return TrackCommands.cycle(.audio, player: player)
        case .sub: return TrackCommands.cycle(.subtitle, player: player)
        case .video: return TrackCommands.cycle(.video, player: player)
        case .cast: return CastCommands.cycle(player: player)
        }
    }

    /// Runs `add`: from the player's value (a setter's value is in its snapshot at once, so quick
    /// repeats add up before the loop thread has applied them), volume clamped to 0…100 and rounded to a tenth of a percent; the rate to
    /// a tenth, skipping 0 (``RateStep``).
    func add(_ target: AddTarget, _ amount: Double) async -> Outcome {
        switch target {
        case .volume:
            let percent = VolumeScale.cubic(fromLinear: player.snapshot.volume) * 100
            return await execute(.volume(min(max(((percent + amount) * 10).rounded() / 10, 0), 100)))
        case .speed:
            return await execute(.rate(RateStep.stepped(from: player.snapshot.rate, by: amount)))
        }
    }
}
