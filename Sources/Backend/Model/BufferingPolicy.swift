/// The buffering rule of the seed backend, as a pure function of its inputs.
///
/// Below 100 % with a target of at least PAUSED the pipeline is paused and the level
/// reported; at 100 % the user's target state is restored. Live sources never buffer this
/// way, and repeated percentages are dropped.
enum BufferingPolicy {
    /// What the engine does with one `GST_MESSAGE_BUFFERING`.
    enum Decision: Equatable, Sendable {
        /// Nothing: live source, repeated value, or no target to protect.
        case ignore
        /// Set the pipeline to PAUSED and report the level.
        case pause(percent: Int)
        /// Buffers are full: restore the target state (PLAYING when `play` is true) and report 100 %.
        case resume(play: Bool)
    }

    /// Decides for `percent` given the stream liveness, whether the user wants PLAYING
    /// (`targetPlaying`) or at least PAUSED (`targetActive`), and the last level acted on.
    static func decide(percent: Int, isLive: Bool, targetActive: Bool, targetPlaying: Bool, lastPercent: Int?) -> Decision {
        if isLive || !targetActive { return .ignore }
        let level = min(max(percent, 0), 100)
        if level == lastPercent { return .ignore }
        if level < 100 { return .pause(percent: level) }
        return .resume(play: targetPlaying)
    }
}
