import BackendCore
import CGStreamer
import GLibSupport

/// How ``ThumbnailGenerator/representativeThumbnail(_:)`` picks the one frame that stands for a
/// video (a file manager's preview): like Totem's thumbnailer, it tries a few places in turn and
/// takes the first frame that is not (nearly) uniform, measured by GStreamer's `videoanalyse`
/// (the luma variance of the scaled frame); when every place is uniform, the most varied one.
/// Each place costs one key-unit seek and one decoded key frame, so a typical video (interesting
/// at the first place) costs one. Pure values; any thread.
public struct RepresentativeFrame: Sendable, Hashable {
    /// The places tried, in order, as fractions of the duration (Totem's order: 1/3, 2/3, 0.1,
    /// 0.9, 1/2). Media without a known duration gives its first frame.
    public var places: [Double]
    /// A frame whose luma variance (0…1) reaches this is taken at once. 0.004 is a standard
    /// deviation of about 16 of 255 levels, Totem's threshold; a black or single-colour frame is ~0.
    public var interestingVariance: Double

    /// The default: Totem's places and threshold.
    public init(places: [Double] = [1.0 / 3, 2.0 / 3, 0.1, 0.9, 0.5], interestingVariance: Double = 0.004) {
        self.places = places
        self.interestingVariance = interestingVariance
    }

    /// The times to try for media of `duration` (nil or zero: only the start). Pure.
    public func times(duration: MediaTime?) -> [MediaTime] {
        guard let duration, duration > .zero else { return [.zero] }
        return places.filter { $0 >= 0 && $0 < 1 }.map { MediaTime(nanoseconds: Int64(Double(duration.nanoseconds) * $0)) }
    }
}

extension ThumbnailGenerator {
    /// One thumbnail that represents the video (see ``RepresentativeFrame``): key-unit seeks
    /// whatever ``seekMode`` says, fitted into ``maximumSize``. Runs on a worker thread of its
    /// own; task cancellation stops it (throws `CancellationError`). Throws ``ImageError``:
    /// `.isDirectory`, `.open` (not found, not media…), `.noVideo` (audio only), `.noFrame`,
    /// `.timeout`.
    public func representativeThumbnail(_ choice: RepresentativeFrame = RepresentativeFrame()) async throws -> Thumbnail {
        let cancelled = Cancellable()
        let request = self
        let result: Result<Thumbnail, ImageError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                DetachedThread.start(name: "gstplay-thumb") {
                    do throws(ImageError) {
                        continuation.resume(returning: .success(try request.pickRepresentative(choice, cancelled: cancelled)))
                    } catch {
                        continuation.resume(returning: .failure(error))
                    }
                }
            }
        } onCancel: { cancelled.cancel() }
        try Task.checkCancellation()
        return try result.get()
    }

    /// The worker: open, then each place until an interesting frame; the best frame seen.
    private func pickRepresentative(_ choice: RepresentativeFrame, cancelled: Cancellable) throws(ImageError) -> Thumbnail {
        let pipeline = try makePipeline(analyses: true, cancelled: cancelled)
        defer { pipeline.close() }
        try pipeline.open()
        var best: (thumbnail: Thumbnail, variance: Double)?
        var lastError = ImageError(kind: .noFrame, message: "no frame could be decoded")
        for time in choice.times(duration: pipeline.duration) {
            if cancelled.isCancelled { throw ImageError(kind: .timeout, message: "cancelled") }
            do throws(ImageError) {
                let (sample, actual) = try pipeline.frame(at: time, mode: .keyUnit)
                defer { gst_sample_unref(sample) }
                guard let size = pipeline.outputSize else { throw ImageError(kind: .conversion, message: "the frame size is unknown") }
                let image = try FrameEncoder.image(fromEncoded: sample, format: format, width: size.width, height: size.height)
                let variance = pipeline.lastLumaVariance ?? 0
                if best == nil || variance > best!.variance {
                    best = (Thumbnail(requestedTime: time, actualTime: actual, image: image), variance)
                }
                if variance >= choice.interestingVariance { break }
            } catch {
                // A broken pipeline or a hung seek ends the search; a bad place is skipped.
                if error.kind == .open || error.kind == .timeout { throw error }
                lastError = error
            }
        }
        guard let best else { throw lastError }
        return best.thumbnail
    }
}
