import CGStreamer

/// How a follower's `GstNetClientClock` polls and averages, set on its internal clock (the one
/// that talks to the leader, `internal-clock`) through `GstClock`'s own properties.
///
/// GStreamer's defaults poll at most once a second once the fit is good (`timeout` 1 s) and fit
/// a line through the last 32 observations (`window-size`): an early, noisy observation then
/// weighs on the estimate for half a minute, and on a link with a few milliseconds of jitter
/// each observation is off by half the difference of its two legs. Polling ten times a second
/// into a window of 64 (6.4 s) averages 64 observations instead and forgets a bad start within
/// seconds; it costs 10 UDP packets of 32 bytes a second each way. Measured with
/// `make bench-sync` (docs/BENCHMARKS.md, "Playing in sync"). **Thread:** any (GObject properties).
enum ClockTuning {
    /// The longest time between two polls once synchronised (`GstClock:timeout`), and how long
    /// to wait for a lost answer before asking again.
    static let pollInterval: UInt64 = 100_000_000
    /// How many observations the line is fitted through (`GstClock:window-size`).
    static let window: Int32 = 64

    /// Applies the values to `clock`'s internal clock (nothing on a GStreamer without the
    /// `internal-clock` property).
    static func apply(to clock: UnsafeMutablePointer<GstClock>) {
        let object = UnsafeMutableRawPointer(clock)
        guard CGStreamer_has_property(object, "internal-clock") != 0,
              let slaved = CGStreamer_get_object(object, "internal-clock") else { return }
        defer { gst_object_unref(slaved) }
        CGStreamer_set_int(slaved, "window-size", window)
        CGStreamer_set_uint64(slaved, "timeout", guint64(pollInterval))
    }
}
