import Backend

/// Version strings for `--version` and the JSON `hello` event. Pure values; any thread.
public enum GstplayVersion {
    /// This program's version.
    public static let current = "0.1.0"

    /// The version of the GStreamer library linked into the process, e.g. "1.22.0"
    /// (`Player/gstreamerVersionNumber`: `gst_version`, no `gst_init`).
    public static let gstreamer = Player.gstreamerVersionNumber
}
