/// A live window read by a feature off the loop thread.
extension FeatureContext {
    /// The live stream's seekable window (stream time) as the feature last read it off the loop
    /// thread, nil when it could not seek: seeks in the live window (after ``markLive()``), and
    /// ``seekableWindow()``, resolve against it instead of asking `playbin` on the loop thread
    /// (`GST_QUERY_SEEKING`, which 1.22's adaptive demuxers answer under the lock their playlist
    /// refresh holds while it downloads: in an outage the loop thread waited until the request
    /// gave up). Forgotten with the media. **Thread:** loop thread.
    public func updateLiveWindow(_ window: ClosedRange<MediaTime>?) {
        engine.facts.liveWindowRead = window
        engine.facts.liveWindowProvided = true
    }
}
