import BackendCore
import Synchronization

/// Snapshots of the frame on screen (``ThumbnailsFeature``).
extension Player {
    /// The frame on screen now, encoded by GStreamer as PNG or JPEG, with the pixel aspect ratio
    /// applied (the image has the display size, e.g. 1024x576 for 720x576 at PAR 64/45),
    /// scaled down to fit `maxSize` when given.
    ///
    /// Works while paused (the prerolled frame) and while playing (the last rendered frame),
    /// with display sinks and with the headless fake sinks, as long as the video sink keeps
    /// `enable-last-sample` on (the default of every GStreamer sink).
    ///
    /// **Threads:** call from any task; the conversion runs on the player's loop thread, queued
    /// after the commands issued before it (`Player.withFeature(_:_:)`), through playbin's
    /// `convert-sample` action signal (it blocks that thread while GStreamer encodes: measured
    /// 7 ms for a 320x240 PNG, 16 ms for a 1024x576 PNG, 3–5 ms as JPEG).
    /// - Throws: ``ImageError`` — `.noFrame` before the first frame, after a failure, once
    ///   the player is shut down or when it has no ``ThumbnailsFeature``; `.noVideo` for media
    ///   without video or a player with video disabled; `.conversion` when GStreamer cannot
    ///   encode the frame.
    ///
    /// The OSD (and any other video overlay a feature added with `FeatureContext.addVideoOverlay`)
    /// is left out unless `includingOverlays`, and so are subtitles playbin draws (its
    /// subtitle overlay comes after the video filters): the frame as decoded.
    public func snapshot(format: ImageFormat = .png, maxSize: ImageSize? = nil, includingOverlays: Bool = false) async throws -> Image {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Image, any Error>) in
            let queued = withFeature(ThumbnailsFeature.self) { feature, context in
                do throws(ImageError) {
                    continuation.resume(returning: try feature.takeSnapshot(in: context, format: format, maximumSize: maxSize,
                                                                          includingOverlays: includingOverlays))
                } catch {
                    continuation.resume(throwing: error)
                }
            }
            if !queued {
                continuation.resume(throwing: ImageError(kind: .noFrame, message: "the player is shut down or takes no snapshots"))
            }
        }
    }

    /// ``snapshot(format:maxSize:includingOverlays:)`` for callers that cannot `await`: blocks until the loop
    /// thread has taken it, like `currentPosition()`. Same results and errors; on the loop
    /// thread itself (a queue-less callback), which cannot wait for itself, it throws `.noFrame`.
    public func snapshotNow(format: ImageFormat = .png, maxSize: ImageSize? = nil) throws(ImageError) -> Image {
        let refused = ImageError(kind: .noFrame, message: isOnLoopThread
                                 ? "snapshotNow() cannot wait on the player's own loop thread (use snapshot())"
                                 : "the player is shut down or takes no snapshots")
        let result = Mutex<Result<Image, ImageError>>(.failure(refused))
        _ = withFeatureAndWait(ThumbnailsFeature.self) { feature, context in
            let taken = Result { () throws(ImageError) -> Image in
                try feature.takeSnapshot(in: context, format: format, maximumSize: maxSize)
            }
            result.withLock { $0 = taken }
        }
        return try result.withLock { $0 }.get()
    }
}
