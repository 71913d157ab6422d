@testable import BackendCore
import Backend
import TestSupport
import XCTest

/// The state table and the derivation of the explicit state from engine inputs.
final class StateModelTests: XCTestCase {
    func testEveryStateHasAnEntryAndNoSelfLoopsExceptReopen() {
        for state in PlayerState.allCases {
            XCTAssertNotNil(PlayerStateMachine.allowedTransitions[state], "\(state) missing from the table")
        }
        XCTAssertFalse(PlayerStateMachine.isAllowed(from: .playing, to: .playing))
    }

    func testSeedRules() {
        // error is final until a new load (or release)
        XCTAssertEqual(PlayerStateMachine.allowedTransitions[.error], [.opening, .stopping])
        // stopping only ends in idle
        XCTAssertEqual(PlayerStateMachine.allowedTransitions[.stopping], [.idle])
        // ended is left by seeking back or loading new content
        XCTAssertTrue(PlayerStateMachine.isAllowed(from: .ended, to: .seeking))
        XCTAssertTrue(PlayerStateMachine.isAllowed(from: .ended, to: .opening))
        // idle cannot jump to playing without opening
        XCTAssertFalse(PlayerStateMachine.isAllowed(from: .idle, to: .playing))
        XCTAssertFalse(PlayerStateMachine.isAllowed(from: .opening, to: .playing))
        // buffering and seeking return to where they came from
        for origin in [PlayerState.playing, .paused] {
            XCTAssertTrue(PlayerStateMachine.isAllowed(from: origin, to: .buffering))
            XCTAssertTrue(PlayerStateMachine.isAllowed(from: .buffering, to: origin))
            XCTAssertTrue(PlayerStateMachine.isAllowed(from: origin, to: .seeking))
            XCTAssertTrue(PlayerStateMachine.isAllowed(from: .seeking, to: origin))
        }
    }

    func testDerivationOfANormalPlay() {
        var inputs = PlayerStateInputs()
        XCTAssertEqual(inputs.derivedState, .idle)
        inputs.loaded = true
        inputs.intent = .play
        XCTAssertEqual(inputs.derivedState, .opening)
        inputs.prerolled = true
        XCTAssertEqual(inputs.derivedState, .ready)
        inputs.pipelinePlaying = true
        XCTAssertEqual(inputs.derivedState, .playing)
        inputs.ended = true
        XCTAssertEqual(inputs.derivedState, .ended)
        inputs.stopping = true
        XCTAssertEqual(inputs.derivedState, .stopping)
    }

    func testDerivationPrecedence() {
        var inputs = PlayerStateInputs(loaded: true, prerolled: true, intent: .play, pipelinePlaying: true)
        inputs.buffering = true
        XCTAssertEqual(inputs.derivedState, .buffering)
        inputs.seeking = true
        XCTAssertEqual(inputs.derivedState, .seeking, "a seek during buffering shows as seeking")
        inputs.failed = true
        XCTAssertEqual(inputs.derivedState, .error)
        var opening = PlayerStateInputs(loaded: true, buffering: true)
        XCTAssertEqual(opening.derivedState, .buffering, "buffering before preroll")
        opening.buffering = false
        XCTAssertEqual(opening.derivedState, .opening)
    }

    func testWithoutAutoplayReadyWaitsThenPausedOrPlaying() {
        var inputs = PlayerStateInputs(loaded: true, prerolled: true)
        XCTAssertEqual(inputs.derivedState, .ready)
        inputs.intent = .pause
        inputs.leftReady = true
        XCTAssertEqual(inputs.derivedState, .paused)
        inputs.intent = .play
        XCTAssertEqual(inputs.derivedState, .playing, "the user's intent, while the pipeline gets there")
        inputs = PlayerStateInputs(loaded: true, prerolled: true, intent: .play)
        XCTAssertEqual(inputs.derivedState, .ready, "autoplay: ready until PLAYING is first reached")
        inputs.pipelinePlaying = true
        XCTAssertEqual(inputs.derivedState, .playing)
    }

