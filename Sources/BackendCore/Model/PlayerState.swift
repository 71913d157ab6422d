/// The player's explicit state, as the application sees it (seed 003's state model).
///
/// This is not GStreamer's `GstState`: the Backend derives it on the loop thread from the
/// pipeline state, the user's intent, preroll, buffering, seeks, EOS and errors, and only
/// moves along the edges of a fixed table of allowed transitions (the engine refuses, and counts, any other move).
public enum PlayerState: String, Sendable, Hashable, Codable, CaseIterable {
    /// Nothing loaded, no resources held. The initial state.
    case idle
    /// A URI was set and the pipeline is prerolling (`READY → PAUSED` under way).
    case opening
    /// Preroll finished: tracks, duration and size are known; waiting for play or pause
    /// (with autoplay the player moves on to `playing` by itself).
    case ready
    /// The pipeline is paused because its buffers are below 100 %; returns to where it came from.
    case buffering
    /// The playhead is moving.
    case playing
    /// Playback is possible but paused by the user.
    case paused
    /// A seek was issued and has not landed yet; returns to where it came from.
    case seeking
    /// The end of the stream was reached; left by seeking back or loading new content.
    case ended
    /// A fatal error occurred; final until a new load.
    case error
    /// Resources are being released (`stop` or `shutdown`); goes on to `idle`.
    case stopping
}

/// The legal transitions between ``PlayerState`` values: one pure table, unit-tested. Internal:
/// the engine refuses any other move; docs/ARCHITECTURE.md and ``PlayerState`` describe the model.
enum PlayerStateMachine {
    /// Every state each state may move to. A state "moving" to itself is not a transition.
    static let allowedTransitions: [PlayerState: Set<PlayerState>] = [
        .idle: [.opening, .stopping],
        .opening: [.ready, .buffering, .error, .stopping, .opening],
        .ready: [.playing, .paused, .buffering, .seeking, .ended, .error, .stopping, .opening],
        .buffering: [.opening, .ready, .playing, .paused, .seeking, .ended, .error, .stopping],
        .playing: [.paused, .buffering, .seeking, .ended, .error, .stopping, .opening],
        .paused: [.playing, .buffering, .seeking, .ended, .error, .stopping, .opening],
        .seeking: [.ready, .playing, .paused, .buffering, .ended, .error, .stopping, .opening],
        .ended: [.seeking, .playing, .paused, .opening, .error, .stopping],
        .error: [.opening, .stopping],
        .stopping: [.idle],
    ]

    /// Whether `from → to` is an edge of the model.
    static func isAllowed(from: PlayerState, to: PlayerState) -> Bool {
        allowedTransitions[from]?.contains(to) ?? false
    }
}

/// The inputs the engine derives ``PlayerState`` from; a plain value so the derivation is testable.
struct PlayerStateInputs: Equatable, Sendable {
    /// What the user asked for since the last load.
    enum Intent: Equatable, Sendable { case none, play, pause }

    var stopping = false
    var failed = false
    var loaded = false
    var prerolled = false
    var ended = false
    var seeking = false
    var buffering = false
    var intent: Intent = .none
    /// The pipeline has reached `GST_STATE_PLAYING`.
    var pipelinePlaying = false
    /// The player has left `ready` since the load: the user paused, or the pipeline reached PLAYING.
    var leftReady = false

    /// The state these inputs describe.
    var derivedState: PlayerState {
        if stopping { return .stopping }
        if failed { return .error }
        if !loaded { return .idle }
        if !prerolled { return buffering ? .buffering : .opening }
        if seeking { return .seeking }
        if ended { return .ended }
        if buffering { return .buffering }
        switch intent {
        case .none: return .ready
        case .pause: return .paused
        case .play:
            // Once playback has started, wanting PLAYING is `playing` even while the pipeline
            // passes through PAUSED (flushing seek landed, buffering over, clock lost).
            return pipelinePlaying || leftReady ? .playing : .ready
        }
    }
}
