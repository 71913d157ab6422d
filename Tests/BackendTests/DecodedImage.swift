@testable import BackendCore
@testable import BackendThumbnails
import Backend
import CGStreamer
import Foundation
import TestSupport
import XCTest

/// An encoded image decoded back by GStreamer (`appsrc ! pngdec|jpegdec ! videoconvert !
/// video/x-raw,format=RGB ! fakesink`, read from the sink's `last-sample`) for pixel checks.
struct DecodedImage {
    let width: Int
    let height: Int
    let rowBytes: Int
    let rgb: [UInt8]

    /// An RGB triple.
    struct Pixel: Equatable, CustomStringConvertible {
        var r: Int, g: Int, b: Int
        var description: String { "rgb(\(r),\(g),\(b))" }
        /// Within `tolerance` of `other` on every channel (codecs do not keep colours exact).
        func isClose(to other: Pixel, tolerance: Int = 40) -> Bool {
            abs(r - other.r) <= tolerance && abs(g - other.g) <= tolerance && abs(b - other.b) <= tolerance
        }
        static let red = Pixel(r: 255, g: 0, b: 0)
        static let green = Pixel(r: 0, g: 255, b: 0)
        static let blue = Pixel(r: 0, g: 0, b: 255)
        static let white = Pixel(r: 255, g: 255, b: 255)
        static let black = Pixel(r: 0, g: 0, b: 0)
    }

    func pixel(x: Int, y: Int) -> Pixel {
        let offset = y * rowBytes + x * 3
        return Pixel(r: Int(rgb[offset]), g: Int(rgb[offset + 1]), b: Int(rgb[offset + 2]))
    }

    /// True when every pixel is (nearly) black.
    var isBlack: Bool {
        for y in stride(from: 0, to: height, by: 4) {
            for x in stride(from: 0, to: width, by: 4) where !pixel(x: x, y: y).isClose(to: .black, tolerance: 16) { return false }
        }
        return true
    }

    /// Decodes `bytes` (PNG or JPEG); fails the test and returns nil when GStreamer cannot.
    static func decode(_ bytes: Data, format: ImageFormat = .png, file: StaticString = #filePath, line: UInt = #line) -> DecodedImage? {
        GStreamerRuntime.ensureInitialized()
        let decoder = format == .png ? "pngdec" : "jpegdec"
        let media = format == .png ? "image/png" : "image/jpeg"
        var error: UnsafeMutablePointer<GError>?
        guard let pipeline = gst_parse_launch(
            "appsrc name=src caps=\(media) ! \(decoder) ! videoconvert ! video/x-raw,format=RGB ! fakesink name=sink sync=false", &error) else {
            XCTFail("cannot build the decoding pipeline", file: file, line: line)
            return nil
        }
        defer { gst_element_set_state(pipeline, GST_STATE_NULL); gst_object_unref(UnsafeMutableRawPointer(pipeline)) }
        let bin = CGStreamer_as_bin(UnsafeMutableRawPointer(pipeline))
        let source = gst_bin_get_by_name(bin, "src")!, sink = gst_bin_get_by_name(bin, "sink")!
        defer { gst_object_unref(UnsafeMutableRawPointer(source)); gst_object_unref(UnsafeMutableRawPointer(sink)) }
        let buffer = bytes.withUnsafeBytes { gst_buffer_new_memdup($0.baseAddress, gsize($0.count)) }!
        _ = CGStreamer_appsrc_push_buffer(source, buffer)
        gst_buffer_unref(buffer)
        _ = CGStreamer_appsrc_end_of_stream(source)
        gst_element_set_state(pipeline, GST_STATE_PLAYING)
        let bus = gst_element_get_bus(pipeline)!
        defer { gst_object_unref(UnsafeMutableRawPointer(bus)) }
        var ended = false
        while !ended {
            switch BusWait.next(on: bus, timeout: .seconds(10), uri: nil, isCancelled: { false }) {
            case .asyncDone: continue
            case .endOfStream: ended = true
            case .error(let error): XCTFail("decoding failed: \(error)", file: file, line: line); return nil
            case .timedOut, .cancelled: XCTFail("decoding timed out", file: file, line: line); return nil
            }
        }
        guard let raw = CGStreamer_get_object(UnsafeMutableRawPointer(sink), "last-sample") else {
            XCTFail("no decoded frame", file: file, line: line)
            return nil
        }
        let sample = OpaquePointer(raw)
        defer { gst_sample_unref(sample) }
        guard let info = FrameEncoder.frameInfo(of: sample), let data = gst_sample_get_buffer(sample) else { return nil }
        let size = Int(gst_buffer_get_size(data))
        var rgb = [UInt8](repeating: 0, count: size)
        _ = rgb.withUnsafeMutableBytes { gst_buffer_extract(data, 0, $0.baseAddress, gsize(size)) }
        let rowBytes = (info.width * 3 + 3) / 4 * 4 // GStreamer rounds RGB rows up to 4 bytes
        XCTAssertGreaterThanOrEqual(size, rowBytes * info.height, file: file, line: line)
        return DecodedImage(width: info.width, height: info.height, rowBytes: rowBytes, rgb: rgb)
    }
}
