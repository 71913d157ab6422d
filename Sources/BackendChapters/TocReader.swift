import BackendCore
import CGStreamer

/// Reads a table of contents (`GstToc`) into a flat chapter list, with GStreamer's own TOC API:
/// `gst_toc_get_entries`, `gst_toc_entry_get_sub_entries`, `gst_toc_entry_get_start_stop_times`,
/// `gst_toc_entry_get_tags`. Editions are containers (not chapters); every chapter below them,
/// nested or not, is one entry in document order with its depth.
///
/// **Thread:** the caller's (the loop thread, from a bus message); the TOC is borrowed.
public enum TocReader {
    /// The chapters of the TOC a `GST_MESSAGE_TOC` carries (`gst_message_parse_toc`), nil for
    /// other messages. The TOC is released before returning (`gst_toc_unref`).
    public static func chapters(in message: UnsafeMutablePointer<GstMessage>) -> [Chapter]? {
        guard CGStreamer_message_type(message) == GST_MESSAGE_TOC else { return nil }
        var toc: OpaquePointer?
        var updated: gboolean = 0
        gst_message_parse_toc(message, &toc, &updated)
        guard let toc else { return nil }
        defer { gst_mini_object_unref(UnsafeMutablePointer<GstMiniObject>(toc)) }   // gst_toc_unref is a macro
        return chapters(of: toc)
    }

    /// Whether a `GST_MESSAGE_TOC` says its TOC updates the one the stream had (`updated`,
    /// `gst_message_parse_toc`); false for other messages and for a stream's first TOC.
    public static func isUpdate(_ message: UnsafeMutablePointer<GstMessage>) -> Bool {
        guard CGStreamer_message_type(message) == GST_MESSAGE_TOC else { return false }
        var toc: OpaquePointer?
        var updated: gboolean = 0
        gst_message_parse_toc(message, &toc, &updated)
        if let toc { gst_mini_object_unref(UnsafeMutablePointer<GstMiniObject>(toc)) }
        return updated != 0
    }

    /// The chapters of `toc` (a `GstToc *`, borrowed), flattened; ends missing from the TOC are filled with the
    /// next chapter's start at the same or a lower depth, or the parent's end.
    public static func chapters(of toc: OpaquePointer) -> [Chapter] {
        var result: [Chapter] = []
        var parentEnds: [MediaTime?] = []
        var edition = 0
        var sawEdition = false
        forEach(gst_toc_get_entries(toc)) { entry in
            if gst_toc_entry_get_entry_type(entry) == GST_TOC_ENTRY_TYPE_EDITION {
                if sawEdition { edition += 1 }
                sawEdition = true
                let parentEnd = times(of: entry).end
                forEach(gst_toc_entry_get_sub_entries(entry)) { add($0, depth: 0, edition: edition, parentEnd: parentEnd, to: &result, parentEnds: &parentEnds) }
            } else {
                add(entry, depth: 0, edition: edition, parentEnd: nil, to: &result, parentEnds: &parentEnds)
            }
        }
        for position in result.indices where result[position].end == nil {
            let chapter = result[position]
            let next = result[(position + 1)...].first { $0.depth <= chapter.depth && $0.edition == chapter.edition }
            result[position].end = next?.start ?? parentEnds[position]
        }
        return result
    }

    private static func add(_ entry: OpaquePointer, depth: Int, edition: Int, parentEnd: MediaTime?,
                            to result: inout [Chapter], parentEnds: inout [MediaTime?]) {
        let (start, end) = times(of: entry)
        var chapter = Chapter(index: result.count, uid: String(cString: gst_toc_entry_get_uid(entry)),
                              start: start ?? .zero, end: end, depth: depth, edition: edition)
        if let tags = gst_toc_entry_get_tags(entry) {
            chapter.title = string(tags, GST_TAG_TITLE)
            chapter.language = string(tags, GST_TAG_LANGUAGE_CODE)
        }
        result.append(chapter)
        parentEnds.append(parentEnd)
        forEach(gst_toc_entry_get_sub_entries(entry)) { add($0, depth: depth + 1, edition: edition, parentEnd: end ?? parentEnd, to: &result, parentEnds: &parentEnds) }
    }

    /// Start and stop of `entry`; -1 (unknown) becomes nil.
    private static func times(of entry: OpaquePointer) -> (start: MediaTime?, end: MediaTime?) {
        var start: gint64 = -1
        var stop: gint64 = -1
        guard gst_toc_entry_get_start_stop_times(entry, &start, &stop) != 0 else { return (nil, nil) }
        return (start >= 0 ? MediaTime(nanoseconds: Int64(start)) : nil, stop >= 0 ? MediaTime(nanoseconds: Int64(stop)) : nil)
    }

    /// Walks a `GList` of TOC entries (owned by the TOC: not freed here).
    private static func forEach(_ list: UnsafeMutablePointer<GList>?, _ body: (OpaquePointer) -> Void) {
        var node = list
        while let current = node {
            if let data = current.pointee.data { body(OpaquePointer(data)) }
            node = current.pointee.next
        }
    }

    private static func string(_ tags: UnsafePointer<GstTagList>, _ tag: String) -> String? {
        var value: UnsafeMutablePointer<gchar>?
        guard gst_tag_list_get_string(tags, tag, &value) != 0 else { return nil }
        return String(takingGLibString: value)
    }
}
