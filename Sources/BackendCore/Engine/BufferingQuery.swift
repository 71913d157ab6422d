import CGStreamer

/// One `GST_QUERY_BUFFERING` answered by a buffering element (`gst_element_query`; queue2 and
/// downloadbuffer answer it from their source pad's handler): whether the element is still
/// buffering, its level now, and the ranges of the stream it holds.
///
/// **Thread:** any (the element takes its own lock); the engine asks on the loop thread.
/// `package`: the media cache (BackendCache) asks its download buffer too.
package struct BufferingQuery {
    /// A byte or percent range the element holds (`gst_query_parse_nth_buffering_range`).
    package struct Range: Equatable, Sendable {
        /// First byte (or percent × 10 000) held.
        package var start: Int64
        /// One past the last byte (or percent × 10 000) held.
        package var stop: Int64
    }

    /// `GST_FORMAT_PERCENT_MAX` (100 % in `GST_FORMAT_PERCENT`; the C macro does not import).
    static let percentMax: Int64 = 1_000_000

    /// `busy` of `gst_query_parse_buffering_percent`: the element is still buffering.
    var busy: Bool
    /// The level the element would post now.
    var percent: Int
    /// The ranges held, in the query's format.
    package var ranges: [Range]

    /// Asks `element` in `format` (`GST_FORMAT_PERCENT` or `GST_FORMAT_BYTES`); nil when it
    /// does not answer.
    package static func ask(_ element: UnsafeMutablePointer<GstElement>, format: GstFormat) -> BufferingQuery? {
        guard let query = gst_query_new_buffering(format) else { return nil }
        defer { gst_query_unref(query) }
        guard gst_element_query(element, query) != 0 else { return nil }
        var busy: gboolean = 0, percent: gint = 0
        gst_query_parse_buffering_percent(query, &busy, &percent)
        var ranges: [Range] = []
        for index in 0..<gst_query_get_n_buffering_ranges(query) {
            var start: gint64 = 0, stop: gint64 = 0
            if gst_query_parse_nth_buffering_range(query, index, &start, &stop) != 0 { ranges.append(Range(start: Int64(start), stop: Int64(stop))) }
        }
        return BufferingQuery(busy: busy != 0, percent: Int(percent), ranges: ranges)
    }

    /// For a `GST_FORMAT_PERCENT` answer: one range from 0 to 100 %, the whole stream is held.
    var holdsEverything: Bool {
        ranges.count == 1 && ranges[0].start == 0 && ranges[0].stop >= Self.percentMax
    }

    /// What ``BufferingPolicy`` needs of a `GST_FORMAT_PERCENT` answer.
    var probe: BufferingPolicy.Probe { BufferingPolicy.Probe(busy: busy, complete: holdsEverything) }
}
