import Backend
import Foundation
import StreamingQoE
import Synchronization

/// gstplay's ABR in a QoE run: one Backend `Player` (fake sinks, `sync=true`, position
/// ticks every 100 ms) with `AdaptivePolicy.rule` set, everything else at its defaults (start on
/// the lowest variant, decodebin's buffering queue). Runs on the child's main thread; the watcher
/// is called on the player's loop thread.
enum ABRBackendChild {
    static func run(uri: String, rule: ABRRule, name: String, seconds: Double) throws -> (record: ABRChildRecord, teardown: () -> Void) {
        var configuration = ChildSupport.configuration(sync: true)
        configuration.positionInterval = .milliseconds(100)
        var standard = StandardFeatures()
        standard.adaptivePolicy.rule = rule
        let watcher = ABRBackendWatcher()
        let player = Player(configuration: configuration, standard: standard, delegate: watcher)
        let load = MonotonicClock.now()
        player.load(uri)
        let deadline = load + seconds
        while MonotonicClock.now() < deadline { usleep(20_000) }
        let end = MonotonicClock.now()
        var record = watcher.record(player: name, load: load, end: end)
        record.ownStalls = record.ownStalls.map { $0.end < $0.start ? .init(start: $0.start, end: end) : $0 }
        return (record, { player.shutdown() })
    }
}

/// Collects positions, the player's buffer level and its stall edges (loop thread), read once at the end.
private final class ABRBackendWatcher: PlayerDelegate {
    private struct State {
        var playing: Double?
        var samples: [PositionSample] = []
        var buffer: [PositionSample] = []
        var stalls: [PlayedSession.Stall] = []
        var error: String?
    }
    private let state = Mutex(State())

    func player(_ player: Player, didUpdatePosition position: MediaTime, duration: MediaTime?) {
        let now = MonotonicClock.now()
        let level = player.adaptiveInfo.bufferSeconds
        state.withLock {
            $0.samples.append(PositionSample(time: now, position: position.seconds))
            if let level { $0.buffer.append(PositionSample(time: now, position: level)) }
        }
    }

    func player(_ player: Player, didReceive event: PlayerEvent) {
        let now = MonotonicClock.now()
        state.withLock { state in
            if case .stateChanged(_, .playing) = event, state.playing == nil { state.playing = now }
            switch event.adaptive {
            case .stallStarted?: state.stalls.append(.init(start: now, end: -1))
            case .stallEnded?:
                if let last = state.stalls.indices.last, state.stalls[last].end < 0 { state.stalls[last].end = now }
            default: break
            }
        }
    }

    func player(_ player: Player, didFail error: PlayerError) {
        state.withLock { $0.error = "\(error)" }
    }

    func record(player: String, load: Double, end: Double) -> ABRChildRecord {
        state.withLock {
            ABRChildRecord(player: player, loadTime: load, playingTime: $0.playing, endTime: end, samples: $0.samples,
                           ownBuffer: $0.buffer, ownStalls: $0.stalls, error: $0.error)
        }
    }
}