    /// Every sequence of single-input changes from the derivation lands on an allowed edge
    /// (or stays put): exhaustive over the boolean inputs.
    func testAllSingleInputChangesAreAllowedEdges() {
        let intents: [PlayerStateInputs.Intent] = [.none, .play, .pause]
        var all: [PlayerStateInputs] = []
        for bits in 0..<(1 << 9) {
            for intent in intents {
                var i = PlayerStateInputs()
                i.stopping = bits & 1 != 0; i.failed = bits & 2 != 0; i.loaded = bits & 4 != 0
                i.prerolled = bits & 8 != 0; i.ended = bits & 16 != 0; i.seeking = bits & 32 != 0
                i.buffering = bits & 64 != 0; i.pipelinePlaying = bits & 128 != 0; i.leftReady = bits & 256 != 0
                i.intent = intent
                all.append(i)
            }
        }
        var refused = Set<String>()
        for a in all {
            // the engine only ever resets to fresh inputs via stopping or a new load, so check
            // single flips of seeking, buffering, ended, pipelinePlaying and intent after preroll
            guard a.loaded, a.prerolled, !a.failed, !a.stopping else { continue }
            guard !a.pipelinePlaying || a.leftReady else { continue } // reaching PLAYING sets leftReady
            var variants: [PlayerStateInputs] = []
            var b = a; b.seeking.toggle(); variants.append(b)
            b = a; b.buffering.toggle(); variants.append(b)
            b = a; b.pipelinePlaying.toggle(); if b.pipelinePlaying { b.leftReady = true }; variants.append(b)
            b = a; b.ended = true; b.seeking = false; variants.append(b)
            for v in variants where a.derivedState != v.derivedState {
                if !PlayerStateMachine.isAllowed(from: a.derivedState, to: v.derivedState) {
                    refused.insert("\(a.derivedState) → \(v.derivedState)")
                }
            }
        }
        XCTAssertEqual(refused, [], "derivation produces edges the table refuses")
    }

    /// Preroll ends with the user's wish already known (a pause, a seek or the end asked for while
    /// opening, e.g. space typed into the window before the first frame): the state passes through
    /// `ready` instead of being refused and stuck at `opening` (seen in ChapterWindowKeysTests).
    func testPrerollWithAPendingWishPassesThroughReady() {
        var playback = PlaybackState()
        playback.state = .opening
        playback.inputs = PlayerStateInputs(loaded: true, prerolled: true, intent: .pause, leftReady: true)
        XCTAssertEqual(steps(&playback), ["opening → ready", "ready → paused"])
        let intents: [PlayerStateInputs.Intent] = [.none, .play, .pause]
        for bits in 0..<(1 << 5) {
            for intent in intents {
                var inputs = PlayerStateInputs(loaded: true, prerolled: true, intent: intent)
                inputs.ended = bits & 1 != 0; inputs.seeking = bits & 2 != 0; inputs.buffering = bits & 4 != 0
                inputs.pipelinePlaying = bits & 8 != 0; inputs.leftReady = bits & 16 != 0 || inputs.pipelinePlaying
                for start in [PlayerState.opening, .buffering] {
                    var playback = PlaybackState()
                    playback.state = start
                    playback.inputs = inputs
                    let path = steps(&playback)
                    XCTAssertFalse(path.contains { $0.hasPrefix("refused") }, "\(start) with \(inputs): \(path)")
                    XCTAssertEqual(playback.state, inputs.derivedState)
                }
            }
        }
    }

    /// Advances until nothing moves; each step as `from → to` or `refused from → to`.
    private func steps(_ playback: inout PlaybackState) -> [String] {
        var path: [String] = []
        for _ in 0..<4 {
            switch playback.advance() {
            case .none: return path
            case .allowed(let from, let to): path.append("\(from) → \(to)")
            case .refused(let from, let to): path.append("refused \(from) → \(to)"); return path
            }
        }
        return path
    }
}
