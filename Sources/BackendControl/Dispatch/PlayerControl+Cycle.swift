import Backend

/// `cycle` and `add` (console, JSON, the keys bound to them).
///
/// **Thread:** the ``PlayerControl`` actor.
extension PlayerControl {
    /// Runs `cycle`: each target through the same player call as its own command or key did.
    public func cycle(_ target: CycleTarget) async -> CommandOutcome {
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
    public func add(_ target: AddTarget, _ amount: Double) async -> CommandOutcome {
        switch target {
        case .volume:
            let percent = VolumeScale.cubic(fromLinear: player.snapshot.volume) * 100
            return await execute(.volume(min(max(((percent + amount) * 10).rounded() / 10, 0), 100)))
        case .speed:
            return await execute(.rate(RateStep.stepped(from: player.snapshot.rate, by: amount)))
        }
    }
}

/// Rate steps of `add speed` (keys `+` / `-`). Pure; any thread.
public enum RateStep {
    /// The rate one step away from `rate`, rounded to a tenth; 0 is skipped (to ±0.1).
    public static func stepped(from rate: Double, by step: Double) -> Double {
        var next = ((rate + step) * 10).rounded() / 10
        if next == 0 { next = step > 0 ? 0.1 : -0.1 }
        return next
    }

    /// `1.5`, `0.9`, `-1`, `2`: up to two decimals, no trailing zeros (`printf`'s `%g` for a
    /// rate no player accepts: NaN, infinite or beyond ±1e13, instead of an `Int` trap).
    public static func text(_ rate: Double) -> String {
        let scaled = (rate * 100).rounded()
        guard scaled.isFinite, scaled.magnitude < 1e15 else { return CFormat.number("%g", rate) }
        let hundredths = Int(scaled)
        let sign = hundredths < 0 ? "-" : ""
        let magnitude = abs(hundredths)
        var text = sign + String(magnitude / 100)
        let fraction = magnitude % 100
        if fraction != 0 {
            text += "." + (fraction % 10 == 0 ? String(fraction / 10) : (fraction < 10 ? "0\(fraction)" : String(fraction)))
        }
        return text
    }
}
