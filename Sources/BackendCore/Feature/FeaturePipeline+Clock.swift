import CGStreamer

/// The pipeline's clock and times, for a feature that renders in step with other players (the
/// sync feature: ``FeatureContext/pipeline``). **Thread:** loop thread.
public extension FeaturePipeline {
    /// Makes `clock` the pipeline's clock whatever its elements provide (`gst_pipeline_use_clock`
    /// on playbin).
    func useClock(_ clock: UnsafeMutablePointer<GstClock>) {
        guard let pipeline = gstPipeline else { return }
        gst_pipeline_use_clock(pipeline, clock)
    }

    /// Makes every sink render `nanoseconds` after the clock time a buffer maps to
    /// (`gst_pipeline_set_latency` on playbin).
    func setLatency(nanoseconds: UInt64) {
        guard let pipeline = gstPipeline else { return }
        gst_pipeline_set_latency(pipeline, GstClockTime(nanoseconds))
    }

    /// playbin's base time (`gst_element_get_base_time`), 0 without playbin.
    var baseTime: UInt64 {
        guard let playbin else { return 0 }
        return UInt64(gst_element_get_base_time(playbin))
    }

    /// The running time at which playbin last paused, 0 after a flush (`gst_element_get_start_time`);
    /// 0 without playbin.
    var startTime: UInt64 {
        guard let playbin else { return 0 }
        return UInt64(gst_element_get_start_time(playbin))
    }

    /// Takes the base time out of playbin's hands and sets it (`gst_element_set_start_time` to
    /// `GST_CLOCK_TIME_NONE`, then `gst_element_set_base_time`): from now on only the feature
    /// changes it, across pauses and seeks.
    func fixBaseTime(_ base: UInt64) {
        guard let playbin else { return }
        gst_element_set_start_time(playbin, CGStreamer_CLOCK_TIME_NONE())
        gst_element_set_base_time(playbin, GstClockTime(base))
    }

    /// playbin's state when no change is pending, else nil (`gst_element_get_state`, no wait);
    /// nil without playbin. (``FeatureMedia/pipelineState`` is the last state playbin reported
    /// on the bus instead.)
    var settledState: GstState? {
        guard let playbin else { return nil }
        var current = GST_STATE_VOID_PENDING, pending = GST_STATE_VOID_PENDING
        let result = gst_element_get_state(playbin, &current, &pending, 0)
        guard result == GST_STATE_CHANGE_SUCCESS || result == GST_STATE_CHANGE_NO_PREROLL, pending == GST_STATE_VOID_PENDING else { return nil }
        return current
    }
}

private extension FeaturePipeline {
    /// playbin as the `GstPipeline` it is.
    var gstPipeline: UnsafeMutablePointer<GstPipeline>? {
        playbin.map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: GstPipeline.self) }
    }
}
