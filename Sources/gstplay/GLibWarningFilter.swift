import CGStreamer

/// Keeps one known GLib warning of libsoup 3.2 off the user's stderr: for an answer with a
/// negative `Content-Length` libsoup sets that number on its body stream's `content-length`
/// property, whose minimum is -1, and GObject prints `GLib-GObject-WARNING **: value "-5" of type
/// 'gint64' is invalid or out of range for property 'content-length' of type 'gint64'` (twice).
/// The player names the answer itself ("the server's answer is not valid HTTP (Content-Length
/// '-5' is not a byte count)"). Only that message of the `GLib-GObject` domain is dropped; every
/// other warning of the domain goes to GLib's default handler as before.
enum GLibWarningFilter {
    /// Installs the handler (`g_log_set_handler`, GObject's warnings go through `g_log`). Once, at start.
    static func install() {
        g_log_set_handler("GLib-GObject", G_LOG_LEVEL_WARNING, { domain, level, message, data in
            if let message, GLibWarningFilter.isLibsoupContentLength(String(cString: message)) { return }
            g_log_default_handler(domain, level, message, data)
        }, nil)
    }

    /// True for GObject's range warning about a `content-length` property.
    static func isLibsoupContentLength(_ message: String) -> Bool {
        message.hasPrefix("value \"") && message.contains("is invalid or out of range for property 'content-length'")
    }
}
