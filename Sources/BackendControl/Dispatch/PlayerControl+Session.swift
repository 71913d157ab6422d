import Backend

/// The session a ``PlayerControl`` keeps beside the commands: resume (PlayerControl+Resume.swift)
/// and the track choices of its ``PlayerControl/Configuration/tracks`` applied per item, with the
/// `track` commands given before the tracks were known. Problems go to ``PlayerControl/Configuration/notes``.
///
/// **Thread:** the ``PlayerControl`` actor.
extension PlayerControl {
    /// Applies the track choices that come before the first load (the offsets, the subtitle
    /// file); call it once, before the queue starts. Without ``Configuration/tracks``: nothing.
    public func startTracks() {
        guard let tracks else { return }
        note(tracks.start(player))
    }

    /// The session's step for a reported event (after its mpv events): resume's (a load's stored
    /// choices, an ended item forgotten), then a new queue item gets the track choices again and
    /// an item's first track list gets the pending selections.
    func advanceSession(_ record: PlayerEventRecord) {
        guard !isShutDown else { return }
        advanceResume(record)
        guard let tracks else { return }
        if case .itemChanged? = record.event.payload(as: QueueEvent.self) { tracks.itemChanged() }
        if case .feature(let feature) = record.event, feature.payload(as: TracksEvent.self)?.isTracksChanged == true {
            note(tracks.tracksArrived(player))
        }
    }

    /// `--resume`'s choices for the item loading: its track selections, A-B loop and subtitle file
    /// are applied once its tracks are known (the track choices still win). Without
    /// ``Configuration/tracks``: nothing.
    public func restoreTracksWhenKnown(_ settings: ResumeSettings) {
        tracks?.restoreWhenKnown(settings)
    }

    /// Each line to ``Configuration/notes``.
    func note(_ lines: [String]) {
        for line in lines { configuration.notes(line) }
    }
}
