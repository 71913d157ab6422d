import Backend

/// Version strings for `--version` and the JSON `hello` event. Pure values; any thread.
enum GstplayVersion {
    /// This program's version.
    static let current = "0.1.0"

    /// The version of the GStreamer library linked into the process, e.g. "1.22.0"
    /// (``Player/gstreamerVersionNumber``: `gst_version`, no `gst_init`).
    static let gstreamer = Player.gstreamerVersionNumber
}
