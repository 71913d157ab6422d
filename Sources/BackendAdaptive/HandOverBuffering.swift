import BackendCore
import CGStreamer

/// The variant hand-over of the buffer-aware rule (docs/ADR-003-buffer-aware-abr.md).
///
/// `hlsdemux` (1.22) exposes new source pads for every variant switch ("Subclass wants new pads
/// to do bitrate switching"), so decodebin builds a new group, with a new buffering multiqueue,
/// and only links it once the old group has drained. The new variant's first fragment waits in
/// front of the new group meanwhile (bytes in the queue before `tsdemux`), and the new buffering
/// queue starts nearly empty: it posts BUFFERING ~3 %, the player pauses and waits for 99 % of
/// its 5 s — a 1.3–1.7 s stall at every switch made during playback, measured on a 6000 kbit/s
/// link as on a 2000 kbit/s one (playbin's own default does the same).
///
/// Under ``ABRRule/bufferAware`` such a level is consumed while the stream's real buffer (every
/// queue, the waiting bytes included, ``AdaptiveElements/bufferedSeconds()``) holds at least
/// ``floorSeconds``: playback goes on with the fragment already downloaded. A real underrun still
/// pauses: once the level is under the floor the message goes to the core's buffering rule, and
/// a position that freezes without one is caught by the frozen-position watch.
extension AdaptiveFeature {
    /// The buffer under which a switch group's BUFFERING is passed on: decodebin's own low
    /// watermark (10 % of its 5 s queue).
    public static let handOverFloorSeconds = 0.5

    /// True when `message` (BUFFERING) is a switch group's hand-over level to consume (loop thread).
    func isHandOverBuffering(_ message: UnsafeMutablePointer<GstMessage>) -> Bool {
        guard monitor.policy.rule == .bufferAware, monitor.isAdaptive, let context, !context.progress.buffering,
              let source = message.pointee.src, monitor.elements.isSwitchQueue(UnsafeMutableRawPointer(source)) else { return false }
        var percent: gint = 100
        gst_message_parse_buffering(message, &percent)
        guard percent < 100 else { return false }
        return (monitor.elements.bufferedSeconds() ?? 0) >= Self.handOverFloorSeconds
    }
}
