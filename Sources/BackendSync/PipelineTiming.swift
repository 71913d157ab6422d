import BackendCore
import CGStreamer

/// The few clock and time calls on `playbin` that syncing needs, typed. **Thread:** loop thread.
struct PipelineTiming {
    let playbin: UnsafeMutablePointer<GstElement>

    private var pipeline: UnsafeMutablePointer<GstPipeline> {
        UnsafeMutableRawPointer(playbin).assumingMemoryBound(to: GstPipeline.self)
    }

    /// Makes `clock` the pipeline's clock whatever its elements provide (`gst_pipeline_use_clock`).
    func use(_ clock: UnsafeMutablePointer<GstClock>) { gst_pipeline_use_clock(pipeline, clock) }

    /// Makes every sink render this long after the clock time a buffer maps to (`gst_pipeline_set_latency`).
    func setLatency(_ nanoseconds: UInt64) { gst_pipeline_set_latency(pipeline, GstClockTime(nanoseconds)) }

    /// The base time (`gst_element_get_base_time`).
    var baseTime: UInt64 { UInt64(gst_element_get_base_time(playbin)) }

    /// The running time at which the pipeline last paused, 0 after a flush (`gst_element_get_start_time`).
    var startTime: UInt64 { UInt64(gst_element_get_start_time(playbin)) }

    /// Takes the base time out of the pipeline's hands and sets it (`gst_element_set_start_time`
    /// to `GST_CLOCK_TIME_NONE`, then `gst_element_set_base_time`): from now on only the caller
    /// changes it, across pauses and seeks.
    func fixBaseTime(_ base: UInt64) {
        gst_element_set_start_time(playbin, CGStreamer_CLOCK_TIME_NONE())
        gst_element_set_base_time(playbin, GstClockTime(base))
    }

    /// The pipeline's state when no change is pending, else nil (`gst_element_get_state`, no wait).
    var settledState: GstState? {
        var current = GST_STATE_VOID_PENDING, pending = GST_STATE_VOID_PENDING
        let result = gst_element_get_state(playbin, &current, &pending, 0)
        guard result == GST_STATE_CHANGE_SUCCESS || result == GST_STATE_CHANGE_NO_PREROLL, pending == GST_STATE_VOID_PENDING else { return nil }
        return current
    }

    /// The running time of clock time `now` for this pipeline: while PLAYING, `now - base`;
    /// otherwise the running time it paused at.
    func runningTime(at now: UInt64, playing: Bool) -> UInt64 {
        playing ? now &- baseTime : startTime
    }
}
