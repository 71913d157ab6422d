import BackendCore
import CGStreamer

/// Snapshots of the frame a player shows (`Player.snapshot(format:maxSize:)`) as a
/// `PlayerFeature`: it hooks into nothing, it only needs the frame the core's `playbin` shows
/// (`FeatureContext.pipeline.currentSample()` and `currentSample(convertedTo:)`) and the state of
/// the load from the `FeatureContext`. (``ThumbnailGenerator`` and ``ContactSheet`` run their
/// own pipelines and need no player.)
///
/// **Thread:** `takeSnapshot(in:format:maximumSize:)` and `whenFrameShown(in:_:)` run on the
/// player's loop thread (queued by the `Player` extension with `Player.withFeature(_:_:)`).
public final class ThumbnailsFeature: PlayerFeature {
    /// Work waiting for the video sink to hold a frame again (``whenFrameShown(in:_:)``).
    private var waitingForFrame: [() -> Void] = []
    /// The 10 ms tick that looks for that frame, while anything waits.
    private var frameTimer: TimerSource?
    /// Ticks since the first waiter came.
    private var ticksWaited = 0

    /// A thumbnails feature for one player.
    public init() {}

    /// Runs `work` once the video sink holds a frame: at once when it does, or when none is to be
    /// expected (nothing prerolled yet, a failure, no video); else on the first 10 ms tick that
    /// finds one, for at most 2 s. Between frames means a flush: the OSD's redraw of the paused
    /// picture is a flushing seek, and the sink shows nothing until the same frame prerolls again.
    func whenFrameShown(in context: FeatureContext, _ work: @escaping () -> Void) {
        guard Self.isBetweenFrames(context) else { return work() }
        waitingForFrame.append(work)
        guard frameTimer == nil else { return }
        ticksWaited = 0
        frameTimer = context.loop.addTimer(every: .milliseconds(10)) { [weak self] in
            guard let self else { return false }
            ticksWaited += 1
            guard !Self.isBetweenFrames(context) || ticksWaited >= 200 else { return true }
            runWaiting()
            return false
        }
    }

    /// The current load prerolled a video frame, and the sink holds none now.
    private static func isBetweenFrames(_ context: FeatureContext) -> Bool {
        let progress = context.progress
        guard context.configuration.videoSink != .disabled, progress.loaded, progress.prerolled, !progress.failed,
              context.pipeline.streamCount(.video) > 0 else { return false }
        guard let shown = context.pipeline.currentSample() else { return true }
        gst_sample_unref(shown)
        return false
    }

    /// The waiting work runs now (a frame came, the wait ran out, a new item, the end).
    private func runWaiting() {
        frameTimer?.destroy()
        frameTimer = nil
        let waiting = waitingForFrame
        waitingForFrame = []
        for work in waiting { work() }
    }

    /// A new item: what waited for a frame of the old one is answered now (it finds none).
    public func resetForNewMedia(uri: String?) { runWaiting() }

    /// The player shuts down: what waited for a frame is answered now.
    public func teardown() { runWaiting() }

    /// The frame on screen now as an encoded image; see ``SnapshotTaker``. Throws `.noFrame`
    /// before anything has prerolled (or after a failure), `.noVideo` when video is disabled
    /// or the media has none.
    /// `includingOverlays`: with what the video overlays (the OSD) drew on the frame.
    func takeSnapshot(in context: FeatureContext, format: ImageFormat, maximumSize: ImageSize?,
                      includingOverlays: Bool = false) throws(ImageError) -> Image {
        if context.configuration.videoSink == .disabled {
            throw ImageError(kind: .noVideo, message: "video is disabled in this player")
        }
        let progress = context.progress
        guard progress.loaded, progress.prerolled, !progress.failed else {
            throw ImageError(kind: .noFrame, message: "no video frame has been shown yet")
        }
        return try SnapshotTaker.take(from: context.pipeline, format: format, maximumSize: maximumSize) { shown in
            includingOverlays ? nil : context.video.sampleUnderOverlays(matching: shown)
        }
    }
}
