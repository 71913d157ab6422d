import BackendCore
import CGStreamer
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Helpers shared by snapshots and thumbnails: a raw frame's size and pixel aspect ratio, the
/// output size and caps for an encoded image of the display size, copying an encoded sample
/// into an ``Image``, and a frame's stream time. The encoding itself is GStreamer's
/// (`pngenc`/`jpegenc` in ``EncodingSink``, or playbin's `convert-sample`). Any thread.
enum FrameEncoder {
    /// Coded size and pixel aspect ratio of a raw video sample's caps.
    struct FrameInfo: Equatable {
        var width: Int
        var height: Int
        var parNumerator: Int
        var parDenominator: Int
    }

    /// Reads the raw-video caps of `sample` (`gst_sample_get_caps` → `GstVideoInfo`).
    static func frameInfo(of sample: OpaquePointer) -> FrameInfo? {
        guard let caps = gst_sample_get_caps(sample) else { return nil }
        var width: gint = 0, height: gint = 0, parN: gint = 1, parD: gint = 1
        guard CGStreamer_video_caps_size(caps, &width, &height, &parN, &parD) != 0, width > 0, height > 0 else { return nil }
        return FrameInfo(width: Int(width), height: Int(height), parNumerator: Int(parN), parDenominator: Int(parD))
    }

    /// The output size of a frame under `maximum` (display size, scaled down to fit).
    static func outputSize(_ info: FrameInfo, maximum: ImageSize?) -> (width: Int, height: Int) {
        ImageSize.fitting(codedWidth: info.width, codedHeight: info.height,
                          parNumerator: info.parNumerator, parDenominator: info.parDenominator, in: maximum)
    }

    /// New caps asking for an encoded image of exactly `width × height` square pixels
    /// (`gst_caps_from_string`); the caller unrefs them.
    static func encodedCaps(_ format: ImageFormat, width: Int, height: Int) -> UnsafeMutablePointer<GstCaps>? {
        gst_caps_from_string("\(format.mediaType), width=(int)\(width), height=(int)\(height), pixel-aspect-ratio=(fraction)1/1")
    }

    /// Copies the bytes of an encoded sample (`gst_buffer_extract`) into an ``Image``.
    static func image(fromEncoded sample: OpaquePointer, format: ImageFormat, width: Int, height: Int) throws(ImageError) -> Image {
        guard let buffer = gst_sample_get_buffer(sample) else {
            throw ImageError(kind: .conversion, message: "the encoder produced no data")
        }
        let size = Int(gst_buffer_get_size(buffer))
        guard size > 0 else { throw ImageError(kind: .conversion, message: "the encoder produced an empty image") }
        var data = Data(count: size)
        let copied = data.withUnsafeMutableBytes { Int(gst_buffer_extract(buffer, 0, $0.baseAddress, gsize(size))) }
        guard copied == size else { throw ImageError(kind: .conversion, message: "short read from the encoded image") }
        return Image(format: format, width: width, height: height, bytes: data)
    }

    /// The stream time at which the sample's frame starts (`GST_BUFFER_PTS` through
    /// `gst_segment_to_stream_time_full`), or nil. After an accurate seek between two frames the
    /// frame covering the target arrives clipped to the segment (its PTS moved up to the target,
    /// its duration shortened); its real start is then recovered as its end minus one nominal
    /// frame duration from the caps' framerate.
    static func streamTime(of sample: OpaquePointer) -> MediaTime? {
        guard let buffer = gst_sample_get_buffer(sample), let segment = gst_sample_get_segment(sample) else { return nil }
        return streamTime(of: buffer, in: segment, caps: gst_sample_get_caps(sample))
    }

    /// ``streamTime(of:)`` for a buffer, its segment and caps (e.g. in a pad probe).
    static func streamTime(of buffer: UnsafeMutablePointer<GstBuffer>, in segment: UnsafePointer<GstSegment>,
                           caps: UnsafeMutablePointer<GstCaps>?) -> MediaTime? {
        var pts = buffer.pointee.pts
        guard pts != CGStreamer_CLOCK_TIME_NONE() else { return nil }
        let duration = buffer.pointee.duration
        if duration != CGStreamer_CLOCK_TIME_NONE(), let frame = frameDuration(of: caps),
           duration + 1_000_000 < frame, pts + duration >= frame {
            pts = pts + duration - frame
        }
        var time: guint64 = 0
        let sign = gst_segment_to_stream_time_full(segment, GST_FORMAT_TIME, pts, &time)
        guard sign != 0 else { return nil }
        return MediaTime(nanoseconds: sign > 0 ? Int64(clamping: time) : -Int64(clamping: time))
    }

    /// One frame's duration from the sample caps' `framerate`, nil for variable (0/1) rates.
    private static func frameDuration(of caps: UnsafeMutablePointer<GstCaps>?) -> GstClockTime? {
        guard let caps, let structure = gst_caps_get_structure(caps, 0) else { return nil }
        var numerator: gint = 0, denominator: gint = 0
        guard gst_structure_get_fraction(structure, "framerate", &numerator, &denominator) != 0,
              numerator > 0, denominator > 0 else { return nil }
        return gst_util_uint64_scale_int(CGStreamer_SECOND(), denominator, numerator)
    }
}
