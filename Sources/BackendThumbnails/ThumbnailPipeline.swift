import BackendCore
import CGStreamer

/// The private decoding pipeline of a ``ThumbnailGenerator``: a `playbin` decoding only video
/// (flags `video|deinterlace|native-video`, no audio or subtitle decoding) into an ``EncodingSink`` that
/// scales and encodes each prerolled frame, driven by flushing seeks in PAUSED. It is
/// unrelated to any ``Player``.
///
/// **Thread:** one worker thread owns it from ``init(uri:)`` to ``close()``; every call blocks.
final class ThumbnailPipeline {
    let uri: String
    private var playbin: UnsafeMutablePointer<GstElement>?
    private let bus: UnsafeMutablePointer<GstBus>
    private let timeout: Duration
    private let isCancelled: () -> Bool
    private let encoder: EncodingSink
    private let maximumSize: ImageSize?
    private let analyses: Bool
    /// The `element-setup` handler of ``ThumbnailDecoding`` (disconnected by ``close()``).
    private var setupHandler: gulong = 0
    /// The size of every image, fixed from the first frame's caps by ``open()``.
    private(set) var outputSize: (width: Int, height: Int)?

    /// The duration found by ``open()``, if the media has one.
    private(set) var duration: MediaTime?

    /// The luma variance (0…1, `videoanalyse`) of the frame the last ``frame(at:mode:)``
    /// returned; nil unless the pipeline was built with `analyses`.
    private(set) var lastLumaVariance: Double?

    private enum PlayFlag {
        static let video: UInt32 = 0x1
        static let deinterlace: UInt32 = 0x200
        /// No `videoconvert`/`videoscale` of playsink's own: the ``EncodingSink`` has them, and
        /// its sink pad must see the decoder's size (``EncodingSink/rawFrameInfo()``) rather
        /// than one playsink scaled to fit the encoder's first, tiny caps.
        static let nativeVideo: UInt32 = 0x40
    }

    /// Builds the playbin (`gst_element_factory_make("playbin")`) with an ``EncodingSink``
    /// for video and a fakesink for audio (never used: the audio flag is off).
    /// `analyses`: measure each frame's luma variance (``lastLumaVariance``).
    /// `format` nil: raw `BGRA` frames (``EncodingSink``).
    init(uri: String, format: ImageFormat?, maximumSize: ImageSize?, burnsInTime: Bool, analyses: Bool = false,
         timeout: Duration, isCancelled: @escaping () -> Bool) throws(ImageError) {
        self.uri = uri
        self.maximumSize = maximumSize
        self.timeout = timeout
        self.isCancelled = isCancelled
        encoder = try EncodingSink(format: format, burnsInTime: burnsInTime, analyses: analyses)
        self.analyses = analyses
        guard let playbin = gst_element_factory_make("playbin", "thumbnails") else {
            throw ImageError(kind: .open, message: "cannot create playbin (GStreamer base plugins missing?)")
        }
        _ = gst_object_ref_sink(UnsafeMutableRawPointer(playbin))
        guard let audioSink = gst_element_factory_make("fakesink", "thumbnail-audio") else {
            gst_object_unref(UnsafeMutableRawPointer(playbin))
            throw ImageError(kind: .open, message: "cannot create fakesink (GStreamer core plugins missing?)")
        }
        let object = UnsafeMutableRawPointer(playbin)
        CGStreamer_set_boolean(UnsafeMutableRawPointer(audioSink), "sync", 0)
        CGStreamer_set_object(object, "video-sink", UnsafeMutableRawPointer(encoder.bin))
        CGStreamer_set_object(object, "audio-sink", UnsafeMutableRawPointer(audioSink))
        CGStreamer_set_flags(object, "flags", PlayFlag.video | PlayFlag.deinterlace | PlayFlag.nativeVideo)
        CGStreamer_set_string(object, "uri", uri)
        self.playbin = playbin
        self.bus = gst_element_get_bus(playbin)
        setupHandler = ThumbnailDecoding.attach(to: playbin)
    }

    deinit { close() }

    /// Prerolls (`PAUSED`, waits for ASYNC_DONE) and reads the duration. Throws ``ImageError``
    /// `.open` with GStreamer's error, `.noVideo` when nothing decodes to video.
    func open() throws(ImageError) {
        guard let playbin else { throw ImageError(kind: .open, message: "pipeline closed") }
        let change = gst_element_set_state(playbin, GST_STATE_PAUSED)
        if change == GST_STATE_CHANGE_NO_PREROLL {
            throw ImageError(kind: .open, message: "live sources have no frames to pick from")
        }
        switch prerollOutcome() {
        case .asyncDone: break
        case .endOfStream: throw ImageError(kind: .noFrame, message: "the media ended before its first frame")
        case .cancelled: throw ImageError(kind: .timeout, message: "cancelled")
        case .timedOut: throw ImageError(kind: .timeout, message: "no first frame within \(timeout)")
        case .error(let error):
            if streamCount("n-video") == 0 && streamCount("n-audio") > 0 {
                throw ImageError(kind: .noVideo, message: "no video stream (audio only)", underlying: error)
            }
            throw ImageError(kind: .open, message: error.description, underlying: error)
        }
        guard streamCount("n-video") > 0 else {
            throw ImageError(kind: .noVideo, message: "no video stream")
        }
        // The prerolled frame tells the display size; frames after the next seek get scaled.
        if let info = encoder.rawFrameInfo() {
            let size = FrameEncoder.outputSize(info, maximum: maximumSize)
            outputSize = size
            encoder.setOutputSize(width: size.width, height: size.height)
        }
        var value: gint64 = 0
        if gst_element_query_duration(playbin, GST_FORMAT_TIME, &value) != 0, value >= 0 {
            duration = MediaTime(nanoseconds: Int64(value))
        }
    }

