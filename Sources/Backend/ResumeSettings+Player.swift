import BackendCore
import BackendResume
import BackendTracks

/// What to take from a ``Player`` and how to give it back: the capture reads the one snapshot
/// (any thread, never waits for the loop thread, so the signal path may use it too); the
/// restore goes through the Player's public setters.
extension ResumeSettings {
    /// The fields of `settings` as `player` has them now (``Player/snapshot``, its tracks section).
    public init(capturing player: Player, keeping settings: Set<ResumeSetting>) {
        let snapshot = player.snapshot
        let tracks = snapshot.features[TracksSnapshot.self] ?? TracksSnapshot()
        var all = ResumeSettings()
        all.volume = snapshot.volume
        all.muted = snapshot.muted
        all.rate = snapshot.rate
        if !tracks.tracks.isEmpty {              // before preroll the selection is not the media's
            all.audioTrack = tracks.selection.audio
            all.subtitleTrack = .some(tracks.selection.subtitle)
        }
        all.subtitleFiles = tracks.subtitleFile.map { [$0] }
        all.subtitleDelay = tracks.subtitleOffset
        all.abLoopA = snapshot.abLoop.a?.seconds
        all.abLoopB = snapshot.abLoop.b?.seconds
        all.abLoopCount = .some(snapshot.abLoop.count)
        self = all.keeping(settings).possible()
    }

    /// Gives `player` back what takes effect at once: volume, mute, rate and subtitle delay.
    /// Call once the item's load began (its `uriLoaded`), before it plays.
    /// - Returns: one line (no prefix) per value the player refused.
    public func applyAtLoad(to player: Player) -> [String] {
        var problems: [String] = []
        if let volume { player.setVolume(volume) }
        if let muted { player.setMuted(muted) }
        if let rate {
            do throws(PlayerError) { try player.setRate(rate) } catch { problems.append("speed \(rate): \(error.message)") }
        }
        if let subtitleDelay { player.setSubtitleOffset(milliseconds: subtitleDelay) }
        return problems
    }

    /// Gives `player` back the A-B loop and the subtitle file. Call once the item's streams are
    /// known (prerolled, at the resumed position), after ``trackSelections`` were made: a load
    /// forgets the loop's points, and the subtitle file is added by a reload at the position.
    /// - Returns: one line (no prefix) per value the player refused.
    public func applyWhenPrerolled(to player: Player) -> [String] {
        var problems: [String] = []
        if abLoopA != nil || abLoopB != nil || abLoopCount != nil {
            let loop = player.snapshot.abLoop
            do throws(PlayerError) {
                try player.setABLoop(a: abLoopA.map(MediaTime.init(seconds:)) ?? loop.a, b: abLoopB.map(MediaTime.init(seconds:)) ?? loop.b,
                                     count: abLoopCount ?? loop.count)
            } catch {
                problems.append("ab-loop: \(error.message)")
            }
        }
        if let file = subtitleFiles?.last {
            do throws(PlayerError) { try player.addSubtitleFile(file) } catch { problems.append("sub-files: \(error.message)") }
        }
        return problems
    }

    /// The track selections to make once the item's tracks are known (audio, then subtitles;
    /// `nil` index: subtitles off), for the caller's per-item track path.
    public var trackSelections: [(kind: TrackKind, index: Int?)] {
        var selections: [(kind: TrackKind, index: Int?)] = []
        if let audioTrack { selections.append((.audio, audioTrack)) }
        if let subtitleTrack { selections.append((.subtitle, subtitleTrack)) }
        return selections
    }
}
