import BackendCore
import CGStreamer
import GLibSupport

/// Which times to take thumbnails at.
public enum ThumbnailTimes: Sendable, Hashable {
    /// Exactly these times, in this order.
    case times([MediaTime])
    /// `count` times spread evenly over the duration: the middle of each of `count` equal parts.
    case count(Int)

    /// The concrete times for media of `duration` (needed for ``count(_:)`` only). Pure.
    /// Throws `.invalidArgument` for a count below 1 or an empty list, `.unknownDuration` when a
    /// count is asked of media without a known duration.
    public func resolve(duration: MediaTime?) throws(ImageError) -> [MediaTime] {
        switch self {
        case .times(let list):
            guard !list.isEmpty else { throw ImageError(kind: .invalidArgument, message: "no times given") }
            return list
        case .count(let count):
            guard count > 0 else { throw ImageError(kind: .invalidArgument, message: "the count must be at least 1 (got \(count))") }
            guard let duration, duration > .zero else {
                throw ImageError(kind: .unknownDuration, message: "the duration is unknown, so \(count) times cannot be spread over it")
            }
            let step = Double(duration.nanoseconds) / Double(count)
            return (0..<count).map { MediaTime(nanoseconds: WholeNumber.clamped((Double($0) + 0.5) * step, to: 0...Int64.max)) }
        }
    }
}

/// One thumbnail: the time asked for, the time of the frame actually shown, and the image.
public struct Thumbnail: Sendable, Hashable {
    /// The time that was requested.
    public var requestedTime: MediaTime
    /// The stream time of the decoded frame (differs from ``requestedTime`` with key-unit seeks).
    public var actualTime: MediaTime
    /// The encoded image (display size, fitted into the maximum size).
    public var image: Image
}

/// One step of a thumbnail request: the outcome for one requested time, with the progress.
public struct ThumbnailResult: Sendable {
    /// Zero-based position of this time in the request.
    public var index: Int
    /// How many times the request has.
    public var total: Int
    /// The time that was requested.
    public var requestedTime: MediaTime
    /// The thumbnail, or why this one time failed (e.g. ``ImageError/Kind/timePastEnd``).
    public var result: Result<Thumbnail, ImageError>
    /// Progress after this step, 0…1.
    public var fractionCompleted: Double { Double(index + 1) / Double(max(total, 1)) }
}

/// Makes thumbnails of a media file at given times, like `AVAssetImageGenerator`, on a private
/// pipeline of its own (a video-only `playbin`) so that it never disturbs a playing `Player`.
///
/// **Threads:** ``thumbnails(at:)`` may be called from any thread; the work runs on a
/// dedicated worker thread per request, and results arrive through the returned stream.
/// Cancelling the consuming task (or dropping the stream) stops the worker within ~50 ms and
/// tears its pipeline down.
public struct ThumbnailGenerator: Sendable {
    /// The URI or file path of the media.
    public var location: String
    /// The bounding box of each image (display size scaled down to fit); nil keeps the display size.
    public var maximumSize: ImageSize?
    /// The encoding of the images.
    public var format: ImageFormat
    /// `.keyUnit` (fast, the nearest key frame) or `.accurate` (exactly the requested time).
    /// With `.keyUnit` a time whose key frame another image of the request already shows (or
    /// that would put the images out of time order) is sought accurately instead, so a
    /// request's images never repeat a frame where the media has enough frames.
    public var seekMode: SeekMode
    /// Writes each frame's time (`H:MM:SS.mmm`, the time of the frame shown) on the lower left
    /// of its image with `textoverlay`, as contact sheets caption tiles. Off by default.
    public var burnsInTime: Bool
    /// The longest wait for the pipeline to open or for one seek to land.
    public var timeout: Duration

    /// Creates a generator; nothing runs until ``thumbnails(at:)``.
    public init(location: String, maximumSize: ImageSize? = nil, format: ImageFormat = .png,
                seekMode: SeekMode = .keyUnit, burnsInTime: Bool = false, timeout: Duration = .seconds(20)) {
        self.location = location
        self.maximumSize = maximumSize
        self.format = format
        self.seekMode = seekMode
        self.burnsInTime = burnsInTime
        self.timeout = timeout
    }

