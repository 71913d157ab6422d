import CGStreamer

/// gstplay's GStreamer debug category, `gstplay`: the engine's diagnostics go through GStreamer's
/// own debug log, so `GST_DEBUG=gstplay*:6` (or `gstplay:5`, or `*:5`) shows them with
/// timestamps and thread ids next to the elements' lines, wherever `GST_DEBUG_FILE` sends them.
///
/// **Thread:** any (`gst_debug_log_literal` is thread-safe).
package enum DebugLog {
    /// The category (``CGStreamer_debug_category_new``: `GST_DEBUG_CATEGORY_INIT`), registered on
    /// first use; GStreamer owns it for the life of the process.
    nonisolated(unsafe) static let category: UnsafeMutablePointer<GstDebugCategory>? =
        CGStreamer_debug_category_new("gstplay", "gstplay player engine (Backend)")

    /// Logs `text` at `level` (default `GST_LEVEL_DEBUG`) when the category's threshold lets it
    /// through (`gst_debug_category_get_threshold`); `text` is not built otherwise.
    package static func log(_ text: @autoclosure () -> String, level: GstDebugLevel = GST_LEVEL_DEBUG,
                            file: StaticString = #fileID, function: StaticString = #function, line: UInt = #line) {
        guard let category, gst_debug_category_get_threshold(category).rawValue >= level.rawValue else { return }
        "\(file)".withCString { file in
            "\(function)".withCString { function in
                gst_debug_log_literal(category, level, file, function, gint(line), nil, text())
            }
        }
    }
}
