import CGStreamer

/// The load's download file (``FeatureContext/download``): what playbin buffers an http(s) media
/// to, kept for a feature when it asks (the media cache). **Thread:** loop thread.
public struct FeatureDownload {
    unowned let context: FeatureContext
    private var engine: Engine { context.engine }

    /// For the load being decided (from ``URIResolver/resolve(_:)``, for the http(s) URI it
    /// plays): playbin buffers the download to a file (its `download` flag, also when
    /// ``PlayerConfiguration/progressiveDownload`` is off) made from the `mkstemp` template
    /// `template`, and the `downloadbuffer` keeps the file when it stops (`temp-remove` off), for
    /// the feature to take by ``PlayerFeature/finished()``. ``buffer`` is that element.
    public func keep(in template: String) {
        engine.downloadFile.update { $0.requested = true; $0.keepTemplate = template }
    }

    /// For the load being decided: the feature wanted to keep the download but cannot (`reason`).
    /// playbin still buffers it to a file that is not kept, placed as for plain progressive
    /// downloads; a warning says `reason` (once per player).
    public func withoutKeeping(because reason: String) {
        engine.downloadFile.update { $0.requested = true; $0.notKeptBecause = reason }
    }

    /// The `downloadbuffer` writing the download kept by ``keep(in:)`` (borrowed: ref it to keep
    /// it), nil before playbin added it and once the media finished.
    public var buffer: UnsafeMutablePointer<GstElement>? { engine.downloadFile.current.element?.pointer }
}