    /// Starts a request. The stream yields one ``ThumbnailResult`` per time, in order (a failed
    /// time, such as one past the end, is a failed result and the others still come), and
    /// finishes after the last. Problems with the whole request finish it by throwing an
    /// ``ImageError``: `.isDirectory`, `.open` (not found, not media…), `.noVideo`,
    /// `.unknownDuration`, `.invalidArgument`, `.timeout`.
    public func thumbnails(at times: ThumbnailTimes) -> AsyncThrowingStream<ThumbnailResult, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: ThumbnailResult.self, throwing: (any Error).self)
        let cancelled = Cancellable()
        continuation.onTermination = { _ in cancelled.cancel() }
        let request = self
        DetachedThread.start(name: "gstplay-thumbs") {
            do throws(ImageError) {
                try request.run(times, cancelled: cancelled) { continuation.yield($0) }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        return stream
    }

    /// Collects every thumbnail of a request; the first failed time or whole-request problem
    /// is thrown. Honours task cancellation (throws `CancellationError`).
    public func generate(at times: ThumbnailTimes) async throws -> [Thumbnail] {
        var collected: [Thumbnail] = []
        for try await step in self.thumbnails(at: times) {
            collected.append(try step.result.get())
        }
        try Task.checkCancellation()
        return collected
    }

    /// The request's pipeline, built for ``location`` (not opened yet). Worker thread.
    func makePipeline(analyses: Bool = false, cancelled: Cancellable) throws(ImageError) -> ThumbnailPipeline {
        GStreamerRuntime.ensureInitialized()
        let uri: String
        do { uri = try MediaLocation.uri(for: location) } catch {
            throw ImageError(kind: .open, message: error.message, underlying: error)
        }
        if let path = Self.localPath(of: uri) {
            if g_file_test(path, G_FILE_TEST_IS_DIR) != 0 {
                throw ImageError(kind: .isDirectory, message: "is a directory, not a media file")
            }
        }
        return try ThumbnailPipeline(uri: uri, format: format, maximumSize: maximumSize, burnsInTime: burnsInTime,
                                     analyses: analyses, timeout: timeout, isCancelled: { cancelled.isCancelled })
    }

    /// The request on the worker thread: open, then one seek and encode per time.
    private func run(_ times: ThumbnailTimes, cancelled: Cancellable,
                     yield: (ThumbnailResult) -> Void) throws(ImageError) {
        let pipeline = try makePipeline(cancelled: cancelled)
        defer { pipeline.close() }
        try pipeline.open()
        let list = try times.resolve(duration: pipeline.duration)
        var distinct = DistinctFrames()
        for (index, time) in list.enumerated() {
            if cancelled.isCancelled { return }
            let outcome: Result<Thumbnail, ImageError>
            do throws(ImageError) {
                var (sample, actual) = try pipeline.frame(at: time, mode: seekMode)
                if seekMode == .keyUnit,
                   !distinct.accepts(key: actual, requested: time, next: index + 1 < list.count ? list[index + 1] : nil) {
                    gst_sample_unref(sample)
                    (sample, actual) = try pipeline.frame(at: time, mode: .accurate)
                }
                distinct.record(actual, requested: time)
                defer { gst_sample_unref(sample) }
                guard let size = pipeline.outputSize else { throw ImageError(kind: .conversion, message: "the frame size is unknown") }
                let image = try FrameEncoder.image(fromEncoded: sample, format: format, width: size.width, height: size.height)
                outcome = .success(Thumbnail(requestedTime: time, actualTime: actual, image: image))
            } catch {
                if cancelled.isCancelled { return }
                // A broken pipeline or a hung seek ends the request; the rest fail one by one.
                if error.kind == .open || error.kind == .timeout { throw error }
                outcome = .failure(error)
            }
            yield(ThumbnailResult(index: index, total: list.count, requestedTime: time, result: outcome))
        }
    }

    /// Ranks decoders that load quickly above the usual ones **for the whole process** (every
    /// pipeline made afterwards, players included): `openh264dec` just above gst-libav's
    /// `avdec_h264` (`gst_plugin_feature_set_rank`; the registry cache is untouched). Loading
    /// gst-libav costs ~50 ms of CPU, more than one thumbnail's decoding, so a one-shot process
    /// such as the `gstplay thumbnail` thumbnailer starts faster; thumbnail pipelines still hand
    /// H.264 that `openh264dec` cannot decode (interlaced, not 8-bit 4:2:0) to `avdec_h264`.
    /// Returns false when either decoder is missing. Any thread; call before making pipelines.
    @discardableResult
    public static func preferLightDecoders() -> Bool {
        GStreamerRuntime.ensureInitialized()
        return ThumbnailDecoding.preferOpenH264()
    }

    /// The local path of a `file://` URI (`gst_filename_from_uri`), nil for other schemes.
    static func localPath(of uri: String) -> String? {
        guard URIScheme.isFile(uri) else { return nil }
        return String(takingGLibString: g_filename_from_uri(uri, nil, nil))
    }
}
