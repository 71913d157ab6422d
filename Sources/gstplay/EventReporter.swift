import Backend
import BackendControl
import FoundationEssentials

/// Shows Backend events to the user in text mode: human notes on stderr (`Now playing …`,
/// `Video: WxH`, the sink note, warnings) unless `--quiet`, and on a TTY the status line on
/// stdout, redrawn from the events. With `--json` it shows nothing: the dispatcher writes every
/// event's JSON line (``PlayerControl/report(_:)``).
///
/// **Thread:** owned and called by the ``PlaybackController`` actor (not `Sendable`).
final class EventReporter {
    enum Mode: Equatable, Sendable {
        case json
        /// Human text; `statusLine` draws the TTY status line.
        case text(statusLine: Bool)
    }

    let mode: Mode
    let quiet: Bool
    /// Print `Video: WxH` (off with `--no-video`, where the video is not shown).
    let showsVideoSize: Bool
    private let output: Output
    private let columns: @Sendable () -> Int
    /// The player's snapshot and statistics (``Player/snapshot``, ``Player/statistics``), which
    /// the status line shows.
    private let snapshot: @Sendable () -> PlayerSnapshot
    private let statistics: @Sendable () -> PlayerStatistics
    /// The status line's model: the player's snapshot and statistics as of the last redraw.
    private(set) var statusModel = StatusLine()
    /// The last video size noted (`Video: WxH` only when it changes).
    private var lastSize: VideoSize?
    /// Whether the item has a video stream of its own (its `mediaInfo`), nil until that is known:
    /// the picture shown for audio-only media (a visualiser, cover art) has a size too, but it is
    /// not the media's video, so it gets no `Video:` line.
    private var itemHasVideo: Bool?
    /// A size reported before the item's media info: noted once the item turns out to have video.
    private var unnotedSize: VideoSize?

    /// `snapshot` and `statistics` are read on every redraw of the status line (the player's
    /// ``Player/snapshot`` and ``Player/statistics``; idle ones where no status line is drawn).
    init(output: Output, mode: Mode, quiet: Bool, showsVideoSize: Bool = true,
         columns: @escaping @Sendable () -> Int = { TerminalSize.columns() },
         snapshot: @escaping @Sendable () -> PlayerSnapshot = { PlayerSnapshot() },
         statistics: @escaping @Sendable () -> PlayerStatistics = { PlayerStatistics() }) {
        self.output = output
        self.mode = mode
        self.quiet = quiet
        self.showsVideoSize = showsVideoSize
        self.columns = columns
        self.snapshot = snapshot
        self.statistics = statistics
    }

    private var drawsStatus: Bool { mode == .text(statusLine: true) && !quiet }

    /// Reports one event; `item` says which playlist entry it belongs to.
    func report(_ event: PlayerEvent, item: EventItem?) {
        if mode == .json { return }                 // the control writes the JSON lines (PlayerControl.report)
        if let adaptive = event.adaptive {
            if let text = AdaptiveCommands.note(for: adaptive) { note(text) }
            if case .variantSwitched = adaptive { updateStatus() }   // the status line reads the variant from the snapshot
            return
        }
        switch event {
        case .sinksChosen(let video, let audio, let reason):
            if !reason.isEmpty { note("gstplay: note: \(reason) (video sink '\(video)', audio sink '\(audio)')") }
        case .uriLoaded(let uri):
            lastSize = nil
            itemHasVideo = nil
            unnotedSize = nil
            let name = item?.location ?? uri
            let counter = (item?.count ?? 1) > 1 ? " (\((item!.playPosition ?? item!.index) + 1)/\(item!.count))" : ""
            note("Now playing \(name)\(counter)")
            updateStatus()
        case .mediaSize(let size):
            guard let size else { return }
            switch itemHasVideo {
            case true?: noteVideoSize(size)
            case nil: unnotedSize = size
            case false?: break
            }
        case .warning(let warning):
            let element = warning.element.map { "\($0): " } ?? ""
            note("gstplay: warning: \(item.map { "\($0.location): " } ?? "")\(element)\(ErrorText.text(of: warning))")
        case .waitingForLiveSource(let timeout):
            let name = item?.location ?? "the live source"
            note("gstplay: waiting for the live source \(name) to send data (gives up after \(timeout.components.seconds) s without data: --network-timeout)")
        case .stateChanged, .position, .durationChanged, .buffering, .volumeChanged, .rateChanged, .endOfStream, .statistics:
            updateStatus()
        case .mediaInfo(let info):
            itemHasVideo = info.hasVideo
            if info.hasVideo, let size = unnotedSize { noteVideoSize(size) }
            unnotedSize = nil
            if info.tags.artist != nil, let title = info.tags.displayTitle { note("Now playing \(title)") }
        case .feature(let feature) where feature.payload(as: ChaptersEvent.self) != nil:
            updateStatus()
            let count = statusModel.snapshot.features[ChaptersSnapshot.self]?.chapters.count ?? 0
            if let text = feature.payload(as: ChaptersEvent.self).flatMap({ ChapterCommands.note(for: $0, count: count) }) { note(text) }
        case .feature(let feature) where feature.payload is CastEvent:
            updateStatus()   // the status line reads the renderer cast to from the snapshot
            if let text = feature.payload(as: CastEvent.self).flatMap(CastCommands.note(for:)) { note(text) }
        case .feature(let feature) where feature.payload is SyncEvent:
            updateStatus()   // the status line reads the lock from the snapshot
            if let event = feature.payload(as: SyncEvent.self) { note(WireSync.note(for: event)) }
        case .feature(let feature) where feature.payload is TagsEvent:
            updateStatus()   // the status line reads the tags from the snapshot
        case .feature(let feature) where feature.payload(as: TracksEvent.self) != nil:
            switch feature.payload(as: TracksEvent.self) {
            case .trackSelected(let kind, let index)?:
                let track = index.flatMap { index in snapshot().features[TracksSnapshot.self]?.tracks.first { $0.kind == kind && $0.index == index } }
                note(track.map { "Selected " + TrackCommands.describe($0) } ?? index.map { "\(kind.rawValue.capitalizedWord) track \($0)" } ?? "Subtitles off")
            case .subtitleCue(let cue)?:
                // On a terminal the cue is printed when due, so it stands above the status line.
                if drawsStatus { output.out("  \(cue.text.replacingScalar("\n", with: " / "))") }
            case .tracksChanged?, nil:
                break
            }
        case .feature(let feature) where feature.payload(as: MPRISEvent.self) != nil:
            if case .unavailable(let reason)? = feature.payload(as: MPRISEvent.self) { note("gstplay: MPRIS is off: \(reason)") }
        default:
            break
        }
    }

    /// `Video: WxH` when the size differs from the last one noted (and video is shown).
    private func noteVideoSize(_ size: VideoSize) {
        let changed = lastSize != size
        lastSize = size
        if changed && showsVideoSize { note("Video: \(size.width)x\(size.height)") }
    }

    /// The one line for a failed item, always shown (also with `--quiet` and `--json`, on stderr):
    /// `gstplay: error: <location>: <message>`.
    func failure(location: String, error: PlayerError) {
        output.err("gstplay: error: \(location): \(ErrorText.text(of: error))")
    }

    /// A human note on stderr (text mode, not `--quiet`).
    func note(_ text: String) {
        guard case .text = mode, !quiet else { return }
        output.err(text)
    }

    /// Redraws the TTY status line from the player's snapshot and statistics now.
    func updateStatus() {
        statusModel.snapshot = snapshot()
        statusModel.statistics = statistics()
        guard drawsStatus else { return }
        output.status(statusModel.render(columns: columns()))
    }
}
