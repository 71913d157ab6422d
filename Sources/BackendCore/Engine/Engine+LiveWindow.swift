import CGStreamer

/// Seeking in live media that has a DVR window (a sliding-window HLS or DASH stream a feature
/// marked live with ``FeatureMedia/markLive()``): targets land inside the seekable range
/// `playbin` answers to `GST_QUERY_SEEKING`. Loop thread.
extension Engine {
    /// A seek on live media inside its window (`GST_QUERY_SEEKING` start…end): absolute targets
    /// and fractions count from the window's start, relative ones from `current`; a target
    /// outside is limited to the window (with a warning). Nil, with a warning, when the stream
    /// cannot seek.
    func liveSeekPosition(_ target: SeekTarget, current: MediaTime) -> MediaTime? {
        guard let window = liveWindow() else {
            publish(.warning(PlayerError(kind: .invalidArgument, message: "this live stream cannot seek (no DVR window)", uri: facts.uri)))
            return nil
        }
        let wanted: MediaTime
        switch target {
        case .absolute(let time): wanted = window.lowerBound + time
        case .relative(let offset): wanted = current + offset
        case .fraction(let fraction):
            let span = (window.upperBound - window.lowerBound).seconds
            wanted = window.lowerBound + MediaTime(seconds: span * min(max(fraction.isFinite ? fraction : 0, 0), 1))
        }
        let limited = min(max(wanted, window.lowerBound), window.upperBound)
        if limited != wanted {
            publish(.warning(PlayerError(kind: .invalidArgument,
                                         message: "seek target outside the live window (\(window.lowerBound.formatted())–\(window.upperBound.formatted())); limited to \(limited.formatted())",
                                         uri: facts.uri)))
        }
        return limited
    }

    /// The seekable range in stream time, nil when not seekable: the window a feature read off
    /// the loop thread (``FeatureMedia/updateLiveWindow(_:)``) when there is one, else
    /// `GST_QUERY_SEEKING` on playbin. 1.22's adaptive demuxers answer that query under the lock
    /// their live playlist refresh holds while it downloads: asked here in an outage, it held the
    /// loop thread until the request gave up (`LiveOutageLoopTests`).
    func liveWindow() -> ClosedRange<MediaTime>? {
        if facts.isLiveWindow, facts.liveWindowProvided { return facts.liveWindowRead }
        guard let playbin = pipeline?.element else { return nil }
        return SeekingQuery.range(of: playbin)
    }

    /// Sends a live-window seek `event` to `playbin` on the player's worker (``worker``,
    /// `gst_element_send_event`, holding a reference to playbin for the call), in the order
    /// asked: the adaptive demuxer takes a seek under the same lock as the seeking query, so sent
    /// on the loop thread in an outage it held the loop until the playlist request gave up. A
    /// seek refused ends the seeking state on the loop thread (no ASYNC_DONE will come) with a
    /// warning, unless a later seek was sent meanwhile. Loop thread.
    func sendLiveSeek(_ event: UnsafeMutablePointer<GstEvent>, to playbin: UnsafeMutablePointer<GstElement>, position: MediaTime) {
        gst_object_ref(UnsafeMutableRawPointer(playbin))
        let send = LiveSeekSend(playbin: playbin, event: event)
        let uri = facts.uri
        seeks.liveSendsInFlight += 1
        let engine = handle
        worker.run {
            let sent = gst_element_send_event(send.playbin, send.event) != 0  // takes ownership of the event
            gst_object_unref(UnsafeMutableRawPointer(send.playbin))
            engine.runOnLoop { $0?.liveSeekAnswered(sent: sent, position: position, uri: uri) }
        }
    }

    /// The answer of ``sendLiveSeek(_:to:position:)`` for the media `uri` (loop thread): a refusal
    /// after another media was loaded is dropped.
    private func liveSeekAnswered(sent: Bool, position: MediaTime, uri: String?) {
        seeks.liveSendsInFlight -= 1
        guard !sent, uri == facts.uri else { return }
        let error = seekFailure(to: position)
        publish(.warning(error))
        guard seeks.liveSendsInFlight == 0, seeks.inFlight else { return }
        seeks.issuedAt = nil
        playback.inputs.seeking = false
        failPendingResults(error, keepingLoads: true)
        applyTargetState()
        updateState()
        releaseHeldSeek()
    }

}

/// A seek event and the playbin it goes to, carried to the engine's ``Engine/worker`` (GStreamer
/// objects are thread-safe; the event is sent once, which takes it).
private struct LiveSeekSend: @unchecked Sendable {
    let playbin: UnsafeMutablePointer<GstElement>
    let event: UnsafeMutablePointer<GstEvent>
}

/// `GST_QUERY_SEEKING` in `GST_FORMAT_TIME`, the one place it is asked.
public enum SeekingQuery {
    /// The seekable range of `element` in stream time, nil when it cannot seek. **Thread:** any;
    /// it may block: an adaptive demuxer answers under the lock its playlist refresh holds
    /// while it downloads (1.22's `adaptivedemux`), so a live stream's window is best asked off
    /// the loop thread (the adaptive feature's `LiveWindowReader`).
    public static func range(of element: UnsafeMutablePointer<GstElement>) -> ClosedRange<MediaTime>? {
        guard let query = gst_query_new_seeking(GST_FORMAT_TIME) else { return nil }
        defer { gst_query_unref(query) }
        var seekable: gboolean = 0
        var start: gint64 = -1, end: gint64 = -1
        guard gst_element_query(element, query) != 0 else { return nil }
        gst_query_parse_seeking(query, nil, &seekable, &start, &end)
        guard seekable != 0, start >= 0, end >= start else { return nil }
        return MediaTime(nanoseconds: Int64(start))...MediaTime(nanoseconds: Int64(end))
    }
}
