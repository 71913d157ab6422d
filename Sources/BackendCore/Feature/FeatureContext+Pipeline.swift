import CGStreamer

/// What a feature may do with `playbin` itself (``FeatureContext/pipeline``). **Thread:** loop thread.
public struct FeaturePipeline {
    unowned let context: FeatureContext
    private var engine: Engine { context.engine }

    /// `playbin`, nil when it could not be created. Borrowed: ref it to keep it. What features
    /// still read and set directly (track selection and offsets, stream tags, the visualiser,
    /// snapshots, element signals) until each has a named operation here.
    public var playbin: UnsafeMutablePointer<GstElement>? { engine.pipeline?.element }

    /// The audio sink (nil when audio is disabled), borrowed.
    public var audioSink: UnsafeMutablePointer<GstElement>? { engine.sinks.audio }

    /// Answers position queries from these sinks instead of playbin (whose answer can lag behind
    /// when a sink of the feature's own, such as a text sink, holds the pipeline's position back).
    public func queryPositionFromSinks(_ sinks: [UnsafeMutablePointer<GstElement>]) { engine.pipeline?.positionSinks = sinks }
}
