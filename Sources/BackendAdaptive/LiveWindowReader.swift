import BackendCore
import CGStreamer

/// Reads a live stream's seekable window (`GST_QUERY_SEEKING` through ``SeekingQuery``) off the
/// loop thread. 1.22's adaptive demuxers answer that query under the lock their playlist refresh
/// holds while it downloads, so on a slow link or in an outage the query waits as long as the
/// playlist request: asked on the loop thread, it froze the player's timers and events for
/// seconds (5 s in an outage, seen in `LiveEdgeABRTests`).
///
/// One query at a time, each on a ``DetachedThread`` holding a reference to `playbin`
/// (`gst_object_ref`, dropped when the query returns); the answer comes back to the loop thread
/// through `FeatureContext.runOnLoop(_:)` and is dropped when a new load (``reset()``) came in between.
///
/// **Thread:** loop thread, except the query itself.
final class LiveWindowReader: @unchecked Sendable {
    private var inFlight = false
    private var generation = 0

    /// Forgets a query under way (new media, stop, teardown): its answer will be dropped.
    func reset() {
        generation += 1
        inFlight = false
    }

    /// Starts a query unless one is under way; `deliver` gets the window (nil: not seekable) on
    /// the loop thread.
    func request(_ context: FeatureContext, deliver: @escaping (ClosedRange<MediaTime>?) -> Void) {
        guard !inFlight, let playbin = context.playbin else { return }
        inFlight = true
        let asked = generation
        let job = Job(playbin: playbin, reader: self, generation: asked, deliver: deliver)
        gst_object_ref(UnsafeMutableRawPointer(playbin))
        DetachedThread.start(name: "gstplay-livewin") { [weak context] in
            let window = SeekingQuery.range(of: job.playbin)
            gst_object_unref(UnsafeMutableRawPointer(job.playbin))
            _ = context?.runOnLoop { job.finish(window) }
        }
    }

    /// One query: what it reads and where its answer goes (touched on the loop thread only, after the query).
    private final class Job: @unchecked Sendable {
        let playbin: UnsafeMutablePointer<GstElement>
        let reader: LiveWindowReader
        let generation: Int
        let deliver: (ClosedRange<MediaTime>?) -> Void

        init(playbin: UnsafeMutablePointer<GstElement>, reader: LiveWindowReader, generation: Int,
             deliver: @escaping (ClosedRange<MediaTime>?) -> Void) {
            self.playbin = playbin
            self.reader = reader
            self.generation = generation
            self.deliver = deliver
        }

        func finish(_ window: ClosedRange<MediaTime>?) {
            guard reader.generation == generation else { return }
            reader.inFlight = false
            deliver(window)
        }
    }
}
