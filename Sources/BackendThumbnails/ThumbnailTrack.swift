import BackendCore
import CGStreamer
import GLibSupport
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A background track of small pictures of one media file, one every
/// ``ThumbnailTrackPlan/interval`` of the media, for a seek preview: made by a `ThumbnailPipeline`
/// of its own (video only, key-unit seeks, raw `BGRA` frames scaled to ``maximumSize``) on a
/// worker thread that starts with the first ``thumbnail(near:)``, makes the slots nearest to the
/// time last asked for first, and keeps the pictures for as long as the track lives.
///
/// **Low priority:** the worker thread runs at nice 19 and rests three times as long as each
/// picture took (at least 10 ms), so it uses at most about a quarter of one core; the decoding
/// itself runs on GStreamer's streaming threads, which come from a pool shared with the player
/// and keep their priority (a thread cannot take a lowered priority back).
///
/// **Thread:** any; the pictures sit behind one `Mutex`. ``init(location:maximumSize:onPicture:)``'s
/// `onPicture` runs on the worker thread after each new picture. Dropping the track (or
/// ``cancel()``) stops the worker after its current picture.
public final class ThumbnailTrack: Sendable {
    /// The default size the pictures are scaled down to fit.
    public static let defaultMaximumSize = ImageSize(width: 160, height: 90)

    /// The media's location (a path or a URI).
    public let location: String
    /// The box each picture fits in.
    public let maximumSize: ImageSize
    private let shared: Shared
    private let onPicture: @Sendable () -> Void

    /// A track of `location`; nothing runs before the first ``thumbnail(near:)``.
    public init(location: String, maximumSize: ImageSize = ThumbnailTrack.defaultMaximumSize,
                onPicture: @escaping @Sendable () -> Void = {}) {
        self.location = location
        self.maximumSize = maximumSize
        self.onPicture = onPicture
        shared = Shared()
    }

    deinit { shared.cancelled.cancel() }

    /// The picture made so far nearest to `time` (``ThumbnailTrackPlan/nearest(to:among:)``), nil
    /// before any. Starts the worker the first time and makes `time`'s slot the next one made.
    public func thumbnail(near time: MediaTime) -> BGRAPicture? {
        let start = shared.state.withLock { state -> Bool in
            state.hint = time
            defer { state.started = true }
            return !state.started
        }
        if start { startWorker() }
        return shared.state.withLock { state in
            ThumbnailTrackPlan.nearest(to: time, among: state.pictures.map(\.time)).map { state.pictures[$0] }
        }
    }

    /// The pictures made so far, in the order made.
    public var pictures: [BGRAPicture] { shared.state.withLock { $0.pictures } }
    /// The plan, once the worker opened the media.
    public var plan: ThumbnailTrackPlan? { shared.state.withLock { $0.plan } }
    /// The worker ended: every slot was made, the track was cancelled, or the media failed
    /// (``failure``).
    public var isFinished: Bool { shared.state.withLock { $0.finished } }
    /// Why the worker gave up, if it did (no video, not found…).
    public var failure: ImageError? { shared.state.withLock { $0.failure } }

    /// Stops the worker after its current picture; the pictures made stay.
    public func cancel() { shared.cancelled.cancel() }

    /// What the worker and the callers share.
    private final class Shared: Sendable {
        struct State {
            var started = false
            var finished = false
            var hint: MediaTime?
            var plan: ThumbnailTrackPlan?
            var made: Set<Int> = []
            var pictures: [BGRAPicture] = []
            var failure: ImageError?
        }
        let state = Mutex(State())
        let cancelled = Cancellable()
    }

    private func startWorker() {
        let (shared, location, maximumSize, onPicture) = (self.shared, self.location, self.maximumSize, self.onPicture)
        DetachedThread.start(name: "gstplay-track") {
            Self.lowerPriority()
            do throws(ImageError) {
                try Self.run(shared, location: location, maximumSize: maximumSize, onPicture: onPicture)
            } catch {
                shared.state.withLock { $0.failure = error }
            }
            shared.state.withLock { $0.finished = true }
        }
    }

    /// The worker: open, then one key-unit seek per slot, nearest to the hint first, resting
    /// between pictures.
    private static func run(_ shared: Shared, location: String, maximumSize: ImageSize,
                            onPicture: @Sendable () -> Void) throws(ImageError) {
        GStreamerRuntime.ensureInitialized()
        let uri: String
        do { uri = try MediaLocation.uri(for: location) } catch { throw ImageError(kind: .open, message: error.message, underlying: error) }
        let pipeline = try ThumbnailPipeline(uri: uri, format: nil, maximumSize: maximumSize, burnsInTime: false,
                                             timeout: .seconds(20), isCancelled: { shared.cancelled.isCancelled })
        defer { pipeline.close() }
        try pipeline.open()
        guard let duration = pipeline.duration, duration > .zero else {
            throw ImageError(kind: .unknownDuration, message: "the duration is unknown")
        }
        let plan = ThumbnailTrackPlan(duration: duration)
        shared.state.withLock { $0.plan = plan }
        while !shared.cancelled.isCancelled {
            guard let slot = shared.state.withLock({ plan.nextSlot(made: $0.made, hint: $0.hint) }) else { return }
            let began = FeatureContext.now()
            var picture: BGRAPicture?
            do throws(ImageError) {
                let (sample, shown) = try pipeline.frame(at: plan.time(ofSlot: slot), mode: .keyUnit)
                defer { gst_sample_unref(sample) }
                picture = Self.picture(of: sample, time: shown)
            } catch {
                if shared.cancelled.isCancelled { return }
                if error.kind == .open || error.kind == .timeout { throw error }   // the pipeline broke
            }
            let added = shared.state.withLock { state -> Bool in
                state.made.insert(slot)
                guard let picture, !state.pictures.contains(where: { $0.time == picture.time }) else { return false }
                state.pictures.append(picture)
                return true
            }
            if added { onPicture() }
            let spent = FeatureContext.now() &- began
            g_usleep(gulong(min(max(spent * 3 / 1000, 10_000), 500_000)))
        }
    }

    /// The `BGRA` bytes of a raw sample (`gst_buffer_extract`), nil when its size is not
    /// `width × height × 4` (a padded layout).
    private static func picture(of sample: OpaquePointer, time: MediaTime) -> BGRAPicture? {
        guard let info = FrameEncoder.frameInfo(of: sample), let buffer = gst_sample_get_buffer(sample) else { return nil }
        let count = info.width * info.height * 4
        guard count > 0, Int(gst_buffer_get_size(buffer)) == count else { return nil }
        let pixels = [UInt8](unsafeUninitializedCapacity: count) { bytes, initialized in
            initialized = Int(gst_buffer_extract(buffer, 0, bytes.baseAddress, gsize(count)))
        }
        guard pixels.count == count else { return nil }
        return BGRAPicture(time: time, width: info.width, height: info.height, pixels: pixels)
    }

    /// Nice 19 for the calling thread only: on Linux the nice value is per thread, and
    /// `setpriority(PRIO_PROCESS, 0, …)` changes the caller's (`current` in the kernel).
    private static func lowerPriority() {
        #if os(Linux)
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 19)
        #endif
    }
}
