import CGStreamer

/// Perceptual volume steps, as gst-play does them: UIs step a cubic value, playbin takes a
/// linear one (`gst_stream_volume_convert_volume`, `GST_STREAM_VOLUME_FORMAT_CUBIC` ⇄ `LINEAR`).
public enum VolumeScale {
    /// The linear volume for a cubic (perceptual) value; both 1.0 at unity.
    public static func linear(fromCubic cubic: Double) -> Double {
        GStreamerRuntime.ensureInitialized()
        return gst_stream_volume_convert_volume(GST_STREAM_VOLUME_FORMAT_CUBIC, GST_STREAM_VOLUME_FORMAT_LINEAR, max(0, cubic))
    }

    /// The cubic (perceptual) value for a linear volume.
    public static func cubic(fromLinear linear: Double) -> Double {
        GStreamerRuntime.ensureInitialized()
        return gst_stream_volume_convert_volume(GST_STREAM_VOLUME_FORMAT_LINEAR, GST_STREAM_VOLUME_FORMAT_CUBIC, max(0, linear))
    }

    /// The perceptual volume in percent for a linear volume, to a tenth of a percent (what every
    /// door shows: mpv's `volume`, the status line, the JSON protocol), so a percent set and read
    /// back through the linear value comes back as set.
    public static func percent(fromLinear linear: Double) -> Double {
        (cubic(fromLinear: linear) * 1000).rounded() / 10
    }

    /// One UI step up or down (`delta` in cubic units, e.g. ±0.1) from a linear volume, clamped to 0…10 linear.
    public static func step(linear: Double, by delta: Double) -> Double {
        let next = max(0, cubic(fromLinear: linear) + delta)
        return min(10, Self.linear(fromCubic: next))
    }
}
