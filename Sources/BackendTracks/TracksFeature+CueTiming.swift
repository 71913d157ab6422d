import BackendCore
import CGStreamer

/// Publishing each subtitle cue when it is due (loop thread).
///
/// The cue sink renders on the clock, so cues normally arrive on time. After a user seek on
/// media with an external subtitle file (playbin `suburi` → `subparse`), 1.22 could release the
/// next cues at once instead (seen: a cue due 0.3 s after the landing point came immediately, and
/// the two after it 1.8 s and 2.9 s early), while their stream times were right: `subparse` had
/// pushed the segment of the position before the seek (``SubtitleSegmentRepair`` now repairs it).
/// A cue whose start is ahead of the audio/video position, or arrives while a seek is landing, is
/// still held and published when playback reaches it.
extension TracksFeature {
    /// How far ahead of the audio/video position a cue may arrive and still be published at once:
    /// about a frame, the lag of the position the sinks report.
    static let cueEarlinessTolerance = MediaTime(nanoseconds: 40_000_000)

    /// Publishes `cue` now when it is due, otherwise holds it until the position reaches its start.
    func publishWhenDue(_ cue: SubtitleCue) {
        let index = tracks.heldCues.firstIndex { $0.start > cue.start } ?? tracks.heldCues.endIndex
        tracks.heldCues.insert(cue, at: index)
        releaseDueCues()
    }

    /// Publishes the held cues whose start playback reached and arms a timer for the next one
    /// (its distance at the current rate, at most 100 ms; every 50 ms while not playing).
    func releaseDueCues() {
        tracks.cueTimer?.destroy()
        tracks.cueTimer = nil
        guard let context else { return }
        // During a seek the position is the old one: hold everything until it lands.
        let progress = context.progress
        let seeking = progress.seeking
        let rate = context.media.rate
        let position = context.media.queryPosition()
        while !seeking, let first = tracks.heldCues.first {
            if let position, rate > 0, first.start > position + Self.cueEarlinessTolerance { break }
            tracks.heldCues.removeFirst()
            context.publish(TracksEvent.subtitleCue(first))
        }
        guard let next = tracks.heldCues.first, let position else { return }
        let playing = context.media.pipelineState == GST_STATE_PLAYING && !progress.buffering && !seeking
        let wait: Duration = playing ? .nanoseconds(MediaTime(seconds: (next.start - position).seconds / rate).nanoseconds) : .milliseconds(50)
        // At most 100 ms between checks: a position read just after a seek can still be stale.
        tracks.cueTimer = context.loop.addTimer(every: min(max(wait, .milliseconds(1)), .milliseconds(100))) { [unowned self] in
            self.tracks.cueTimer = nil
            self.releaseDueCues()
            return false
        }
    }

    /// Forgets the held cues (a seek, a load, the end): the cue sink sends the new position's cues.
    func dropHeldCues() {
        tracks.heldCues.removeAll()
        tracks.cueTimer?.destroy()
        tracks.cueTimer = nil
    }
}
