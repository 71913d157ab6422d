import CGStreamer

/// One-time process-wide GStreamer initialisation (`gst_init` and `gst_pb_utils_init`).
enum GStreamerRuntime {
    private static let initialized: Bool = {
        gst_init(nil, nil)
        gst_pb_utils_init()
        return true
    }()

    /// Initialises GStreamer on first use; thread-safe (Swift lazy globals run once).
    static func ensureInitialized() { _ = initialized }

    /// The GStreamer version string, e.g. "GStreamer 1.22.0".
    static var versionString: String {
        ensureInitialized()
        guard let raw = gst_version_string() else { return "GStreamer" }
        defer { g_free(raw) }
        return String(cString: raw)
    }
}

extension String {
    /// Copies a GLib-allocated string and frees it (`g_free`).
    init?(takingGLibString pointer: UnsafeMutablePointer<gchar>?) {
        guard let pointer else { return nil }
        defer { g_free(pointer) }
        self = String(cString: pointer)
    }
}
