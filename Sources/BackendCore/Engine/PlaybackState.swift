import CGStreamer

/// What the user asked for and the explicit state derived from it, plus the output settings
/// that outlive a load (rate, volume, mute).
///
/// **Thread:** a value owned by the engine on the loop thread.
struct PlaybackState {
    /// Inputs the explicit state is derived from (``PlayerStateInputs/derivedState``).
    var inputs = PlayerStateInputs()
    /// The explicit state last published.
    var state: PlayerState = .idle
    /// `GST_STATE_PLAYING` or `GST_STATE_PAUSED` while media is loaded (lower when stopped):
    /// what buffering and seeks return to.
    var target: GstState = GST_STATE_NULL
    /// Playback rate, kept across seeks and loads.
    var rate = 1.0
    /// Linear volume and mute, kept across loads.
    var volume = 1.0
    var muted = false

    /// Whether the target is an active state (PAUSED or PLAYING).
    var targetActive: Bool { target == GST_STATE_PAUSED || target == GST_STATE_PLAYING }
    var targetPlaying: Bool { target == GST_STATE_PLAYING }

    /// A new load: intent and progress forgotten, settings kept.
    mutating func resetForNewMedia() { inputs = PlayerStateInputs() }

    /// The next explicit state if it differs from the current one: `.allowed` when it is an
    /// edge of ``PlayerStateMachine`` (and is now current), or the step to `ready` when the
    /// derived state is only reachable through it after preroll (call again for the rest);
    /// `.refused` otherwise.
    enum Transition { case none, allowed(from: PlayerState, to: PlayerState), refused(from: PlayerState, to: PlayerState) }
    mutating func advance() -> Transition {
        let next = inputs.derivedState
        guard next != state else { return .none }
        let previous = state
        guard PlayerStateMachine.isAllowed(from: state, to: next) else {
            // Preroll finished with the user's wish already known (a pause, a seek or the end
            // reached while opening): pass through `ready`; the caller advances again.
            guard inputs.prerolled, PlayerStateMachine.isAllowed(from: state, to: .ready),
                  PlayerStateMachine.isAllowed(from: .ready, to: next) else { return .refused(from: state, to: next) }
            state = .ready
            return .allowed(from: previous, to: .ready)
        }
        state = next
        return .allowed(from: previous, to: next)
    }
}
