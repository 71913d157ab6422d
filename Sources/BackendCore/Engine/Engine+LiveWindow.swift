import CGStreamer

/// Seeking in live media that has a DVR window (a sliding-window HLS or DASH stream a feature
/// marked live with ``FeatureContext/markLive()``): targets land inside the seekable range
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

    /// The seekable range in stream time (`GST_QUERY_SEEKING` on playbin), nil when not seekable.
    func liveWindow() -> ClosedRange<MediaTime>? {
        guard let playbin = pipeline?.element else { return nil }
        return SeekingQuery.range(of: playbin)
    }
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
