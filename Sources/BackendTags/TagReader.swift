import BackendCore
import CGStreamer

/// Reads ``MediaTags`` and ``CoverArt`` out of a `GstTagList` with the tag library's own getters
/// (`gst_tag_list_get_*`). Pure reads; any thread (the tags feature calls it on the loop thread).
enum TagReader {
    /// The list's scope (`gst_tag_list_get_scope`): true for global (whole-media) tags.
    static func isGlobal(_ list: UnsafeMutablePointer<GstTagList>) -> Bool {
        gst_tag_list_get_scope(list) == GST_TAG_SCOPE_GLOBAL
    }

    /// The fields `list` has, merged over `tags` (a field the list lacks keeps its value).
    static func absorb(_ list: UnsafeMutablePointer<GstTagList>, into tags: inout MediaTags) {
        if let value = string(list, GST_TAG_TITLE) { tags.title = value }
        if let value = string(list, GST_TAG_ARTIST) { tags.artist = value }
        if let value = string(list, GST_TAG_ALBUM) { tags.album = value }
        if let value = uint(list, GST_TAG_TRACK_NUMBER) { tags.trackNumber = value }
        if let value = uint(list, GST_TAG_TRACK_COUNT) { tags.trackCount = value }
        if let value = date(list) { tags.date = value }
        if let value = string(list, GST_TAG_GENRE) { tags.genre = value }
        if let value = string(list, GST_TAG_COMMENT) { tags.comment = value }
        if let value = string(list, GST_TAG_LANGUAGE_CODE) { tags.language = value }
        if let value = string(list, GST_TAG_CONTAINER_FORMAT) { tags.container = value }
    }

    /// The list's picture: the front cover among its `image` tags (`image-type` in the sample's
    /// info, `GST_TAG_IMAGE_TYPE_FRONT_COVER`), else its first `image`, else its `preview-image`.
    static func coverArt(in list: UnsafeMutablePointer<GstTagList>) -> CoverArt? {
        var first: CoverArt?
        let count = gst_tag_list_get_tag_size(list, GST_TAG_IMAGE)
        for index in 0..<count {
            var sample: OpaquePointer?
            guard gst_tag_list_get_sample_index(list, GST_TAG_IMAGE, index, &sample) != 0, let sample else { continue }
            defer { gst_sample_unref(sample) }
            guard let art = CoverArt(sample: sample) else { continue }
            if art.imageType == "front-cover" { return art }
            if first == nil { first = art }
        }
        if let first { return first }
        var preview: OpaquePointer?
        guard gst_tag_list_get_sample(list, GST_TAG_PREVIEW_IMAGE, &preview) != 0, let preview else { return nil }
        defer { gst_sample_unref(preview) }
        return CoverArt(sample: preview)
    }

    private static func string(_ list: UnsafeMutablePointer<GstTagList>, _ tag: String) -> String? {
        var value: UnsafeMutablePointer<gchar>?
        guard gst_tag_list_get_string(list, tag, &value) != 0 else { return nil }
        return String(takingGLibString: value)
    }

    private static func uint(_ list: UnsafeMutablePointer<GstTagList>, _ tag: String) -> Int? {
        var value: guint = 0
        guard gst_tag_list_get_uint(list, tag, &value) != 0, value > 0 else { return nil }
        return Int(value)
    }

    /// `datetime` (`gst_date_time_to_iso8601_string`: as precise as the tag), else `date` (a `GDate`).
    private static func date(_ list: UnsafeMutablePointer<GstTagList>) -> String? {
        var dateTime: OpaquePointer?
        if gst_tag_list_get_date_time(list, GST_TAG_DATE_TIME, &dateTime) != 0, let dateTime {
            defer { gst_date_time_unref(dateTime) }
            if let text = String(takingGLibString: gst_date_time_to_iso8601_string(dateTime)) { return text }
        }
        var day: UnsafeMutablePointer<GDate>?
        guard gst_tag_list_get_date(list, GST_TAG_DATE, &day) != 0, let day else { return nil }
        defer { g_date_free(day) }
        guard g_date_valid(day) != 0 else { return nil }
        func digits(_ value: Int, _ count: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, count - text.count)) + text
        }
        return digits(Int(g_date_get_year(day)), 4) + "-" + digits(Int(g_date_get_month(day).rawValue), 2) + "-" + digits(Int(g_date_get_day(day)), 2)
    }
}
