import CGStreamer

/// Routing of ``Player/snapshot(format:maxSize:)`` to ``SnapshotTaker`` (loop thread).
extension Engine {
    /// The frame on screen now as an encoded image; see ``SnapshotTaker``. Throws `.noFrame`
    /// before anything has prerolled (or after a failure), `.noVideo` when video is disabled
    /// or the media has none.
    func takeSnapshot(format: ImageFormat, maximumSize: ImageSize?) throws(ImageError) -> Image {
        preconditionOnLoop()
        if configuration.videoSink == .disabled {
            throw ImageError(kind: .noVideo, message: "video is disabled in this player")
        }
        guard let playbin = pipeline?.element, playback.inputs.loaded, playback.inputs.prerolled,
              !playback.inputs.failed else {
            throw ImageError(kind: .noFrame, message: "no video frame has been shown yet")
        }
        return try SnapshotTaker.take(from: playbin, format: format, maximumSize: maximumSize)
    }
}
