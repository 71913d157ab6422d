import BackendCore

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
    /// The OSD (and any other video overlay a feature added with `FeatureContext.video.addOverlay`)
    /// is left out unless `includingOverlays`, and so are subtitles playbin draws (its
    /// subtitle overlay comes after the video filters): the frame as decoded.
    ///
    /// A flushing seek (a user's, an A-B loop's) clears the sink's last frame until the next one is
    /// shown: a snapshot asked for meanwhile waits for that frame (at most 3 s) instead of failing.
    public func snapshot(format: ImageFormat = .png, maxSize: ImageSize? = nil, includingOverlays: Bool = false) async throws -> Image {
        do {
            return try await snapshotOnLoop(format: format, maxSize: maxSize, includingOverlays: includingOverlays)
        } catch let error as ImageError where error.kind == .noFrame && Self.framesAreComing(snapshot.state) {
            let later = events      // made only now: a player's first stream gets the events held for it
            if let image = try? await snapshotOnLoop(format: format, maxSize: maxSize, includingOverlays: includingOverlays) {
                return image        // the frame came while the stream was made
            }
            await Self.nextFrame(in: later, timeout: .seconds(3))
            return try await snapshotOnLoop(format: format, maxSize: maxSize, includingOverlays: includingOverlays)
        }
    }

    /// States in which a frame is on its way: a seek, a preroll or buffering in progress.
    private static func framesAreComing(_ state: PlayerState) -> Bool {
        [.opening, .ready, .seeking, .buffering].contains(state)
    }

    /// Returns once `events` tells a frame was shown again (a seek landed, a position report, the
    /// state settled in playing or paused), or after `timeout`.
    private static func nextFrame(in events: AsyncStream<PlayerEvent>, timeout: Duration) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await event in events {
                    switch event {
                    case .seekDone, .position: return
                    case .stateChanged(_, let to) where to == .playing || to == .paused: return
                    default: continue
                    }
                }
            }
            group.addTask { try? await Task.sleep(for: timeout) }
            await group.next()
            group.cancelAll()
        }
    }

    private func snapshotOnLoop(format: ImageFormat, maxSize: ImageSize?, includingOverlays: Bool) async throws -> Image {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Image, any Error>) in
            let queued = withFeature(ThumbnailsFeature.self) { feature, context in
                feature.whenFrameShown(in: context) {       // not in a flush (the OSD's redraw while paused)
                    do throws(ImageError) {
                        continuation.resume(returning: try feature.takeSnapshot(in: context, format: format, maximumSize: maxSize,
                                                                              includingOverlays: includingOverlays))
                    } catch {
                        continuation.resume(throwing: error)
                    }
                }
            }
            if !queued {
                continuation.resume(throwing: ImageError(kind: .noFrame, message: "the player is shut down or takes no snapshots"))
            }
        }
    }

    /// ``snapshot(format:maxSize:includingOverlays:)`` for callers that cannot `await`: blocks until the loop
    /// thread has taken it, like `currentPosition()`. Same results and errors, except that it does
    /// not wait for a frame the OSD's redraw of the paused picture has flushed (it answers
    /// `.noFrame` in that moment, where ``snapshot(format:maxSize:includingOverlays:)`` waits); on the loop
    /// thread itself (a queue-less callback), which cannot wait for itself, it throws `.noFrame`.
    public func snapshotNow(format: ImageFormat = .png, maxSize: ImageSize? = nil) throws(ImageError) -> Image {
        let refused = ImageError(kind: .noFrame, message: isOnLoopThread
                                 ? "snapshotNow() cannot wait on the player's own loop thread (use snapshot())"
                                 : "the player is shut down or takes no snapshots")
        // Written on the loop thread while this thread waits (`withFeatureAndWait`: its semaphore
        // orders the write before the read), so it needs no lock.
        var result = Result<Image, ImageError>.failure(refused)
        _ = withFeatureAndWait(ThumbnailsFeature.self) { feature, context in
            result = Result { () throws(ImageError) -> Image in
                try feature.takeSnapshot(in: context, format: format, maximumSize: maxSize)
            }
        }
        return try result.get()
    }
}
