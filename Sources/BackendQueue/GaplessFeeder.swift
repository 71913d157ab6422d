import BackendCore
import CGStreamer
import Synchronization

/// Gapless hand-over from one queue item to the next, the way `gst-play-1.0 --gapless` does it:
/// when `playbin` emits `about-to-finish` (the current stream's data is all queued), the next
/// item becomes `playbin.uri`, and playbin plays it back to back with no gap.
///
/// **Threads:** `about-to-finish` is emitted on a GStreamer streaming thread, so the decision is
/// made ahead of time: the loop thread stores the next URIs with ``prepare(upcoming:)`` (two, so a
/// short item whose `about-to-finish` comes right after the previous hand-over still finds one) and
/// the handler only takes the first under a lock (never touching engine state). The handler then posts an
/// application message (``messageName``) on the bus, which brings the news back to the loop
/// thread; the new item is actually playing at the next `GST_MESSAGE_STREAM_START`.
///
/// The signal itself is connected by the core (`FeatureContext.pipeline.handOverOnAboutToFinish`),
/// which sets `playbin.uri` to what ``next(videoStreams:)`` answers and posts the message.
final class GaplessFeeder: Sendable {
    /// Name of the application message posted when the next URI was handed to playbin.
    static let messageName = "gstplay-gapless-handover"

    private struct State {
        var upcoming: [String] = []
        var handedOver: [String] = []
        var enabled = true
    }

    private let state = Mutex(State())

    /// Creates an idle feeder (nothing prepared).
    init() {}

    /// The URIs to play after the current item, in order (empty: let the stream end). Any thread.
    func prepare(upcoming uris: [String]) { state.withLock { $0.upcoming = uris } }

    /// Plans the next URIs atomically with respect to hand-overs: `plan` runs under the feeder's
    /// lock and is given the URIs already handed to playbin whose message the loop thread has not
    /// taken yet (``takeHandedOver()``), so it never offers one of them a second time even when a
    /// hand-over happened after the caller last looked. Loop thread.
    func prepare(_ plan: (_ handedOverNotTaken: [String]) -> [String]) {
        state.withLock { $0.upcoming = plan($0.handedOver) }
    }

    /// The URIs prepared for hand-overs.
    var prepared: [String] { state.withLock { $0.upcoming } }

    /// Turns hand-overs on or off (off: every item ends with EOS). Any thread.
    func setEnabled(_ on: Bool) { state.withLock { $0.enabled = on } }

    /// Whether hand-overs are on.
    var isEnabled: Bool { state.withLock { $0.enabled } }

    /// Whether a URI was handed to playbin that the loop thread has not taken yet: playbin's
    /// stream counts and tags may then already describe that next item. Any thread.
    var hasHandedOver: Bool { state.withLock { !$0.handedOver.isEmpty } }

    /// The URIs handed to playbin since the last call, oldest first (loop thread, on the
    /// ``messageName`` message).
    func takeHandedOver() -> [String] { state.withLock { s in defer { s.handedOver = [] }; return s.handedOver } }

    /// Forgets what was prepared and handed over (a new load, a stop).
    func reset() { state.withLock { $0.upcoming = []; $0.handedOver = [] } }

    /// The URI to hand to playbin at `about-to-finish` (streaming thread, through
    /// `FeatureContext.pipeline.handOverOnAboutToFinish`), nil to let the stream end: the first
    /// prepared one, remembered as handed over.
    func next(videoStreams: Int) -> String? {
        // Audio only: a hand-over while a video stream plays was seen to stall playbin (1.22) and
        // hang its shutdown; such items end with EOS and the next one is loaded afresh.
        guard videoStreams == 0 else { return nil }
        return state.withLock { s in
            guard s.enabled, !s.upcoming.isEmpty else { return nil }
            let next = s.upcoming.removeFirst()
            s.handedOver.append(next)
            return next
        }
    }

    /// True when `message` is the feeder's hand-over message.
    static func isHandover(_ message: UnsafeMutablePointer<GstMessage>) -> Bool {
        guard CGStreamer_message_type(message) == GST_MESSAGE_APPLICATION,
              let structure = gst_message_get_structure(message), let name = gst_structure_get_name(structure) else { return false }
        return String(cString: name) == messageName
    }
}
