import Backend
import BackendControl
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where a Backend event belongs in the playlist: its 0-based index, the list size, the
/// location as the user typed it, and its URI — made per event from the Backend's snapshot as it
/// stood when the event was raised (``PlaybackController/item(of:)``), never kept. A plain value;
/// any thread.
struct ItemContext: Equatable, Sendable {
    var index: Int
    var count: Int
    var location: String
    var uri: String? = nil
    /// Where the item is in the play order (0-based; differs from `index` with `--shuffle`), for the counter.
    var playPosition: Int? = nil
}

/// Shows Backend events to the user in the chosen mode:
/// - `--json`: every event as the protocol's JSON line on stdout (BackendControl's ``WireEventLines``);
/// - text: human notes on stderr (`Now playing …`, `Video: WxH`, the sink note, warnings)
///   unless `--quiet`, and on a TTY the status line on stdout, redrawn from the events.
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
    /// The player's snapshot (``Player/snapshot``), which the status line shows.
    private let snapshot: @Sendable () -> PlayerSnapshot
    /// The status line's model: the player's snapshot as of the last redraw, plus what the
    /// statistics and adaptive events add.
    private(set) var statusModel = StatusLine()
    /// The last video size noted (`Video: WxH` only when it changes).
    private var lastSize: VideoSize?
    /// Whether the item has a video stream of its own (its `mediaInfo`), nil until that is known:
    /// the picture shown for audio-only media (a visualiser, cover art) has a size too, but it is
    /// not the media's video, so it gets no `Video:` line.
    private var itemHasVideo: Bool?
    /// A size reported before the item's media info: noted once the item turns out to have video.
    private var unnotedSize: VideoSize?
    /// The events as the protocol's JSON lines (with its buffering `message` events).
    private var wireLines = WireEventLines()
    /// Control clients (`--input-ipc-server`): every event line goes to them too, in any mode.
    private let control: ControlHub?

    /// `snapshot` is read on every redraw of the status line (the player's ``Player/snapshot``;
    /// an idle one where no status line is drawn).
    init(output: Output, mode: Mode, quiet: Bool, showsVideoSize: Bool = true,
         columns: @escaping @Sendable () -> Int = { TerminalSize.columns() },
         snapshot: @escaping @Sendable () -> PlayerSnapshot = { PlayerSnapshot() }, control: ControlHub? = nil) {
        self.output = output
        self.control = control
        self.mode = mode
        self.quiet = quiet
        self.showsVideoSize = showsVideoSize
        self.columns = columns
        self.snapshot = snapshot
    }

    private var drawsStatus: Bool { mode == .text(statusLine: true) && !quiet }

    /// Reports one event; `item` says which playlist entry it belongs to, `loadID` which load
    /// (the JSON lines' `load_id`).
    func report(_ event: PlayerEvent, item: ItemContext?, loadID: LoadID? = nil) {
        if mode == .json || control?.hasClients == true {
            for line in wireLines.lines(for: event, item: item.map { ($0.index, $0.count) }, loadID: loadID) {
                if mode == .json { output.out(line) }
                if !line.isEmpty { control?.broadcast(line) }
            }
            if mode == .json { return }
        }
        if let adaptive = event.adaptive {
            if let text = AdaptiveCommands.note(for: adaptive) { note(text) }
            if case .variantSwitched(_, let to, _) = adaptive { updateStatus { $0.variant = to.label } }
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
            updateStatus { $0.droppedFrames = 0; $0.bitrate = nil; $0.variant = nil }
        case .mediaSize(let size):
            guard let size else { return }
            switch itemHasVideo {
            case true?: noteVideoSize(size)
            case nil: unnotedSize = size
            case false?: break
            }
        case .warning(let warning):
            let element = warning.element.map { "\($0): " } ?? ""
            note("gstplay: warning: \(item.map { "\($0.location): " } ?? "")\(element)\(Self.text(of: warning))")
        case .waitingForLiveSource(let timeout):
            let name = item?.location ?? "the live source"
            note("gstplay: waiting for the live source \(name) to send data (gives up after \(timeout.components.seconds) s without data: --network-timeout)")
        case .stateChanged, .position, .durationChanged, .buffering, .volumeChanged, .rateChanged, .endOfStream:
            updateStatus { _ in }
        case .statistics(let stats):
            updateStatus { $0.droppedFrames = stats.droppedFrames; $0.bitrate = stats.bitrate ?? stats.averageBitrate }
        case .mediaInfo(let info):
            itemHasVideo = info.hasVideo
            if info.hasVideo, let size = unnotedSize { noteVideoSize(size) }
            unnotedSize = nil
            if info.tags.artist != nil, let title = info.tags.displayTitle { note("Now playing \(title)") }
        case .feature(let feature) where feature.payload(as: ChaptersEvent.self) != nil:
            updateStatus { _ in }
            let count = statusModel.snapshot.features[ChaptersSnapshot.self]?.chapters.count ?? 0
            if let text = feature.payload(as: ChaptersEvent.self).flatMap({ ChapterCommands.note(for: $0, count: count) }) { note(text) }
        case .feature(let feature) where feature.payload is CastEvent:
            updateStatus { _ in }   // the status line reads the renderer cast to from the snapshot
            if let text = feature.payload(as: CastEvent.self).flatMap(CastCommands.note(for:)) { note(text) }
        case .feature(let feature) where feature.payload is SyncEvent:
            updateStatus { _ in }   // the status line reads the lock from the snapshot
            if let event = feature.payload(as: SyncEvent.self) { note(WireSync.note(for: event)) }
        case .feature(let feature) where feature.payload is TagsEvent:
            updateStatus { _ in }   // the status line reads the tags from the snapshot
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
        output.err("gstplay: error: \(location): \(Self.text(of: error))")
    }

    /// The message, the operating system's reason if GStreamer only put it in the debug text
    /// (`Could not open file "x" for reading. (Permission denied)`), why a streaming thread
    /// stopped (``PlayerError/streamingStopReason``), the HTTP status if any, and
    /// the missing plugins the message does not name already.
    static func text(of error: PlayerError) -> String {
        var text = error.message
        if let reason = systemReason(inDebug: error.debug), !text.containsIgnoringCase(reason) { text += " (\(reason))" }
        if let reason = error.streamingStopReason { text += " (streaming stopped: \(reason))" }
        if let status = error.httpStatus, !text.contains(String(status)) { text += " (HTTP \(status))" }
        let missing = error.missingPlugins.filter { !error.message.contains($0) }
        if !missing.isEmpty { text += " (missing: " + missing.joined(separator: ", ") + ")" }
        return text
    }

    /// The `strerror` text GStreamer elements append to their debug string as a last line
    /// `system error: <reason>` (e.g. filesrc's `system error: Permission denied`), or nil.
    static func systemReason(inDebug debug: String?) -> String? {
        guard let last = debug?.split(whereSeparator: \.isNewline).last, last.hasPrefix("system error: ") else { return nil }
        let reason = last.dropFirst("system error: ".count).trimmingWhitespace()
        return reason.isEmpty ? nil : String(ConsoleCommand.printable(reason))
    }

    /// A human note on stderr (text mode, not `--quiet`).
    func note(_ text: String) {
        guard case .text = mode, !quiet else { return }
        output.err(text)
    }

    /// Updates the status model (the player's snapshot now, and `change`) and redraws the TTY
    /// status line.
    func updateStatus(_ change: (inout StatusLine) -> Void) {
        statusModel.snapshot = snapshot()
        change(&statusModel)
        guard drawsStatus else { return }
        output.status(statusModel.render(columns: columns()))
    }
}