    /// Seeks to `time` (flushing; ACCURATE, or KEY_UNIT|SNAP_NEAREST) and returns the encoded
    /// frame the sink prerolled (a new reference the caller unrefs) with its stream time.
    /// Throws `.timePastEnd` for times at or after the duration, `.noFrame` when the seek finds
    /// none, `.open` for pipeline errors (fatal for the pipeline).
    func frame(at time: MediaTime, mode: SeekMode) throws(ImageError) -> (sample: OpaquePointer, time: MediaTime) {
        guard let playbin else { throw ImageError(kind: .open, message: "pipeline closed") }
        if let duration, time >= duration {
            throw ImageError(kind: .timePastEnd, message: "\(time) is past the end (duration \(duration))")
        }
        guard time >= .zero else { throw ImageError(kind: .invalidArgument, message: "negative time \(time)") }
        var flags = GST_SEEK_FLAG_FLUSH.rawValue
        flags |= mode == .accurate ? GST_SEEK_FLAG_ACCURATE.rawValue
                                   : (GST_SEEK_FLAG_KEY_UNIT.rawValue | GST_SEEK_FLAG_SNAP_NEAREST.rawValue)
        guard gst_element_seek_simple(playbin, GST_FORMAT_TIME, GstSeekFlags(rawValue: flags), gint64(time.nanoseconds)) != 0 else {
            throw ImageError(kind: .noFrame, message: "seek to \(time) failed")
        }
        lastLumaVariance = nil
        var variance: Double?
        let outcome = BusWait.next(on: bus, timeout: timeout, uri: uri, isCancelled: isCancelled,
                                   element: analyses ? { variance = Self.lumaVariance(in: $0) ?? variance } : nil)
        lastLumaVariance = variance
        switch outcome {
        case .asyncDone, .endOfStream: break
        case .cancelled: throw ImageError(kind: .timeout, message: "cancelled")
        case .timedOut: throw ImageError(kind: .timeout, message: "no frame at \(time) within \(timeout)")
        case .error(let error): throw ImageError(kind: .open, message: error.description, underlying: error)
        }
        guard let sample = encoder.lastSample() else {
            throw ImageError(kind: .noFrame, message: "no frame at \(time)")
        }
        return (sample, FrameEncoder.streamTime(of: sample) ?? time)
    }

    /// Sets the pipeline to NULL and drops it (`gst_element_set_state`, `gst_object_unref`). Idempotent.
    func close() {
        guard let playbin else { return }
        self.playbin = nil
        gst_element_set_state(playbin, GST_STATE_NULL)
        ThumbnailDecoding.disconnect(setupHandler, from: playbin)
        gst_object_unref(UnsafeMutableRawPointer(bus))
        gst_object_unref(UnsafeMutableRawPointer(playbin))
    }

    /// `luma-variance` of a `GstVideoAnalyse` element message (`gst_structure_get_double`), else nil.
    private static func lumaVariance(in message: UnsafeMutablePointer<GstMessage>) -> Double? {
        guard let structure = gst_message_get_structure(message),
              gst_structure_has_name(structure, "GstVideoAnalyse") != 0 else { return nil }
        var value: gdouble = 0
        return gst_structure_get_double(structure, "luma-variance", &value) != 0 ? value : nil
    }

    /// How long a local file's preroll may go without a stream found before it is given up.
    /// Seen once in 600 parallel runs of `thumbnail` on `no-moov.mp4` under CPU load (2026-11-25):
    /// no error and no ASYNC_DONE, the 20 s timeout instead of "no playable streams" in 40 ms.
    /// The likely cause, from decodebin2's source (not confirmed by a log: the debug log hides
    /// the race): decodebin keeps back the errors an element posts while decodebin itself sets
    /// it to PAUSED and drops them when that state change succeeds; `qtdemux`'s task can fail
    /// inside that window. A local file finds its streams in milliseconds, so 5 s without one
    /// is such a stall (other URIs keep the whole timeout: a slow server is no stall).
    static let noStreamTimeout: Duration = .seconds(5)

    /// ``BusWait/next(on:timeout:uri:isCancelled:element:)`` for the preroll; a local file with
    /// no stream found after ``noStreamTimeout`` ends it as an error.
    private func prerollOutcome() -> BusWait.Outcome {
        guard URIScheme.isFile(uri), timeout > Self.noStreamTimeout else {
            return BusWait.next(on: bus, timeout: timeout, uri: uri, isCancelled: isCancelled)
        }
        let first = BusWait.next(on: bus, timeout: Self.noStreamTimeout, uri: uri, isCancelled: isCancelled)
        guard case .timedOut = first else { return first }
        if streamCount("n-video") + streamCount("n-audio") + streamCount("n-text") == 0 {
            return .error(PlayerError(kind: .stream, element: nil, message: "no playable stream found within \(Self.noStreamTimeout)", uri: uri))
        }
        return BusWait.next(on: bus, timeout: timeout - Self.noStreamTimeout, uri: uri, isCancelled: isCancelled)
    }

    private func streamCount(_ property: String) -> Int {
        guard let playbin else { return 0 }
        return Int(CGStreamer_get_int(UnsafeMutableRawPointer(playbin), property))
    }
}
