import CGStreamer

/// What a feature may do with `playbin`, by named operations only (``FeatureContext/pipeline``):
/// the raw element stays in the core. **Thread:** loop thread, unless a method says otherwise.
public struct FeaturePipeline {
    unowned let context: FeatureContext
    private var engine: Engine { context.engine }

    /// `playbin`, nil when it could not be created or after teardown; borrowed. The core's only:
    /// a feature asks for what it needs by a named operation (FeaturePipeline+Operations.swift,
    /// FeaturePipeline+Watches.swift, FeaturePipeline+Clock.swift).
    var playbin: UnsafeMutablePointer<GstElement>? { engine.pipeline?.element }

    /// The audio sink (nil when audio is disabled), borrowed.
    public var audioSink: UnsafeMutablePointer<GstElement>? { engine.sinks.audio }

    /// Posts a buffering level on playbin's bus as a buffering element would
    /// (`gst_message_new_buffering`, 0…100), so the core's buffering rule pauses and resumes for it as
    /// for any BUFFERING message (a stall the demuxer does not report).
    public func postBuffering(percent: Int) {
        guard let playbin else { return }
        guard let message = gst_message_new_buffering(CGStreamer_as_object(UnsafeMutableRawPointer(playbin)), gint(percent)) else { return }
        _ = gst_element_post_message(playbin, message)
    }

    /// Answers position queries from these sinks instead of playbin (whose answer can lag behind
    /// when a sink of the feature's own, such as a text sink, holds the pipeline's position back).
    public func queryPositionFromSinks(_ sinks: [UnsafeMutablePointer<GstElement>]) { engine.pipeline?.positionSinks = sinks }
}
