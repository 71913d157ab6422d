import CGStreamer

/// A redraw of the paused picture in flight (``Engine/redrawPausedFrame()``), and whether another
/// was asked for meanwhile. Loop thread.
struct PausedRedraw {
    /// A redraw seek was sent and its ASYNC_DONE has not come.
    var inFlight = false
    /// Asked again while one was in flight: one more runs when it lands.
    var again = false
}

/// Redrawing the paused picture (loop thread). While paused nothing flows through the video
/// filter chain, so an overlay whose text changed (the OSD's `Paused`, a volume change) would show
/// only with the next frame drawn. A flushing accurate seek to the position now makes the pipeline
/// preroll the same frame again, through the overlays: GStreamer's way to refresh a paused picture.
extension Engine {
    /// Draws the paused picture again (see the extension): a flushing accurate seek to the
    /// position now, sent to playbin directly and not reported — no `seeking` state, no seek-done,
    /// not throttled, the position unchanged. One at a time: asked while one runs, one more runs
    /// when it lands. Only while paused and idle (prerolled, the target PAUSED, no seek pending or
    /// in flight, not buffering, ended, failed, live or routed). Returns whether it was sent or queued.
    @discardableResult
    func redrawPausedFrame() -> Bool {
        preconditionOnLoop()
        guard mayRedrawPausedFrame else { return false }
        if redraw.inFlight {
            redraw.again = true
            return true
        }
        guard let playbin = pipeline?.element, let position = pipeline?.queryPosition() else { return false }
        let flags = GstSeekFlags(rawValue: GST_SEEK_FLAG_FLUSH.rawValue | GST_SEEK_FLAG_ACCURATE.rawValue)
        let rate = playback.rate
        let event = rate > 0
            ? gst_event_new_seek(rate, GST_FORMAT_TIME, flags, GST_SEEK_TYPE_SET, gint64(position.nanoseconds), GST_SEEK_TYPE_NONE, -1)
            : gst_event_new_seek(rate, GST_FORMAT_TIME, flags, GST_SEEK_TYPE_SET, 0, GST_SEEK_TYPE_SET, gint64(position.nanoseconds))
        guard let event, gst_element_send_event(playbin, event) != 0 else { return false }   // takes the event
        redraw.inFlight = true
        trace("redraw of the paused picture at \(position.formatted(fractionDigits: 3))")
        return true
    }

    /// Whether the pipeline rests paused with nothing else moving it (``redrawPausedFrame()``).
    private var mayRedrawPausedFrame: Bool {
        let inputs = playback.inputs
        return pipeline != nil && routing == nil && inputs.loaded && inputs.prerolled && !inputs.failed && !inputs.ended
            && !inputs.seeking && !inputs.buffering && !facts.isLive && !facts.isLiveWindow
            && playback.target == GST_STATE_PAUSED && seeks.pending == nil && !seeks.inFlight && timers.seek == nil
    }

    /// ASYNC_DONE (any: a seek or load that overtook the redraw flushed it): the redraw in flight
    /// is over; one asked for meanwhile runs now.
    func pausedRedrawLanded() {
        guard redraw.inFlight else { return }
        redraw.inFlight = false
        guard redraw.again else { return }
        redraw.again = false
        redrawPausedFrame()
    }
}
