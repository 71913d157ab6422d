import BackendCore
import CGStreamer

/// Snapshots of the frame a player shows (`Player.snapshot(format:maxSize:)`) as a
/// `PlayerFeature`: it hooks into nothing, it only needs the frame the core's `playbin` shows
/// (`FeatureContext.pipeline.currentSample()` and `currentSample(convertedTo:)`) and the state of
/// the load from the `FeatureContext`. (``ThumbnailGenerator`` and ``ContactSheet`` run their
/// own pipelines and need no player.)
///
/// **Thread:** `takeSnapshot(in:format:maximumSize:)` runs on the player's loop thread (queued by
/// the `Player` extension with `Player.withFeature(_:_:)`). Stateless, hence `Sendable`.
public final class ThumbnailsFeature: PlayerFeature {
    /// A thumbnails feature for one player.
    public init() {}

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
