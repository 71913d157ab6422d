import BackendCore
import CGStreamer

/// Reads a live stream's seekable window (`GST_QUERY_SEEKING` through ``SeekingQuery``) off the
/// loop thread. 1.22's adaptive demuxers answer that query under the lock their playlist refresh
/// holds while it downloads, so on a slow link or in an outage the query waits as long as the
/// playlist request: asked on the loop thread, it froze the player's timers and events for
/// seconds (5 s in an outage, seen in `LiveEdgeABRTests`). The query goes to the demuxer itself,
/// not to `playbin`: `playbin` answers a query under its own lock, which the loop thread takes
/// for any of its properties (`n-audio`, read by the tags feature on a tag message), so a query
/// through `playbin` waiting for the playlist froze the loop all the same (9 s in the outage).
///
/// One query at a time, on the player's worker (`FeatureContext.loop.runOffLoop(_:)`: one
/// thread kept for every query, not a thread per query), holding a reference to the demuxer
/// (`gst_object_ref`, dropped when the query returns); the answer comes back to the loop thread
/// through the reader's handle (`FeatureContext.confine(_:)`) and is dropped when a new load
/// (``reset()``) came in between.
///
/// **Thread:** loop thread, except the query itself.
final class LiveWindowReader {
    private var inFlight = false
    private var generation = 0
    /// Where the answer of the query under way goes.
    private var deliver: ((ClosedRange<MediaTime>?) -> Void)?

    /// Forgets a query under way (new media, stop, teardown): its answer will be dropped.
    func reset() {
        generation += 1
        inFlight = false
        deliver = nil
    }

    /// Starts a query to `elements`' demuxer unless one is under way (or there is no demuxer);
    /// `deliver` gets the window (nil: not seekable) on the loop thread.
    func request(_ context: FeatureContext, elements: AdaptiveElements, deliver: @escaping (ClosedRange<MediaTime>?) -> Void) {
        guard !inFlight, let demuxer = elements.retainedDemuxer() else { return }
        inFlight = true
        self.deliver = deliver
        let asked = generation
        let element = AdaptiveElements.Ref(pointer: demuxer)
        let reader = context.confine(self)
        context.loop.runOffLoop {
            let window = SeekingQuery.range(of: element.pointer)
            gst_object_unref(element.object)
            reader.runOnLoop { $0?.finish(generation: asked, window) }
        }
    }

    /// The answer of the query made in `generation` (loop thread): dropped after a reset.
    private func finish(generation asked: Int, _ window: ClosedRange<MediaTime>?) {
        guard generation == asked, let deliver else { return }
        inFlight = false
        self.deliver = nil
        deliver(window)
    }
}
