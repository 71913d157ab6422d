import Backend
import Foundation
import Synchronization

/// Where a Backend event belongs in the playlist: its 0-based index, the list size, and the
/// location as the user typed it. A plain value; any thread.
struct ItemContext: Equatable, Sendable {
    var index: Int
    var count: Int
    var location: String
}

/// Shows Backend events to the user in the chosen mode:
/// - `--json`: every event as one JSON line on stdout;
/// - text: human notes on stderr (`Now playing …`, `Video: WxH`, the sink note, warnings)
///   unless `--quiet`, and on a TTY the status line on stdout, redrawn from the events.
///
/// **Thread:** called on the ``PlaybackController``'s queue; the status-line model sits
/// behind a `Mutex`, so other threads may call it too.
final class EventReporter: Sendable {
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
    private let model = Mutex(StatusLine())
    private let lastSize = Mutex<VideoSize?>(nil)

    init(output: Output, mode: Mode, quiet: Bool, showsVideoSize: Bool = true,
         columns: @escaping @Sendable () -> Int = { TerminalSize.columns() }) {
        self.output = output
        self.mode = mode
        self.quiet = quiet
        self.showsVideoSize = showsVideoSize
        self.columns = columns
    }

    private var drawsStatus: Bool { mode == .text(statusLine: true) && !quiet }

    /// Reports one event; `item` says which playlist entry it belongs to.
    func report(_ event: PlayerEvent, item: ItemContext?) {
        if mode == .json {
            output.out(JSONProtocol.event(event, item: item.map { ($0.index, $0.count) }).serialized)
            return
        }
        switch event {
        case .sinksChosen(let video, let audio, let reason):
            note("gstplay: note: \(reason): using video sink '\(video)' and audio sink '\(audio)'")
        case .uriLoaded(let uri):
            lastSize.withLock { $0 = nil }
            let name = item?.location ?? uri
            let counter = (item?.count ?? 1) > 1 ? " (\(item!.index + 1)/\(item!.count))" : ""
            note("Now playing \(name)\(counter)")
            updateStatus { $0.position = nil; $0.duration = nil; $0.bufferingPercent = 100; $0.droppedFrames = 0; $0.bitrate = nil }
        case .mediaSize(let size):
            guard let size else { return }
            let changed = lastSize.withLock { last -> Bool in
                defer { last = size }
                return last != size
            }
            if changed && showsVideoSize { note("Video: \(size.width)x\(size.height)") }
        case .warning(let warning):
            let element = warning.element.map { "\($0): " } ?? ""
            note("gstplay: warning: \(item.map { "\($0.location): " } ?? "")\(element)\(Self.text(of: warning))")
        case .stateChanged(_, let to):
            updateStatus { $0.state = to }
        case .position(let position, let duration):
            updateStatus { $0.position = position; $0.duration = duration }
        case .durationChanged(let duration):
            updateStatus { $0.duration = duration }
        case .buffering(let percent):
            updateStatus { $0.bufferingPercent = percent }
        case .volumeChanged(let volume, let muted):
            let percent = Int(JSONProtocol.volumePercent(linear: volume).rounded())
            updateStatus { $0.volumePercent = percent; $0.muted = muted }
        case .rateChanged(let rate):
            updateStatus { $0.rate = rate }
        case .endOfStream(let position):
            updateStatus { $0.position = position }
        case .statistics(let stats):
            updateStatus { $0.droppedFrames = stats.droppedFrames; $0.bitrate = stats.bitrate ?? stats.averageBitrate }
        default:
            break
        }
    }

    /// The one line for a failed item, always shown (also with `--quiet` and `--json`, on stderr):
    /// `gstplay: error: <location>: <message>`.
    func failure(location: String, error: PlayerError) {
        output.err("gstplay: error: \(location): \(Self.text(of: error))")
    }

    /// The message, the operating system's reason if GStreamer only put it in the debug text
    /// (`Could not open file "x" for reading. (Permission denied)`), the HTTP status if any, and
    /// the missing plugins the message does not name already.
    static func text(of error: PlayerError) -> String {
        var text = error.message
        if let reason = systemReason(inDebug: error.debug), !text.localizedCaseInsensitiveContains(reason) { text += " (\(reason))" }
        if let status = error.httpStatus, !text.contains(String(status)) { text += " (HTTP \(status))" }
        let missing = error.missingPlugins.filter { !error.message.contains($0) }
        if !missing.isEmpty { text += " (missing: " + missing.joined(separator: ", ") + ")" }
        return text
    }

    /// The `strerror` text GStreamer elements append to their debug string as a last line
    /// `system error: <reason>` (e.g. filesrc's `system error: Permission denied`), or nil.
    static func systemReason(inDebug debug: String?) -> String? {
        guard let last = debug?.split(whereSeparator: \.isNewline).last, last.hasPrefix("system error: ") else { return nil }
        let reason = last.dropFirst("system error: ".count).trimmingCharacters(in: .whitespaces)
        return reason.isEmpty ? nil : String(ConsoleCommand.printable(reason))
    }

    /// A human note on stderr (text mode, not `--quiet`).
    func note(_ text: String) {
        guard case .text = mode, !quiet else { return }
        output.err(text)
    }

    /// Updates the status model and redraws the TTY status line.
    func updateStatus(_ change: (inout StatusLine) -> Void) {
        let line = model.withLock { model -> StatusLine in
            change(&model)
            return model
        }
        guard drawsStatus else { return }
        output.status(line.render(columns: columns()))
    }

    /// The current status model (for tests and the key handler).
    var statusModel: StatusLine { model.withLock { $0 } }
}
